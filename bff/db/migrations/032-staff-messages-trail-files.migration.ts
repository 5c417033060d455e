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
 * - The front desk's search of guest conversations (the guest's name or email, or any message)
 *   reads one contains index of each conversation's words (`search_text`: the guest's name and
 *   email and every message, a line each, kept by the conversation's writes in their transaction).
 *   One row per conversation: a word in every message matches 10,000 conversations, not 30,000
 *   messages each looked up for its conversation (36 ms on SQLite, 66 ms on PostgreSQL).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  const chatIndex = (name: string, order: string) =>
    db.schema.createIndex(name).on('messages').columns(['channel_id', order, 'author_account_id', 'deleted_at']).where(sql.ref('channel_id'), 'is not', null).execute();
  await chatIndex('messages_channel_read_idx', 'id');
  await chatIndex('messages_channel_created_idx', 'created_at');
  await db.schema.dropIndex('messages_channel_idx').execute();

  await ddl.containsIndex(db, 'audit_entries', ['actor_name', 'actor_email']);
  await db.schema.alterTable('conversations').addColumn('search_text', 'text', (c) => c.notNull().defaultTo('')).execute();
  await fillConversationSearch(db);
  await ddl.containsIndex(db, 'conversations', ['search_text']);
}

/**
 * Writes the `search_text` of the conversations (all, or those of `ids`) from their rows: the
 * guest's name, their email and each message oldest first, a line each. The migration's backfill,
 * the bench's after it writes its history, and an erasure after it blanks a guest's words.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- also run by migrations, on an untyped database
export async function fillConversationSearch(db: Kysely<any>, ids?: readonly number[]): Promise<void> {
  if (ids?.length === 0) return;
  const line = '\n';
  // string_agg with its ORDER BY: PostgreSQL's, and SQLite's since 3.44.
  const messages = sql`(select string_agg(m.body, ${line} order by m.id) from messages m where m.conversation_id = conversations.id)`;
  await db
    .updateTable('conversations')
    .set({ search_text: sql`guest_name || ${line} || coalesce(guest_email, '') || ${line} || coalesce(${messages}, '')` })
    .$if(ids !== undefined, (q) => q.where('id', 'in', ids!))
    .execute();
}
