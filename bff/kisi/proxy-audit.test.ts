import express from 'express';
import request from 'supertest';
import type { AuditActor, AuditRecord } from '../db/audit-trail';
import { createLogger } from '../lib/logger';
import { startStubServer, type StubServer } from '../test-support/stub-server';
import { kisiApi } from '../contracts/kisi.contract';
import { kisiProxy } from './proxy';

/** The proxy's audit of Kisi writes, with an audit trail the test holds back. */
let stub: StubServer;
beforeAll(async () => {
  // With its length, as Kisi answers: a client has the whole answer once that many bytes came, end or not.
  stub = await startStubServer((_req, res) => {
    const body = JSON.stringify({ message: 'Unlocked!' });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});
afterAll(() => stub.close());

/**
 * Calls `ended` with the answer each time something ends it: the proxy passing Kisi's answer on (it
 * ends the answer as its copy of Kisi's comes to an end), and any layer the proxy put over `end`.
 */
function watchEnd(res: express.Response, ended: (res: express.Response) => void) {
  let current = res.end;
  // Whoever reads `end` gets the one in place now, watched; whoever sets it replaces that one.
  Object.defineProperty(res, 'end', {
    configurable: true,
    get: () => {
      const end = current;
      return function (this: unknown, ...args: unknown[]) {
        ended(res);
        return (end as (...a: unknown[]) => unknown).apply(this, args);
      };
    },
    set: (end: express.Response['end']) => void (current = end),
  });
}

function proxiedApp(audit: (actor: AuditActor, record: AuditRecord) => Promise<void>, { onEnd }: { onEnd?: (res: express.Response) => void } = {}) {
  const app = express();
  app.use((req, res, next) => {
    req.user = { id: 5, email: 'boss@frontdesk.test', name: 'Boss', role: 'admin' };
    if (onEnd) watchEnd(res, onEnd);
    next();
  });
  app.use(
    '/api/kisi',
    express.json(),
    kisiProxy({
      settings: { mode: 'remote', baseUrl: stub.url, apiKey: 'stub-key', groupId: 7, timeoutMs: 2000 },
      limiter: { acquire: async () => {}, queued: 0 },
      logger: createLogger('silent'),
      client: {
        getUser: async (id) => ({ id, name: 'Ada', email: 'ada@members.example', accessEnabled: true }),
        // Kisi's lists by `ids`: lock 3 and link 40 are there, link 41 cannot be read.
        labelOf: async (list, id) => {
          if (list === kisiApi.listLocks && id === 3) return 'Main Entrance';
          if (list === kisiApi.listGroupLinks && id === 40) return 'Day pass: Ada <ada@members.example>';
          throw new Error('Kisi did not answer');
        },
      },
      audit,
    }),
  );
  return app;
}

describe('the Kisi proxy’s audit', () => {
  it('sends the answer of a write Kisi accepted only once its audit entry is stored', async () => {
    let store!: () => void;
    const recorded: AuditRecord[] = [];
    let called!: () => void;
    const auditCalled = new Promise<void>((resolve) => (called = resolve));
    // The proxy has passed all of Kisi's answer on when it ends ours: what went out by then is what would reach the caller.
    let passedOn!: (sent: { headers: boolean; ended: boolean }) => void;
    const kisiAnswerPassedOn = new Promise<{ headers: boolean; ended: boolean }>((resolve) => (passedOn = resolve));
    const app = proxiedApp(
      (_actor, record) => {
        recorded.push(record);
        called();
        return new Promise<void>((resolve) => (store = resolve));
      },
      { onEnd: (res) => queueMicrotask(() => passedOn({ headers: res.headersSent, ended: res.writableEnded })) },
    );
    let answered = false;
    const answer = request(app)
      .post('/api/kisi/locks/3/unlock')
      .then((res) => ((answered = true), res));
    await auditCalled;
    // Kisi has answered and the entry is on its way: nothing of the answer has gone to the caller yet.
    expect(await kisiAnswerPassedOn).toEqual({ headers: false, ended: false });
    expect(answered).toBe(false);
    store();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Unlocked!' });
    expect(recorded).toEqual([{ kind: 'unlock', action: 'unlocked remotely', subjectId: '3', subject: 'Main Entrance' }]);
  });

  it('names a revoked access link as Kisi had it just before, or by its id when it could not be read', async () => {
    const recorded: AuditRecord[] = [];
    const app = proxiedApp(async (_actor, record) => void recorded.push(record));
    await request(app).delete('/api/kisi/group_links/40').expect(200);
    await request(app).delete('/api/kisi/group_links/41').expect(200);
    expect(recorded).toEqual([
      { kind: 'access_link', action: 'revoked', subjectId: '40', subject: 'Day pass: Ada <ada@members.example>' },
      { kind: 'access_link', action: 'revoked', subjectId: '41', subject: 'Kisi access link 41' },
    ]);
  });

  it('records a user switch with the user as Kisi had them before, and nothing for a read', async () => {
    const recorded: Array<{ actor: AuditActor; record: AuditRecord }> = [];
    const app = proxiedApp(async (actor, record) => void recorded.push({ actor, record }));
    await request(app).patch('/api/kisi/users/12').send({ user: { access_enabled: false } }).expect(200);
    await request(app).get('/api/kisi/users/12').expect(200);
    expect(recorded).toEqual([
      {
        actor: expect.objectContaining({ email: 'boss@frontdesk.test' }),
        record: { kind: 'kisi', action: 'user switched off', subjectId: '12', subject: 'Ada <ada@members.example>', changes: [{ field: 'accessEnabled', before: true, after: false }] },
      },
    ]);
  });
});
