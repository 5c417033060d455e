import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Channel, ChatMessage } from '../../contracts/chat.contract';
import type { Db } from '../../db/database';
import type { MessagesTable } from '../../db/schema';

/** Where a channel's unread count stops: its pill says "99+" past 99, so it never needs to know more. */
export const UNREAD_STOPS_AT = 100;

/** A channel as stored, before the reader's unread count and latest message are added. */
export type StoredChannel = Omit<Channel, 'unread' | 'lastMessage'>;

export interface ChannelFields {
  name?: string;
  topic?: string | null;
  runnersMayJoin?: boolean;
  archivedAt?: string | null;
}

export const toChatMessage = (row: Selectable<MessagesTable>): ChatMessage => ({
  id: row.id,
  channelId: row.channel_id!,
  author: { kind: row.author_kind, accountId: row.author_account_id, name: row.author_name },
  body: row.deleted_at ? '' : row.body,
  createdAt: row.created_at,
  editedAt: row.edited_at,
  deleted: row.deleted_at !== null,
});

/** Channels, their messages and each reader's last-read position. */
export function chatRepository(db: Db) {
  const channels = () =>
    db
      .selectFrom('chat_channels')
      .select(['id', 'name', 'topic', 'archived_at as archivedAt', 'created_at as createdAt'])
      .select(sql<number>`runners_may_join`.as('runnersMayJoin'));
  const toChannel = (row: { id: number; name: string; topic: string | null; archivedAt: string | null; createdAt: string; runnersMayJoin: number }): StoredChannel => ({
    ...row,
    runnersMayJoin: row.runnersMayJoin === 1,
  });

  /**
   * Messages by others after `reader`'s place in the channel, deleted ones not counted, counted no
   * further than {@link UNREAD_STOPS_AT}. A reader who has no place there yet (never opened it, never
   * wrote in it) counts from when their account was made: a new colleague does not start with a
   * backlog. Each count reads one index range and stops: from the place by id
   * (`messages_channel_read_idx`), from the account's start by time (`messages_channel_created_idx`).
   */
  const unreadOf = (reader: number) => {
    const counted = (from: RawBuilder<unknown>) =>
      sql`(select count(*) from (select 1 from messages m
        where m.channel_id = chat_channels.id and ${from} and m.deleted_at is null
          and (m.author_account_id is null or m.author_account_id <> ${reader})
        limit ${sql.lit(UNREAD_STOPS_AT)}) as unread_messages)`;
    return sql<number | string>`case when place.last_read_id is null
      then ${counted(sql`m.created_at > (select a.created_at from accounts a where a.id = ${reader})`)}
      else ${counted(sql`m.id > place.last_read_id`)} end`;
  };

  return {
    /** Channels by name (archived ones after the active ones when asked for), with the reader's unread counts and latest messages. */
    list: async (reader: number, options: { runnersOnly: boolean; includeArchived: boolean }): Promise<Channel[]> => {
      let query = channels()
        .leftJoin('channel_reads as place', (join) => join.onRef('place.channel_id', '=', 'chat_channels.id').on('place.account_id', '=', reader))
        .select(unreadOf(reader).as('unread'))
        .select(sql<number | null>`(select max(m.id) from messages m where m.channel_id = chat_channels.id)`.as('lastMessageId'));
      if (options.runnersOnly) query = query.where('runners_may_join', '=', 1);
      if (!options.includeArchived) query = query.where('archived_at', 'is', null);
      const rows = await query.orderBy(sql`archived_at is not null`).orderBy('name_key').execute();
      const lastIds = rows.map((row) => row.lastMessageId).filter((id): id is number => id !== null);
      const latest = lastIds.length === 0 ? [] : await db.selectFrom('messages').selectAll().where('id', 'in', lastIds).execute();
      const byId = new Map(latest.map((row) => [row.id, toChatMessage(row)]));
      return rows.map(({ unread, lastMessageId, ...row }) => ({
        ...toChannel(row),
        unread: Number(unread),
        lastMessage: lastMessageId === null ? null : (byId.get(Number(lastMessageId)) ?? null),
      }));
    },

    find: async (id: number): Promise<StoredChannel | undefined> => {
      const row = await channels().where('id', '=', id).executeTakeFirst();
      return row && toChannel(row);
    },

    /** Answers the new id; a taken name (any case) fails with a unique violation. */
    insert: async (fields: { name: string; topic: string | null; runnersMayJoin: boolean }, now: string) =>
      (
        await db
          .insertInto('chat_channels')
          .values({ name: fields.name, name_key: fields.name.toLowerCase(), topic: fields.topic, runners_may_join: fields.runnersMayJoin ? 1 : 0, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,

    update: async (id: number, fields: ChannelFields) =>
      Number(
        (
          await db
            .updateTable('chat_channels')
            .set({
              ...(fields.name !== undefined ? { name: fields.name, name_key: fields.name.toLowerCase() } : {}),
              ...(fields.topic !== undefined ? { topic: fields.topic } : {}),
              ...(fields.runnersMayJoin !== undefined ? { runners_may_join: fields.runnersMayJoin ? 1 : 0 } : {}),
              ...(fields.archivedAt !== undefined ? { archived_at: fields.archivedAt } : {}),
            })
            .where('id', '=', id)
            .executeTakeFirst()
        ).numUpdatedRows,
      ) > 0,

    /** Newest first, `limit` of them, older than `before` when given; `older` is the next cursor. */
    messages: async (channelId: number, { before, limit }: { before?: number; limit: number }) => {
      let query = db.selectFrom('messages').selectAll().where('channel_id', '=', channelId);
      if (before !== undefined) query = query.where('id', '<', before);
      const rows = await query.orderBy('id', 'desc').limit(limit + 1).execute();
      const items = rows.slice(0, limit).map(toChatMessage);
      return { items, older: rows.length > limit ? items[items.length - 1]!.id : null };
    },

    findMessage: async (id: number) => {
      const row = await db.selectFrom('messages').selectAll().where('id', '=', id).where('channel_id', 'is not', null).executeTakeFirst();
      return row && toChatMessage(row);
    },

    insertMessage: async (channelId: number, author: { id: number; name: string }, body: string, now: string): Promise<ChatMessage> =>
      toChatMessage(
        await db
          .insertInto('messages')
          .values({ channel_id: channelId, author_kind: 'staff', author_account_id: author.id, author_name: author.name, body, created_at: now })
          .returningAll()
          .executeTakeFirstOrThrow(),
      ),

    /** Changes a message that is not deleted; undefined when there is none. */
    editMessage: async (id: number, body: string, now: string) => {
      const row = await db.updateTable('messages').set({ body, edited_at: now }).where('id', '=', id).where('deleted_at', 'is', null).returningAll().executeTakeFirst();
      return row && toChatMessage(row);
    },

    /** Blanks the text and marks it deleted: the message keeps its place in the thread. */
    deleteMessage: async (id: number, now: string) => {
      const row = await db.updateTable('messages').set({ body: '', deleted_at: now }).where('id', '=', id).where('deleted_at', 'is', null).returningAll().executeTakeFirst();
      return row && toChatMessage(row);
    },

    newestMessageId: async (channelId: number) =>
      Number((await db.selectFrom('messages').select((eb) => eb.fn.max('id').as('id')).where('channel_id', '=', channelId).executeTakeFirst())?.id ?? 0),

    /** Moves the reader's position forward to `messageId` (never back), and answers where it is. */
    markRead: async (channelId: number, reader: number, messageId: number): Promise<number> => {
      await db
        .insertInto('channel_reads')
        .values({ channel_id: channelId, account_id: reader, last_read_id: messageId })
        .onConflict((oc) =>
          oc
            .columns(['channel_id', 'account_id'])
            .doUpdateSet({ last_read_id: (eb) => eb.ref('excluded.last_read_id') })
            .where('channel_reads.last_read_id', '<', (eb) => eb.ref('excluded.last_read_id')),
        )
        .execute();
      const row = await db.selectFrom('channel_reads').select('last_read_id').where('channel_id', '=', channelId).where('account_id', '=', reader).executeTakeFirstOrThrow();
      return row.last_read_id;
    },
  };
}
export type ChatRepository = ReturnType<typeof chatRepository>;
