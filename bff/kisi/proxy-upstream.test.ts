import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestContext, type TestContext } from '../test-support/test-app';
import { fakeTimersBesideIo } from '../test-support/clock';
import { startStubServer, type StubServer } from '../test-support/stub-server';
import { createKisi } from './kisi';
import { KISI_RATE_MARGIN_MS, KISI_RATE_WINDOW_MS } from './rate-limiter';

// The proxy against a stand-in upstream that records what it receives and misbehaves on demand.
const KEY = 'stub-kisi-key-0123456789';
let stub: StubServer;
let behaviour: (url: string, res: http.ServerResponse) => void;

beforeAll(async () => {
  stub = await startStubServer((req, res) => behaviour(req.url, res));
});
afterAll(() => stub.close());

async function contextFor(baseUrl: string, { timeoutMs = 2000, ratePerSecond = 100 } = {}) {
  const kisi = createKisi({ mode: 'remote', baseUrl, apiKey: KEY, groupId: 7, timeoutMs }, { ratePerSecond });
  const ctx = await createTestContext({}, { kisi });
  return { ctx, kisi, admin: await ctx.loginAs('admin') };
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('Kisi proxy against a stub upstream', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<TestContext['loginAs']>>;
  beforeAll(async () => ({ ctx, admin } = await contextFor(stub.url)));
  afterAll(() => ctx.close());
  beforeEach(() => {
    stub.requests.length = 0;
  });

  it('adds the key and JSON headers, strips the browser cookie and authorization, and forwards X-Collection-Range', async () => {
    behaviour = (_url, res) => json(res, 200, [{ id: 1 }], { 'X-Collection-Range': '0-9/1', 'Set-Cookie': 'kisi=1' });
    const res = await admin.get('/api/kisi/users?query=ann&limit=10').set('Authorization', 'Bearer from-browser').set('Origin', 'http://evil.example').expect(200);
    expect(res.body).toEqual([{ id: 1 }]);
    expect(res.headers['x-collection-range']).toBe('0-9/1');
    expect(res.headers['set-cookie']).toBeUndefined();
    const [sent] = stub.requests;
    expect(sent?.url).toBe('/users?query=ann&limit=10');
    expect(sent?.headers.authorization).toBe(`KISI-LOGIN ${KEY}`);
    expect(sent?.headers.accept).toBe('application/json');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.cookie).toBeUndefined();
    expect(sent?.headers.origin).toBeUndefined();
  });

  it('refuses a body nested thousands of levels deep with a 400 problem and sends Kisi nothing', async () => {
    behaviour = (_url, res) => json(res, 200, { id: 3 });
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await admin.post('/api/kisi/groups').set('Content-Type', 'application/json').send(deep).expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toBe('The request body is nested too deeply (at most 64 levels of objects and arrays).');
    expect(stub.requests).toEqual([]);
    // As deep as it may be, and brackets inside strings, go through.
    const allowed = `${'['.repeat(63)}{"name":"[[[[{{{{"}${']'.repeat(63)}`;
    await admin.post('/api/kisi/groups').set('Content-Type', 'application/json').send(allowed).expect(200);
    expect(stub.requests).toHaveLength(1);
  });

  it('sends the JSON body on (after the BFF parsed it) and fills in the configured group of an access link', async () => {
    behaviour = (_url, res) => json(res, 200, { id: 3 });
    await admin.post('/api/kisi/group_links').send({ group_link: { name: 'Guest', email: 'g@mail.example' } }).expect(200);
    await admin.patch('/api/kisi/users/12').send({ user: { access_enabled: false } });
    expect(JSON.parse(stub.requests[0]!.body)).toEqual({ group_link: { name: 'Guest', email: 'g@mail.example', group_id: 7 } });
    // The user is read first, so the audit trail has the switch's before.
    expect(stub.requests[1]).toMatchObject({ method: 'GET', url: '/users/12' });
    expect(stub.requests[2]).toMatchObject({ method: 'PATCH', url: '/users/12' });
    expect(JSON.parse(stub.requests[2]!.body)).toEqual({ user: { access_enabled: false } });
  });

  it("passes Kisi's 429 through with its body, and 403/409/503 likewise", async () => {
    for (const [status, code] of [[429, '000429'], [403, 'afc496'], [409, 'fad001'], [503, 'fad107']] as const) {
      behaviour = (_url, res) => json(res, status, { error: 'from kisi', code }, status === 429 ? { 'Retry-After': '1' } : {});
      const res = await admin.post('/api/kisi/locks/4/unlock').expect(status);
      expect(res.body).toEqual({ error: 'from kisi', code });
      if (status === 429) expect(res.headers['retry-after']).toBe('1');
    }
  });

  it("turns Kisi's 401 (the server's key is wrong) into a 502, so the browser does not take it for its own session ending", async () => {
    behaviour = (_url, res) => json(res, 401, { error: 'bad login', code: '000401' });
    const res = await admin.get('/api/kisi/users').expect(502);
    expect(res.headers['x-kisi-status']).toBe('401');
  });
});

describe('Kisi proxy when Kisi is down or silent', () => {
  it('answers a 502 problem when nothing listens at KISI_BASE_URL', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { ctx, admin } = await contextFor(`http://127.0.0.1:${port}`);
    try {
      const res = await admin.get('/api/kisi/users').expect(502);
      expect(res.type).toBe('application/problem+json');
      expect(res.body).toMatchObject({ status: 502, title: 'Bad Gateway' });
    } finally {
      await ctx.close();
    }
  });

  it('answers a 504 problem when Kisi takes the request and does not answer within KISI_TIMEOUT_MS', async () => {
    const hanging = await startStubServer(() => {}); // never answers
    const { ctx, admin } = await contextFor(hanging.url, { timeoutMs: 300 });
    try {
      const res = await admin.get('/api/kisi/groups').expect(504);
      expect(res.body).toMatchObject({ status: 504, detail: 'Kisi did not answer within 300 ms.' });
      // Kisi had the request: the 504 is its silence, not a failure on the way there.
      await hanging.received(1);
      expect(hanging.requests.map((r) => r.url)).toEqual(['/groups']);
      // The server is still fine afterwards.
      await admin.get('/api/auth/getAuth').expect(200);
    } finally {
      await ctx.close();
      await hanging.close();
    }
  });
});

describe('Kisi proxy rate limit', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps outgoing calls at 5 per second by queueing: every request is answered, none dropped', async () => {
    const counting = await startStubServer((_req, res) => json(res, 200, []));
    const { ctx, kisi, admin } = await contextFor(counting.url, { ratePerSecond: 5 });
    // The window is timed on a fake clock; the requests are real.
    fakeTimersBesideIo();
    const window = KISI_RATE_WINDOW_MS + KISI_RATE_MARGIN_MS;
    const acquire = kisi.limiter.acquire.bind(kisi.limiter);
    let asked = 0;
    const allAsked = new Promise<void>((resolve) => {
      jest.spyOn(kisi.limiter, 'acquire').mockImplementation((signal) => {
        if (++asked === 12) resolve();
        return acquire(signal);
      });
    });
    const answers = Promise.all(Array.from({ length: 12 }, () => admin.get('/api/kisi/locks')));
    try {
      // All twelve reached the proxy: five went on to Kisi, seven wait their turn.
      await allAsked;
      await counting.received(5);
      expect([counting.requests.length, kisi.limiter.queued]).toEqual([5, 7]);
      // Still so a moment before the window ends; then the next five go.
      await jest.advanceTimersByTimeAsync(window - 1);
      expect([counting.requests.length, kisi.limiter.queued]).toEqual([5, 7]);
      await jest.advanceTimersByTimeAsync(1);
      await counting.received(10);
      expect([counting.requests.length, kisi.limiter.queued]).toEqual([10, 2]);
      await jest.advanceTimersByTimeAsync(window);
      expect((await answers).map((r) => r.status)).toEqual(Array(12).fill(200));
      // Kisi saw five calls, five a window later, and the last two a window after that.
      const times = counting.requests.map((r) => r.at - counting.requests[0]!.at);
      expect(times).toEqual([0, 0, 0, 0, 0, window, window, window, window, window, 2 * window, 2 * window]);
    } finally {
      // Whatever failed, let every queued call go, so no request is left open.
      await jest.advanceTimersByTimeAsync(12 * window);
      jest.useRealTimers();
      await answers;
      await ctx.close();
      await counting.close();
    }
  });
});
