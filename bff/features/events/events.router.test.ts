import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { SESSION_ENDED_EVENT } from '../../contracts/events.contract';
import { fakeTimersBesideIo } from '../../test-support/clock';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../test-support/test-app';

let ctx: TestContext;
let server: http.Server;
let base: string;
let cookie: string;
let bus: TestContext['bus'];
const HEARTBEAT_MS = 15_000;
/** The frame a stream ends with when its session ends. */
const SESSION_ENDED_TEXT = `event: ${SESSION_ENDED_EVENT}\ndata: {}\n\n`;
/** Says 'change' whenever a stream subscribes to the bus or lets go of it. */
const listeners = new EventEmitter();
/** The bus's own listeners before any stream: the features' (the food court forgets its kept board pages on an order event). */
let featureListeners = 0;
/** Resolves once the bus has `streams` stream listeners besides the features'. */
const streamListenersBecome = async (streams: number) => {
  while (bus.listenerCount !== featureListeners + streams) await once(listeners, 'change');
};

beforeAll(async () => {
  ctx = await createTestContext({}, { eventStream: { heartbeatMs: HEARTBEAT_MS, maxReplay: 5 } });
  bus = ctx.bus;
  featureListeners = bus.listenerCount;
  const subscribe = bus.subscribe.bind(bus);
  jest.spyOn(bus, 'subscribe').mockImplementation((listener) => {
    const unsubscribe = subscribe(listener);
    listeners.emit('change');
    return () => {
      unsubscribe();
      listeners.emit('change');
    };
  });
  await ctx.loginAs('staff', 'stream@frontdesk.test');
  const login = await request(ctx.app).post('/api/auth/login').send({ email: 'stream@frontdesk.test', password: TEST_PASSWORD });
  cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
  server = await new Promise((resolve) => {
    const s = ctx.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  ctx.endStreams();
  await new Promise((r) => server.close(r));
  await ctx.close();
});

/** Opens the stream and collects its text; `waitFor` resolves with it once a pattern matches. */
function openStream(headers: Record<string, string> = {}) {
  let text = '';
  let status = 0;
  let over = false;
  let onEnd = () => {};
  const ended = new Promise<void>((resolve) => (onEnd = resolve));
  const checks = new Set<() => void>();
  const news = () => checks.forEach((check) => check());
  const req = http.get(`${base}/api/events`, { headers: { cookie, ...headers } });
  req.on('error', () => {}); // closed by the test
  const ready = new Promise<void>((resolve) => {
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        news();
      });
      res.on('end', () => {
        over = true;
        onEnd();
        news();
      });
      resolve();
    });
  });
  /** The text so far, once `pattern` matches it; fails when the stream ends without a match. */
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (pattern.test(text)) resolve(text);
        else if (over) reject(new Error(`The stream ended without ${pattern}:\n${text}`));
        else return;
        checks.delete(check);
      };
      checks.add(check);
      check();
    });
  return { ready, waitFor, ended, close: () => req.destroy(), status: () => status, text: () => text };
}

describe('GET /api/events', () => {
  it('needs a session', async () => {
    await request(ctx.app).get('/api/events').expect(401);
  });

  it('streams a published webhook event with its id and type', async () => {
    const stream = openStream();
    await stream.ready;
    expect(stream.status()).toBe(200);
    await stream.waitFor(/retry: 3000/);
    const published = await bus.publish('webhook', { uuid: 'abc', type: 'lock.unlock', actorEmail: 'ana@example.com' });
    const text = await stream.waitFor(/lock\.unlock/);
    expect(text).toContain(`id: ${published.id}\nevent: webhook\ndata: {"uuid":"abc","type":"lock.unlock","actorEmail":"ana@example.com"}\n\n`);
    stream.close();
  });

  it('says where it starts in its first message, so a browser that heard nothing yet resumes from there, not from "now"', async () => {
    const before = await bus.publish('webhook', { seq: 'before' });
    const stream = openStream();
    await stream.ready;
    // The id of the last event handed out: what a reconnect sends as Last-Event-ID.
    const text = await stream.waitFor(/id: \d+\n\n/);
    expect(text.startsWith(`retry: 3000\nid: ${before.id}\n\n`)).toBe(true);
    // The connection drops before any event reached it; two events are published while it is away.
    stream.close();
    await streamListenersBecome(0);
    const missed = [await bus.publish('webhook', { seq: 'missed-1' }), await bus.publish('order', { seq: 'missed-2' })];
    const back = openStream({ 'Last-Event-ID': before.id });
    await back.ready;
    const resumed = await back.waitFor(/missed-2/);
    expect(resumed).toContain(`id: ${missed[0]!.id}\nevent: webhook\ndata: {"seq":"missed-1"}`);
    expect(resumed).toContain(`id: ${missed[1]!.id}\nevent: order`);
    expect(resumed).not.toContain('"seq":"before"');
    back.close();
  });

  it("sends each person only the events their role may see: a runner hears orders, not door events", async () => {
    await ctx.loginAs('runner', 'runs@frontdesk.test');
    const login = await request(ctx.app).post('/api/auth/login').send({ email: 'runs@frontdesk.test', password: TEST_PASSWORD });
    const runnerStream = openStream({ cookie: String(login.headers['set-cookie']).split(';')[0] ?? '' });
    const staffStream = openStream();
    await Promise.all([runnerStream.ready, staffStream.ready]);
    await Promise.all([runnerStream.waitFor(/retry/), staffStream.waitFor(/retry/)]);
    await bus.publish('webhook', { uuid: 'door-1', actorEmail: 'private@example.com' });
    const order = await bus.publish('order', { id: 77, status: 'received' });
    await runnerStream.waitFor(/"id":77/);
    await staffStream.waitFor(/"id":77/);
    expect(runnerStream.text()).toContain(`id: ${order.id}\nevent: order`);
    expect(runnerStream.text()).not.toContain('private@example.com');
    expect(staffStream.text()).toContain('private@example.com');
    runnerStream.close();
    staffStream.close();
  });

  it('resumes after Last-Event-ID from the stored log, without repeats', async () => {
    const first = await bus.publish('webhook', { n: 1 });
    const second = await bus.publish('webhook', { n: 2 });
    const third = await bus.publish('order', { n: 3 });
    const stream = openStream({ 'Last-Event-ID': first.id });
    await stream.ready;
    const text = await stream.waitFor(/"n":3/);
    expect(text).not.toContain('"n":1');
    expect(text.indexOf(`id: ${second.id}`)).toBeLessThan(text.indexOf(`id: ${third.id}`));
    expect(text).toContain('event: order');
    const live = await bus.publish('webhook', { n: 4 });
    expect(await stream.waitFor(/"n":4/)).toContain(`id: ${live.id}`);
    expect(stream.text().match(/"n":2/g)).toHaveLength(1);
    stream.close();
  });

  it('names on a signed-in read where the live stream stands, and a stream opened from there hears what came after the read', async () => {
    const before = await bus.publish('webhook', { n: 'before the read' });
    await bus.idle();
    const read = await request(ctx.app).get('/api/auth/session').set('Cookie', cookie);
    expect(read.headers['live-event-position']).toBe(before.id);
    // A visitor is not told how busy the venue is.
    expect((await request(ctx.app).get('/api/auth/session')).headers['live-event-position']).toBeUndefined();

    const after = await bus.publish('webhook', { n: 'after the read' });
    // The client opens it with ?lastEventId=, read like the header a browser sends on its own reconnect.
    const resumed = openStream({ 'Last-Event-ID': read.headers['live-event-position']! });
    const text = await resumed.waitFor(/after the read/);
    expect(text).toContain(`id: ${after.id}`);
    expect(text).not.toContain('before the read');
    resumed.close();
  });

  it('replays at most maxReplay stored events, then ends with the last id, so the reconnect goes on from there', async () => {
    const stored = [];
    for (let n = 1; n <= 7; n++) stored.push(await bus.publish('webhook', { batch: n }));
    const behind = openStream({ 'Last-Event-ID': String(Number(stored[0]!.id) - 1) });
    await behind.ready;
    await behind.ended;
    expect(behind.text().match(/"batch":\d/g)).toEqual(['"batch":1', '"batch":2', '"batch":3', '"batch":4', '"batch":5']);
    expect(behind.text().endsWith(`id: ${stored[4]!.id}\n\n`)).toBe(true);
    const reconnected = openStream({ 'Last-Event-ID': stored[4]!.id });
    await reconnected.ready;
    await reconnected.waitFor(/"batch":7/);
    expect(reconnected.text().match(/"batch":\d/g)).toEqual(['"batch":6', '"batch":7']);
    const live = await bus.publish('webhook', { batch: 8 });
    expect(await reconnected.waitFor(/"batch":8/)).toContain(`id: ${live.id}`);
    reconnected.close();
  });

  it('sends heartbeats, on the heartbeat interval', async () => {
    fakeTimersBesideIo();
    try {
      const stream = openStream();
      await stream.waitFor(/retry/);
      await jest.advanceTimersByTimeAsync(HEARTBEAT_MS - 1);
      expect(stream.text()).not.toMatch(/heartbeat/);
      await jest.advanceTimersByTimeAsync(1);
      expect(await stream.waitFor(/: heartbeat/)).toMatch(/: heartbeat \d{4}-/);
      await jest.advanceTimersByTimeAsync(HEARTBEAT_MS);
      expect(await stream.waitFor(/: heartbeat[^]*: heartbeat/)).toMatch(/^retry: 3000\nid: \d+\n\n: heartbeat \S+\n\n: heartbeat \S+\n\n$/);
      stream.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('lets go of a client that disconnects', async () => {
    await streamListenersBecome(0); // streams of earlier tests are gone
    const stream = openStream();
    await stream.waitFor(/retry/);
    expect(bus.listenerCount).toBe(featureListeners + 1);
    stream.close();
    await streamListenersBecome(0);
  });

  it('ends the stream when the session is logged out', async () => {
    await ctx.loginAs('staff', 'leaving@frontdesk.test');
    const login = await request(ctx.app).post('/api/auth/login').send({ email: 'leaving@frontdesk.test', password: TEST_PASSWORD });
    const leavingCookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    const stream = openStream({ cookie: leavingCookie });
    await stream.waitFor(/retry/);
    await request(ctx.app).post('/api/auth/logout').set('Cookie', leavingCookie).expect(204);
    await stream.ended;
    // Its last words tell the browser not to reconnect (it would be refused) and to say it is signed out.
    expect(stream.text().endsWith(SESSION_ENDED_TEXT)).toBe(true);
  });

  it("ends a demoted person's stream at once, saying so last: it must not go on hearing the old role's events", async () => {
    const admin = await ctx.loginAs('admin', 'demoting@frontdesk.test');
    await ctx.loginAs('staff', 'demoted@frontdesk.test');
    const login = await request(ctx.app).post('/api/auth/login').send({ email: 'demoted@frontdesk.test', password: TEST_PASSWORD });
    const stream = openStream({ cookie: String(login.headers['set-cookie']).split(';')[0] ?? '' });
    await stream.waitFor(/retry/);
    const demoted = await ctx.database.db.selectFrom('accounts').select('id').where('email', '=', 'demoted@frontdesk.test').executeTakeFirstOrThrow();
    await admin.put(`/api/team/accounts/${demoted.id}/role`).send({ role: 'runner' }).expect(200);
    await stream.ended;
    // The page then asks who it is (still signed in) and opens a stream for its new role.
    expect(stream.text().endsWith(SESSION_ENDED_TEXT)).toBe(true);
  });

  it('ends the stream of an account deactivated where this instance was not told (another process) at the next heartbeat, saying so last', async () => {
    fakeTimersBesideIo();
    try {
      await ctx.loginAs('runner', 'revoked@frontdesk.test');
      const login = await request(ctx.app).post('/api/auth/login').send({ email: 'revoked@frontdesk.test', password: TEST_PASSWORD });
      const stream = openStream({ cookie: String(login.headers['set-cookie']).split(';')[0] ?? '' });
      await stream.waitFor(/retry/);
      // Written by another process, which cannot tell this one (the account command on SQLite).
      await ctx.database.db.updateTable('accounts').set({ status: 'deactivated' }).where('email', '=', 'revoked@frontdesk.test').execute();
      await jest.advanceTimersByTimeAsync(HEARTBEAT_MS);
      await stream.ended;
      expect(stream.text()).toMatch(/^retry: 3000\nid: \d+\n\nevent: session-ended\ndata: \{\}\n\n$/);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('GET /api/events and a logout, with the heartbeat a minute away', () => {
  it('ends the stream at the logout itself, not at the next heartbeat', async () => {
    const quiet = await createTestContext({}, { eventStream: { heartbeatMs: 60_000 } });
    const listening = await new Promise<http.Server>((resolve) => {
      const s = quiet.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const agent = await quiet.loginAs('staff', 'quiet@frontdesk.test');
    const login = await request(quiet.app).post('/api/auth/login').send({ email: 'quiet@frontdesk.test', password: TEST_PASSWORD });
    const sessionCookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    let text = '';
    let onOpen = () => {};
    const opened = new Promise<void>((resolve) => (onOpen = resolve));
    const ended = new Promise<void>((resolve) => {
      http.get(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/api/events`, { headers: { cookie: sessionCookie } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('retry')) onOpen();
        });
        res.on('end', resolve);
      });
    });
    await opened;
    // Another session of the same person stays signed in: only the one logged out ends.
    await agent.get('/api/auth/getAuth').expect(200);
    await request(quiet.app).post('/api/auth/logout').set('Cookie', sessionCookie).expect(204);
    await ended;
    // Ended by the logout: no heartbeat came (the first is a minute away) to find the session gone.
    // Its last frame says why, so the browser does not reconnect into a 401.
    expect(text).toMatch(/^retry: 3000\nid: \d+\n\nevent: session-ended\ndata: \{\}\n\n$/);
    await agent.get('/api/auth/getAuth').expect(200);
    quiet.endStreams();
    await new Promise((r) => listening.close(r));
    await quiet.close();
  });
});
