import type { Kysely } from 'kysely';

/**
 * The food court's figures kept by the venue's hour (issue 51, decision 0099): a report adds up at
 * most 31 days × 24 hours of them instead of reading a month of order lines.
 * - `report_hours`: each hour's orders placed, how many of them are cancelled now, and what the rest
 *   are worth (an order from two stalls is one order here).
 * - `report_stall_hours`: the same for each stall in that hour (an order counts once to each stall
 *   it has lines from, with those lines' revenue). A stall still there is its id, its name `''` (the
 *   report shows its name now); a deleted stall is id 0 and the name it had.
 * `day` and `hour` are on the venue's clock (VENUE_TIME_ZONE), which a migration does not know: the
 * rows are counted from the orders at the server's first start after this, and again when the zone
 * changes (`keepFiguresInZone`, the zone kept in `app_meta`); order writes keep them from then on.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('report_hours')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('orders', 'integer', (c) => c.notNull())
    .addColumn('cancelled', 'integer', (c) => c.notNull())
    .addColumn('revenue_cents', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_hours_pk', ['day', 'hour'])
    .execute();
  await db.schema
    .createTable('report_stall_hours')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('stall_id', 'integer', (c) => c.notNull())
    .addColumn('stall_name', 'text', (c) => c.notNull())
    .addColumn('orders', 'integer', (c) => c.notNull())
    .addColumn('cancelled', 'integer', (c) => c.notNull())
    .addColumn('revenue_cents', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_stall_hours_pk', ['day', 'hour', 'stall_id', 'stall_name'])
    .execute();
}
