import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  // The runner board reads the oldest open orders: ordered by when they were placed across three
  // statuses. (status, created_at, id) gives each status its own order, so 10,000 open orders were
  // read and sorted for every board load; this index holds the open ones alone in the board's
  // order: the first page is its first entries, the count its length. Both engines use a partial
  // index when the query's condition is the index's own (OPEN_ORDER_STATUSES, written the same way).
  await db.schema
    .createIndex('orders_open_idx')
    .on('orders')
    .columns(['created_at', 'id'])
    .where(sql.ref('status'), 'in', ['received', 'preparing', 'ready'])
    .execute();
}
