import type { Kysely } from 'kysely';

/**
 * Waits for the diners (issue 33 item 2). An order keeps the wait it was told when placed (null: too
 * little recent data, or placed before this), so its confirmation does not change under the diner.
 * The menu reads every stall's tickets made ready in the last hour at once: by `ready_at`, with the
 * stall and start time in the index so the table itself is not read.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('wait_low_minutes', 'integer').execute();
  await db.schema.alterTable('orders').addColumn('wait_high_minutes', 'integer').execute();
  await db.schema.createIndex('order_tickets_ready_idx').on('order_tickets').columns(['ready_at', 'stall_id', 'received_at']).execute();
}
