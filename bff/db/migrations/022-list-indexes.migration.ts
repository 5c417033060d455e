import { sql, type Kysely } from 'kysely';

/**
 * Two list indexes that the lists read on the general path, without statistics or a kept answer:
 * - A member's visits and unlocks are read by email and type, newest first (the members list's
 *   last-visit subquery, one per listed member, and the member's unlocks page). Off
 *   `(actor_email, created_at)` the planner, without statistics, tied that index with
 *   `kisi_events_type_idx (type, created_at)`, which also hands rows back newest first, and took the
 *   type's: every listed member's subquery then walked every unlock in the log. With the type in
 *   the email's index, it matches two equalities and the order, so it wins on any statistics or none.
 * - The runner board counts the open orders for "the oldest 100 of N". `orders_open_idx` held only
 *   `(created_at, id)`, so the count visited each open order's row to check its status again: 0.7 ms
 *   with 10,000 open. With the status in the index the count reads the index alone.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('kisi_events_actor_idx').on('kisi_events').columns(['actor_email', 'type', 'created_at']).execute();
  await db.schema.dropIndex('kisi_events_actor_email_idx').execute();
  await db.schema.dropIndex('orders_open_idx').execute();
  await db.schema
    .createIndex('orders_open_idx')
    .on('orders')
    .columns(['created_at', 'id', 'status'])
    .where(sql.ref('status'), 'in', ['received', 'preparing', 'ready'])
    .execute();
}
