import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from './database';
import { connect, createKysely } from './engine';
import { MIGRATIONS } from './migrations/migrations';
import type { DB } from './schema';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';

/**
 * Migration 040 (kitchen tickets dish by dish): lines of tickets already ready count as ready at the
 * ticket's time, lines get their dish's allergens as it has them now, and the figures are to be
 * counted again (their zone forgotten) so the stalls' preparation is counted from the tickets kept.
 */
let dir: string;
let target: TestDatabase;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-kitchen-lines-'));
  target = await createTestDatabase(dir, 'kitchenlines');
});
afterEach(async () => {
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("marks the lines of ready tickets ready, copies each dish's allergens, and has the figures counted again", async () => {
  const connection = connect(target.url);
  const old = createKysely<DB>(connection);
  await migrateToLatest(old, connection, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '040')));
  const at = '2026-03-01T12:00:00.000Z';
  const ready = '2026-03-01T12:09:00.000Z';
  await sql`insert into stalls (id, name, status, created_at, updated_at) values (1, 'Noodles', 'open', ${at}, ${at}), (2, 'Grill', 'open', ${at}, ${at})`.execute(old);
  await sql`insert into menu_items (id, stall_id, name, category, price_cents, sold_out, allergens, created_at, updated_at)
    values (11, 1, 'Laksa', 'Mains', 900, 0, '["peanuts","shellfish"]', ${at}, ${at}), (21, 2, 'Satay', 'Mains', 800, 0, '["peanuts"]', ${at}, ${at})`.execute(old);
  await sql`insert into orders (id, table_number, status, total_cents, token, request_hash, created_at, updated_at)
    values (1, 4, 'preparing', 2500, 't1', 'h1', ${at}, ${ready})`.execute(old);
  await sql`insert into order_lines (id, order_id, item_id, stall_id, stall_name, name, unit_price_cents, quantity)
    values (1, 1, 11, 1, 'Noodles', 'Laksa', 900, 1), (2, 1, 21, 2, 'Grill', 'Satay', 800, 2), (3, 1, null, 2, 'Grill', 'Gone dish', 0, 1)`.execute(old);
  await sql`insert into order_tickets (order_id, stall_id, stall_name, status, received_at, preparing_at, ready_at)
    values (1, 1, 'Noodles', 'ready', ${at}, ${at}, ${ready}), (1, 2, 'Grill', 'preparing', ${at}, ${at}, null)`.execute(old);
  await sql`insert into app_meta (key, value) values ('report_figures_zone', 'UTC')`.execute(old);
  await connection.close();
  await old.destroy();

  const database = await openDatabase(target.url);
  try {
    const lines = await database.db.selectFrom('order_lines').select(['name', 'ready_at', 'allergens']).orderBy('id').execute();
    expect(lines).toEqual([
      { name: 'Laksa', ready_at: ready, allergens: '["peanuts","shellfish"]' },
      { name: 'Satay', ready_at: null, allergens: '["peanuts"]' },
      { name: 'Gone dish', ready_at: null, allergens: '[]' },
    ]);
    expect(await database.db.selectFrom('app_meta').select('value').where('key', '=', 'report_figures_zone').executeTakeFirst()).toBeUndefined();
  } finally {
    await database.close();
  }
});
