import { sql, type Kysely } from 'kysely';

/**
 * A stall's queue is its tickets not yet ready (of orders still open). Counted for every menu read
 * and every order placed, it was read row by row from every open order's tickets: 12 ms and 15,000
 * rows with 10,000 open orders. This index holds only the tickets not ready, by stall, so the count
 * reads the queue alone (a cancelled order's unfinished tickets stay in it and are passed over).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('order_tickets_waiting_idx').on('order_tickets').columns(['stall_id', 'order_id']).where(sql.ref('status'), '<>', 'ready').execute();
}
