import express from 'express';
import request from 'supertest';
import type { RemoteUnlockOutcome, RemoteUnlockRequest, RemoteUnlockRequests } from '../db/remote-unlocks';
import { createLogger } from '../lib/logger';
import { startStubServer, type StubServer } from '../test-support/stub-server';
import { kisiProxy } from './proxy';

/**
 * The proxy records a remote unlock before it forwards it (decision 0103), and settles the record by
 * Kisi's answer: accepted, refused (Kisi logs a refused attempt), or lost (nothing logged, or no
 * answer at all), so a record never waits for an event that will not come.
 */
const KEY = 'stub-secret-kisi-key';
let stub: StubServer;
/** What happened, in order: the proxy's records and settles, and Kisi receiving a request. */
const log: string[] = [];
beforeAll(async () => {
  stub = await startStubServer((req, res) => {
    log.push(`kisi ${req.method} ${req.url}`);
    const lock = Number(/\/locks\/(\d+)\/unlock/.exec(req.url)?.[1]);
    if (lock === 9) return void res.destroy();
    const [status, body] = (
      {
        5: [503, { error: 'The wireless lock is offline.', code: 'fad107' }],
        6: [409, { error: 'The door is currently locked down.', code: 'fad001' }],
        7: [429, { error: 'Rate limit exceeded.', code: '000429' }],
        8: [401, { error: 'Your login is invalid.', code: '000401' }],
        404: [404, { error: 'The door could not be found.', code: 'fad10e' }],
      } as Record<number, [number, object]>
    )[lock] ?? [200, { message: 'Unlocked!' }];
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
});
afterAll(() => stub.close());
beforeEach(() => void (log.length = 0));

const logLines: string[] = [];
function proxiedApp({ apiAccountId = async () => 77 }: { apiAccountId?: () => Promise<number> } = {}) {
  let next = 0;
  const requests: RemoteUnlockRequests = {
    record: async (r: RemoteUnlockRequest) => {
      log.push(`record lock ${r.lockId} as Kisi user ${r.kisiUserId} by ${r.account.name} <${r.account.email}>`);
      return ++next;
    },
    settle: async (id: number, outcome: RemoteUnlockOutcome) => void log.push(`settle ${id} ${outcome}`),
  };
  const app = express();
  app.use((req, _res, nxt) => {
    req.user = { id: 5, email: 'sam.staff@frontdesk.test', name: 'Sam Staff', role: 'admin' };
    nxt();
  });
  const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  app.use(
    '/api/kisi',
    express.json(),
    kisiProxy({
      settings: { mode: 'remote', baseUrl: stub.url, apiKey: KEY, groupId: 7, timeoutMs: 2000 },
      limiter: { acquire: async () => {}, queued: 0 },
      logger,
      client: { getUser: async () => null, labelOf: async () => null },
      audit: async () => {},
      remoteUnlocks: { apiAccountId, requests },
    }),
  );
  return app;
}

describe('the Kisi proxy’s record of a remote unlock', () => {
  it('records who pressed it before Kisi gets it, and settles it by Kisi’s answer', async () => {
    const app = proxiedApp();
    await request(app).post('/api/kisi/locks/1/unlock').expect(200);
    expect(log).toEqual(['record lock 1 as Kisi user 77 by Sam Staff <sam.staff@frontdesk.test>', 'kisi POST /locks/1/unlock', 'settle 1 accepted']);

    // A door locked down or offline: Kisi logs the refused attempt, which the record waits for.
    log.length = 0;
    await request(app).post('/api/kisi/locks/6/unlock').expect(409);
    await request(app).post('/api/kisi/locks/5/unlock').expect(503);
    expect(log.filter((l) => l.startsWith('settle'))).toEqual(['settle 2 refused', 'settle 3 refused']);
  });

  it('settles as lost, before the caller has the answer, what Kisi refused without logging an attempt for certain, or never answered', async () => {
    const app = proxiedApp();
    for (const [lock, status] of [
      [404, 404],
      [7, 429],
      [8, 502],
      [9, 502],
    ]) {
      await request(app).post(`/api/kisi/locks/${lock}/unlock`).expect(status!);
      // Settled by the time the answer arrived: a refusal leaves no record behind.
      expect(log.at(-1)).toMatch(/^settle \d+ lost$/);
    }
    expect(log.filter((l) => l.startsWith('settle'))).toEqual(['settle 1 lost', 'settle 2 lost', 'settle 3 lost', 'settle 4 lost']);
  });

  it('still opens the door when Kisi cannot say whose the key is, without a record; reads and other writes record nothing', async () => {
    const app = proxiedApp({ apiAccountId: () => Promise.reject(new Error('Kisi is unreachable')) });
    await request(app).post('/api/kisi/locks/1/unlock').expect(200);
    await request(app).get('/api/kisi/locks').expect(200);
    expect(log).toEqual(['kisi POST /locks/1/unlock', 'kisi GET /locks']);
    expect(logLines.join('\n')).toContain('without a record of who pressed it');
    expect(logLines.join('\n')).not.toContain(KEY);
  });
});
