import { sql, type Kysely } from 'kysely';

/**
 * Retention and erasure (issue 50, decision 0097) read by what no index held:
 * - The daily purge takes the oldest staff chat messages (`created_at` of the messages with a
 *   channel: guest conversations go by their conversation) and the conversations idle longest
 *   (`updated_at`) a batch at a time; without an index each batch would scan the table, under the
 *   write lock on SQLite. The other kinds' purges read indexes they already had (door events,
 *   uploads, orders and live events by `created_at`, the audit trail by `at`).
 * - Erasing a person finds the conversations of their email, the messages of their account and the
 *   audit entries about them. The messages' author index also serves the `set null` that deleting an
 *   account makes in every message it wrote, which scanned the messages until now.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('messages_chat_created_idx').on('messages').columns(['created_at', 'id']).where(sql.ref('channel_id'), 'is not', null).execute();
  await db.schema.createIndex('conversations_updated_idx').on('conversations').columns(['updated_at', 'id']).execute();
  await db.schema.createIndex('conversations_guest_email_idx').on('conversations').column('guest_email').where(sql.ref('guest_email'), 'is not', null).execute();
  await db.schema.createIndex('messages_author_idx').on('messages').column('author_account_id').where(sql.ref('author_account_id'), 'is not', null).execute();
  await db.schema.createIndex('audit_entries_subject_idx').on('audit_entries').columns(['subject_id', 'kind']).where(sql.ref('subject_id'), 'is not', null).execute();
}
