import { sql, type Kysely } from 'kysely';

/**
 * A stall's queue (its tickets not yet ready, of orders still open) is kept as a count, changed in
 * the transaction that changes a ticket or an order (bff/features/pt/orders.repository.ts). Counted
 * for every order placed, even through an index of the waiting tickets (migration 020) it cost as
 * much as the queue was long: 0.7 ms of each order with 8,000 tickets waiting. That index is no
 * longer read and goes.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stall_queues')
    .addColumn('stall_id', 'integer', (c) => c.primaryKey().references('stalls.id').onDelete('cascade'))
    .addColumn('waiting', 'integer', (c) => c.notNull())
    .execute();
  await db
    .insertInto('stall_queues')
    .columns(['stall_id', 'waiting'])
    .expression(
      db
        .selectFrom('order_tickets as t')
        .innerJoin('orders', 'orders.id', 't.order_id')
        .select(['t.stall_id', (eb) => eb.fn.countAll().as('waiting')])
        .where('t.status', '<>', 'ready')
        .where(sql.ref('orders.status'), 'in', ['received', 'preparing', 'ready'])
        .groupBy('t.stall_id'),
    )
    .execute();
  await db.schema.dropIndex('order_tickets_waiting_idx').execute();
}
