import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../db/database';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { countFiguresAgain } from './figures.repository';

/** Counting the food court's figures again (a changed VENUE_TIME_ZONE) from the orders still kept. */
let dir: string;
let target: TestDatabase;
let database: Database;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-figures-'));
  target = await createTestDatabase(dir, 'figures');
  database = await openDatabase(target.url);
});
afterAll(async () => {
  await database.close();
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('counting the figures again in another zone', () => {
  it('keeps the figures of days whose orders were purged, and counts the kept orders in the new zone', async () => {
    const { db } = database;
    // 2020: what is left of orders purged long ago, counted in the old zone.
    await db.insertInto('report_hours').values({ day: '2020-01-01', hour: 12, orders: 40, cancelled: 2, revenue_cents: 34_000 }).execute();
    const { id } = await db
      .insertInto('orders')
      .values({ table_number: 4, status: 'served', total_cents: 850, token: 'kept-1', request_hash: 'kept-1', created_at: '2026-03-02T23:30:00.000Z', updated_at: '2026-03-02T23:40:00.000Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('order_lines').values({ order_id: id, stall_id: null, stall_name: 'Gone Noodles', name: 'Ramen', unit_price_cents: 850, quantity: 1 }).execute();

    await countFiguresAgain(database, 'Asia/Tokyo');

    const hours = await db.selectFrom('report_hours').select(['day', 'hour', 'orders', 'revenue_cents']).orderBy('day').execute();
    expect(hours).toEqual([
      { day: '2020-01-01', hour: 12, orders: 40, revenue_cents: 34_000 },
      // 23:30 UTC is 08:30 the next morning in Tokyo.
      { day: '2026-03-03', hour: 8, orders: 1, revenue_cents: 850 },
    ]);
  });
});
