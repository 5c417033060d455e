import { sql, type Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

/**
 * Staff messages, the trail and stored files read the page, not the years behind it (issue 51,
 * decision 0101):
 * - A chat reader's unread count reads one index range per channel and stops at 100: from their
 *   place by id, or (no place yet) from when their account was made by time. Each index holds what
 *   the count tests (author, deleted), so it never visits a message's row; PostgreSQL, which cannot
 *   know a reader's place when it plans, otherwise walked every message newer than it by id, each
 *   channel's alike. The by-id one replaces `messages_channel_idx`, which it holds the start of.
 * - The trail's person filter (who made the change: name or email contains) reads a contains index
 *   of the actor's name and email, not every entry.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  const chatIndex = (name: string, order: string) =>
    db.schema.createIndex(name).on('messages').columns(['channel_id', order, 'author_account_id', 'deleted_at']).where(sql.ref('channel_id'), 'is not', null).execute();
  await chatIndex('messages_channel_read_idx', 'id');
  await chatIndex('messages_channel_created_idx', 'created_at');
  await db.schema.dropIndex('messages_channel_idx').execute();

  await ddl.containsIndex(db, 'audit_entries', ['actor_name', 'actor_email']);
}
