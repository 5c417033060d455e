import request from 'supertest';
import { createTestContext, withTestContext, type TestContext } from '../test-support/test-app';
import { testEngine } from '../test-support/test-database';

const TOKEN = 'scrape-me-0123456789abcdef';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ METRICS_TOKEN: TOKEN, PUBLIC_ORIGIN: 'https://desk.example.com' });
});
afterAll(() => ctx.close());

const scrape = async () => (await request(ctx.app).get('/metrics').set('Host', '10.0.0.5:3000').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;
/** The value of one series (`name{labels}`), 0 when it is not there yet. */
const valueOf = (text: string, series: string) => Number(text.split('\n').find((line) => line.startsWith(`${series} `))?.split(' ')[1] ?? 0);

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    await withTestContext({}, async (off) => {
      const res = await request(off.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('process_resident_memory_bytes');
    });
  });

  it('wants the token as a bearer token', async () => {
    const none = await request(ctx.app).get('/metrics').expect(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(none.type).toBe('application/problem+json');
    await request(ctx.app).get('/metrics').set('Authorization', 'Bearer scrape-me-0123456789abcdeX').expect(401);
    await request(ctx.app).get('/metrics').set('Authorization', `Basic ${TOKEN}`).expect(401);
    await request(ctx.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}x`).expect(401);
  });

  it('makes each wrong token wait, and refuses an address after 10 in a minute (429 with Retry-After) even its right token; another address is answered', async () => {
    await withTestContext({ env: { METRICS_TOKEN: TOKEN, TRUST_PROXY: '1' } }, async (guessed) => {
      const from = (address: string, token: string) => request(guessed.app).get('/metrics').set('X-Forwarded-For', address).set('Authorization', `Bearer ${token}`);
      const started = Date.now();
      const wrong = await Promise.all(Array.from({ length: 10 }, (_, i) => from('203.0.113.7', `wrong-token-${i}-0123456789`)));
      expect(wrong.map((res) => res.status)).toEqual(Array(10).fill(401));
      // Each wrong one waited before its answer (side by side here: one wait in all).
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      const limited = await from('203.0.113.7', TOKEN);
      expect(limited.status).toBe(429);
      expect(limited.type).toBe('application/problem+json');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(50);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(limited.body.detail).toMatch(/^Too many wrong metrics tokens from this address: try again in \d+ s\.$/);
      await from('198.51.100.9', TOKEN).expect(200);
    });
  });

  it('answers a scraper that names the instance by its address, in Prometheus text, with Node\u2019s own figures', async () => {
    const res = await request(ctx.app).get('/metrics').set('Host', '10.0.0.5:3000').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.type).toBe('text/plain');
    for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds', 'frontdesk_event_streams_open']) expect(res.text).toMatch(new RegExp(`^${name} \\d`, 'm'));
    expect(res.text.includes('frontdesk_db_pool_connections{state="max"} 10')).toBe(testEngine() === 'postgres');
  });

  it('labels requests by their route pattern and status, never by the address asked for', async () => {
    const before = await scrape();
    const series = 'frontdesk_http_requests_total{method="GET",route="/api/pt/stalls/:id",status="404"}';
    await request(ctx.app).get('/api/pt/stalls/9876501').expect(404);
    await request(ctx.app).get('/api/pt/stalls/9876502').expect(404);
    await request(ctx.app).get('/api/no-such-thing-5f3a9c').expect(404);
    const after = await scrape();
    expect(valueOf(after, series) - valueOf(before, series)).toBe(2);
    expect(after).toMatch(/^frontdesk_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/api\/pt\/stalls\/:id",status="404"\} \d/m);
    expect(after).toContain('route="(other /api)",status="404"');
    expect(after).not.toMatch(/9876501|9876502|5f3a9c/);
  });

  it('counts orders placed (a replayed submit once) and chat messages posted', async () => {
    const staff = await ctx.loginAs('staff');
    const stall = (await staff.post('/api/pt/stalls').send({ name: 'Metered', cuisine: 'Test', description: 'A test stall' }).expect(201)).body as { id: number };
    const item = (await staff.post(`/api/pt/stalls/${stall.id}/items`).send({ name: 'Soup', priceCents: 450 }).expect(201)).body as { id: number };
    const channel = (await (await ctx.loginAs('admin')).post('/api/chat/channels').send({ name: 'Metered', runnersMayJoin: false }).expect(201)).body as { id: number };
    const before = await scrape();
    const order = () => request(ctx.app).post('/api/pt/order').set('Idempotency-Key', 'metered-order-1').send({ table: 3, cart: [{ itemId: item.id, quantity: 1 }] });
    expect((await order()).status).toBe(201);
    expect((await order()).status).toBeLessThan(300);
    await staff.post(`/api/chat/channels/${channel.id}/messages`).send({ body: 'Soup is up' }).expect(201);
    const after = await scrape();
    expect(valueOf(after, 'frontdesk_orders_placed_total') - valueOf(before, 'frontdesk_orders_placed_total')).toBe(1);
    expect(valueOf(after, 'frontdesk_chat_messages_posted_total') - valueOf(before, 'frontdesk_chat_messages_posted_total')).toBe(1);
  });

  it('counts the members whose door access waits for Kisi', async () => {
    const away = new Error('Kisi is unreachable');
    away.name = 'KisiError';
    const fails = async (): Promise<never> => {
      throw away;
    };
    const door = { findUser: fails, findUsers: fails, setAccess: fails, probe: fails };
    await withTestContext({ env: { METRICS_TOKEN: TOKEN }, overrides: { door } }, async (away) => {
      const scrapeAway = async () => (await request(away.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;
      expect(valueOf(await scrapeAway(), 'frontdesk_door_switches_waiting')).toBe(0);
      const staff = await away.loginAs('staff');
      const owner = (await staff.post('/api/gym/owners').send({ name: 'Gauge Owner', email: 'gauge@gyms.test', gymName: 'Gauge Gym' }).expect(201)).body as { id: number };
      for (const n of [1, 2]) await staff.post('/api/gym/users').send({ email: `gauge${n}@members.test`, name: `Gauge ${n}`, ownerId: owner.id }).expect(201);
      expect(valueOf(await scrapeAway(), 'frontdesk_door_switches_waiting')).toBe(2);
    });
  });
});
