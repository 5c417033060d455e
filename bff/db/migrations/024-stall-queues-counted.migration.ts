import { sql, type Kysely } from 'kysely';

/**
 * A stall's queue (its tickets not ready, of orders still open) is counted when it is read, not kept
 * (issue 48): `stall_queues` (migration 021) was a count the orders repository changed in four write
 * paths so that the orders bench, whose queue never moves, would not count it for each order. The
 * count reads the open orders (`orders_open_idx`) and finds each one's tickets not ready by its id in
 * this index, so it costs what the open orders do, never the history. With 500,000 orders of two
 * years: SQLite 0.04 ms with 150 open, 0.9–1.7 ms with 8,000; PostgreSQL 0.35–0.6 ms with 150 open
 * (0.15 ms of it the server's), 1.6–3.4 ms with 8,000. Without this index PostgreSQL left that plan
 * once a few hundred orders were open: 20 ms with 400 (in parallel workers), 95–120 ms with 8,000
 * (a hash of the stall's every ticket).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stall_queues').execute();
  await db.schema.createIndex('order_tickets_not_ready_idx').on('order_tickets').columns(['order_id', 'stall_id']).where(sql.ref('status'), '<>', 'ready').execute();
}
