import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Menu, PlacedOrder } from './contracts/pt.contract';
import { openSseStream } from './test-support/live-client';
import { spawnBff, type SpawnedBff } from './test-support/spawn-bff';
import { testEngine } from './test-support/test-database';
import { startThrowawayPostgres, type ThrowawayPostgres } from './test-support/throwaway-postgres';

/**
 * PostgreSQL stopped (a fast shutdown, as a restart or a failover does) under a running instance:
 * requests get a 503 problem with Retry-After, never a 500, readiness says not ready; PostgreSQL
 * back on the same port, the instance serves again by itself, its pool and live-event listener
 * reconnected. Runs under `npm run test:postgres` (it needs PostgreSQL's programs), on a cluster of its own.
 */
jest.setTimeout(90_000);
const ADMIN_PASSWORD = 'outage-test-admin-password';
const onPostgres = testEngine() === 'postgres' ? describe : describe.skip;

onPostgres('a PostgreSQL outage', () => {
  let dir: string;
  let postgres: ThrowawayPostgres;
  let bff: SpawnedBff;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-outage-'));
    // PostgreSQL's own durability settings: what it acknowledged before the stop is what it has after.
    postgres = await startThrowawayPostgres({ durable: true });
    bff = await spawnBff({ DATABASE_URL: postgres.url, DATABASE_CONNECT_TIMEOUT_MS: '1000', UPLOADS_DIR: path.join(dir, 'uploads'), ADMIN_PASSWORD, ORDERS_PER_MINUTE: '100000' });
  });
  afterAll(async () => {
    await bff?.stop();
    await postgres?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // A refused connection is the instance gone: its own words say why.
  const get = (route: string) =>
    fetch(`${bff.url}${route}`).catch((err: unknown) => {
      throw new Error(`GET ${route} failed (${String((err as Error).cause ?? err)}); the instance ${bff.child.exitCode === null && bff.child.signalCode === null ? 'still runs' : `exited (${bff.child.exitCode ?? bff.child.signalCode})`}; its output:\n${bff.output()}`);
    });
  async function until(route: string, status: number) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await get(route);
      if (res.status === status || Date.now() > deadline) return res;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('answers 503 with Retry-After while PostgreSQL is away, and serves again by itself when it is back', async () => {
    expect((await until('/api/health/ready', 200)).status).toBe(200);
    expect((await get('/api/pt/stalls')).status).toBe(200);

    await postgres.pause();
    const away = await get('/api/pt/stalls');
    expect(away.status).toBe(503);
    expect(away.headers.get('retry-after')).toBe('5');
    expect(away.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await away.json()).toMatchObject({ status: 503, detail: 'The service is briefly unavailable. Try again in a few seconds.' });
    const notReady = await get('/api/health/ready');
    expect(notReady.status).toBe(503);
    expect(((await notReady.json()) as { errors: Array<{ path: string }> }).errors.map((e) => e.path)).toContain('database');
    expect((await get('/api/health/live')).status).toBe(200);

    await postgres.resume();
    expect((await until('/api/health/ready', 200)).status).toBe(200);
    expect((await get('/api/pt/stalls')).status).toBe(200);
    expect(bff.child.exitCode).toBeNull();
  });

  it('under use: each order placed through the outage is answered 201 and kept, or 503 and safe to send again with its key; the open live stream carries on', async () => {
    const login = await fetch(`${bff.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@frontdesk.local', password: ADMIN_PASSWORD }) });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const menu = (await (await get('/api/pt/menu')).json()) as Menu;
    const items = menu.stalls.filter((stall) => stall.availability.state === 'open').flatMap((stall) => stall.items.filter((item) => !item.soldOut).map((item) => item.id));
    expect(items.length).toBeGreaterThan(0);
    const order = (key: string, body: string) => fetch(`${bff.url}/api/pt/order`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body });
    const stream = await openSseStream(`${bff.url}/api/events`, cookie);
    expect(stream.status).toBe(200);

    // A diner places an order every 50 ms (each with its own key) while PostgreSQL stops and comes back.
    const answers: Array<{ key: string; body: string; status: number; order?: PlacedOrder }> = [];
    let placing = true;
    const placeOrders = (async () => {
      for (let n = 0; placing; n++) {
        const key = `outage-${n}`;
        const body = JSON.stringify({ table: 1 + (n % menu.tables), cart: [{ itemId: items[n % items.length]!, quantity: 1 }] });
        const res = await order(key, body).catch(() => undefined);
        answers.push({ key, body, status: res?.status ?? 0, order: res?.status === 201 ? ((await res.json()) as PlacedOrder) : (await res?.text(), undefined) });
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const placedBefore = async (count: number) => {
      while (answers.filter((a) => a.status === 201).length < count) await new Promise((r) => setTimeout(r, 50));
    };
    await placedBefore(5);
    await postgres.pause();
    const refusedFrom = answers.length;
    while (answers.slice(refusedFrom).filter((a) => a.status === 503).length < 5) await new Promise((r) => setTimeout(r, 50));
    await postgres.resume();
    expect((await until('/api/health/ready', 200)).status).toBe(200);
    const afterCount = answers.filter((a) => a.status === 201).length;
    await placedBefore(afterCount + 5);
    placing = false;
    await placeOrders;

    // Every answer was a 201 or a 503 (never a 500, never no answer).
    expect([...new Set(answers.map((a) => a.status))].sort()).toEqual([201, 503]);
    const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.order!);
    // Each acknowledged order is there, as the diner can read it with its token.
    for (const kept of acknowledged) expect((await get(`/api/pt/orders/${kept.id}?token=${kept.token}`)).status).toBe(200);
    // A refused one is the diner's to send again, with its key: placed then (a refused write kept nothing;
    // one whose commit the stop cut off would come back as the same order, never as a second one).
    for (const refused of answers.filter((a) => a.status === 503).slice(0, 5)) {
      const again = await order(refused.key, refused.body);
      expect(again.status).toBe(201);
      const placed = (await again.json()) as PlacedOrder;
      expect((await (await order(refused.key, refused.body)).json()) as PlacedOrder).toMatchObject({ id: placed.id, replayed: true });
    }
    // The stream that stayed open has the order event of the last order placed after the outage.
    const last = acknowledged.at(-1)!;
    await stream.next((frame) => frame.event === 'order' && (frame.data as { id: number }).id === last.id);
    stream.close();
    console.log(`database outage under use: ${answers.length} orders sent, ${acknowledged.length} acknowledged (all kept), ${answers.filter((a) => a.status === 503).length} refused with 503 (each placed once when sent again)`);
  });
});
