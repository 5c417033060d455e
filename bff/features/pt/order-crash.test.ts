import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Menu, PlacedOrder } from '../../contracts/pt.contract';
import { openDatabase } from '../../db/database';
import { spawnBff } from '../../test-support/spawn-bff';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';

/**
 * The BFF killed with SIGKILL while diners are ordering: after a restart, every order that was
 * answered 201 is there exactly once and whole, and a diner who retries an unanswered submit with
 * the same Idempotency-Key gets one order, never two.
 */
jest.setTimeout(60_000);

let dir: string;
let target: TestDatabase;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-crash-'));
  target = await createTestDatabase(dir, 'crash');
});
afterAll(async () => {
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const startBff = () =>
  spawnBff({ DATABASE_URL: target.url, STATIC_DIR: path.join(dir, 'static'), ADMIN_PASSWORD: 'crash-test-admin-password', ORDERS_PER_MINUTE: '100000' });

const submit = (url: string, key: string, body: string) =>
  fetch(`${url}/api/pt/order`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key }, body, signal: AbortSignal.timeout(10_000) });

it('keeps every acknowledged order exactly once across a SIGKILL, and retries make no second order', async () => {
  const first = await startBff();
  const menu = (await (await fetch(`${first.url}/api/pt/menu`)).json()) as Menu;
  const items = menu.stalls.flatMap((stall) => stall.items.filter((item) => !item.soldOut));
  expect(items.length).toBeGreaterThan(1);
  const bodyFor = (n: number) => JSON.stringify({ table: (n % menu.tables) + 1, cart: [{ itemId: items[n % items.length]!.id, quantity: 1 + (n % 3) }, { itemId: items[(n + 1) % items.length]!.id, quantity: 1 }] });

  const acknowledged = new Map<string, number>();
  const sent = new Map<string, string>();
  let n = 0;
  let killed = false;
  const diner = async () => {
    while (!killed) {
      const key = `crash-${(n++).toString().padStart(6, '0')}`;
      const body = bodyFor(n);
      sent.set(key, body);
      try {
        const res = await submit(first.url, key, body);
        if (res.status === 201) acknowledged.set(key, ((await res.json()) as PlacedOrder).id);
      } catch {
        // The connection died with the server: this diner's submit was not answered.
      }
    }
  };
  const diners = Array.from({ length: 8 }, diner);
  while (acknowledged.size < 150) await new Promise((r) => setTimeout(r, 5));
  first.child.kill('SIGKILL');
  killed = true;
  await Promise.all(diners);
  expect(acknowledged.size).toBeGreaterThanOrEqual(150);

  const second = await startBff();
  try {
    const database = await openDatabase(target.url);
    const rows = await database.db.selectFrom('orders').select(['id', 'idempotency_key', 'total_cents']).execute();
    const lines = await database.db.selectFrom('order_lines').select(['order_id', 'unit_price_cents', 'quantity']).execute();
    await database.close();
    const byKey = new Map(rows.map((row) => [row.idempotency_key, row]));
    // Every 201 is there, under its id, once; no order is without its lines or has a wrong total.
    for (const [key, id] of acknowledged) expect(byKey.get(key)?.id).toBe(id);
    expect(byKey.size).toBe(rows.length);
    for (const row of rows) {
      const own = lines.filter((line) => line.order_id === row.id);
      expect(own.length).toBe(2);
      expect(own.reduce((sum, line) => sum + line.unit_price_cents * line.quantity, 0)).toBe(row.total_cents);
    }

    // Every diner whose submit went unanswered tries again with the same key: one order each, never two.
    const unanswered = [...sent].filter(([key]) => !acknowledged.has(key));
    for (const [key, body] of unanswered) expect((await submit(second.url, key, body)).status).toBe(201);
    for (const [key, body] of [...acknowledged].slice(0, 5).map(([key]) => [key, sent.get(key)!] as const)) {
      const again = await submit(second.url, key, body);
      expect(((await again.json()) as PlacedOrder).id).toBe(acknowledged.get(key));
    }
    const after = await openDatabase(target.url);
    const total = await after.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await after.close();
    expect(Number(total.n)).toBe(sent.size);
    console.log(`crash test: ${acknowledged.size} orders acknowledged before SIGKILL, ${rows.length} stored, ${unanswered.length} unanswered retried, ${sent.size} orders in the end`);
  } finally {
    await second.stop();
  }
});
