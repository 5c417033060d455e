import { sql, type Kysely } from 'kysely';

/**
 * The runner board's page read from `orders_open_idx` on both engines, whatever the statistics say.
 * With 10,000 open orders SQLite's sampled statistics made `(status, updated_at, id)` look cheaper:
 * three status ranges and a sort of every open order for each board load (1.5 ms instead of 0.1).
 * No index but the open one now holds the open statuses' rows in an order the board could want:
 * - the reports read a span of orders by `created_at` alone (they named every status to reach the
 *   `(status, created_at, id)` index this replaces);
 * - the lists of served and cancelled orders (most recently changed first) have a partial index of
 *   their own; a list of one open status reads the open orders' index and sorts that small set.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_status_idx').execute();
  await db.schema.dropIndex('orders_status_changed_idx').execute();
  await db.schema.createIndex('orders_created_idx').on('orders').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('orders_closed_changed_idx')
    .on('orders')
    .columns(['status', 'updated_at', 'id'])
    .where(sql.ref('status'), 'in', ['served', 'cancelled'])
    .execute();
}
