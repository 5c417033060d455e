import { sql, type Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await db.schema
    .createTable('chat_channels')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('topic', 'text')
    .addColumn('runners_may_join', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The channels every venue starts with (admins add, rename and archive them later).
  const now = new Date().toISOString();
  await db
    .insertInto('chat_channels')
    .values([
      { name: 'Front desk', name_key: 'front desk', topic: 'Members at the desk, door trouble, deliveries', runners_may_join: 0, created_at: now },
      { name: 'Kitchen', name_key: 'kitchen', topic: 'Orders, stalls and runners', runners_may_join: 1, created_at: now },
      { name: 'Managers', name_key: 'managers', topic: 'Rotas, incidents and anything not for the floor', runners_may_join: 0, created_at: now },
    ])
    .execute();

  await db.schema
    .createTable('conversations')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('guest_name', 'text', (c) => c.notNull())
    .addColumn('guest_table', 'integer')
    .addColumn('guest_email', 'text')
    // The guest's device token, hashed: it opens this guest's conversations and no others.
    .addColumn('guest_token_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'resolved')`))
    .addColumn('assignee_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('conversations_activity_idx').on('conversations').columns(['status', 'updated_at', 'id']).execute();
  await db.schema.createIndex('conversations_guest_idx').on('conversations').column('guest_token_hash').execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('channel_id', 'integer', (c) => c.references('chat_channels.id').onDelete('cascade'))
    .addColumn('conversation_id', 'integer', (c) => c.references('conversations.id').onDelete('cascade'))
    .addColumn('author_kind', 'text', (c) => c.notNull().check(sql`author_kind in ('staff', 'guest')`))
    .addColumn('author_account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    // The author's name as it was when they wrote (a guest has no account to read it from).
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('deleted_at', 'text')
    .addCheckConstraint('messages_one_thread', sql`(channel_id is null) <> (conversation_id is null)`)
    .execute();
  await db.schema.createIndex('messages_channel_idx').on('messages').columns(['channel_id', 'id']).execute();
  await db.schema.createIndex('messages_conversation_idx').on('messages').columns(['conversation_id', 'id']).execute();

  await db.schema
    .createTable('channel_reads')
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('chat_channels.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('last_read_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('channel_reads_pk', ['channel_id', 'account_id'])
    .execute();

  await db.schema
    .createTable('conversation_reads')
    .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('last_read_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('conversation_reads_pk', ['conversation_id', 'account_id'])
    .execute();
}
