import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Page } from '../../contracts/common.contract';
import type { ConversationListQuery, ConversationMessage, ConversationStatus, ConversationSummary } from '../../contracts/conversations.contract';
import type { MessageAuthor } from '../../contracts/message.contract';
import type { Database, Db } from '../../db/database';
import type { DB, MessagesTable } from '../../db/schema';
import { keysetPaginate, type KeysetOrder } from '../../lib/paginate';

/** The newest messages a conversation answers with: help requests are short, this is a backstop. */
export const MAX_THREAD_MESSAGES = 500;

const toMessage = (row: Selectable<MessagesTable>): ConversationMessage => ({
  id: row.id,
  conversationId: row.conversation_id!,
  author: { kind: row.author_kind, accountId: row.author_account_id, name: row.author_name },
  body: row.body,
  createdAt: row.created_at,
});

export interface NewConversation {
  guestName: string;
  table: number | null;
  email: string | null;
  tokenHash: string;
}

/** Newest activity first: `conversations_activity_idx` (a status's) and `conversations_updated_idx` (all) hold this order. */
const BY_ACTIVITY: KeysetOrder = { direction: 'desc', columns: [['conversations.updated_at', 'text'], ['conversations.id', 'integer']] };

/** Guest conversations, their messages and the front desk's read positions. */
export function conversationsRepository(db: Db, containsMatch: Database['containsMatch']) {
  /** Guest messages after `reader`'s position. */
  const unreadFor = (reader: number) =>
    sql<number | string>`(select count(*) from messages m
      where m.conversation_id = conversations.id and m.author_kind = 'guest'
        and m.id > coalesce((select r.last_read_id from conversation_reads r where r.conversation_id = conversations.id and r.account_id = ${reader}), 0))`;
  /** The summary's columns, added to a query of conversations (joined to their assignee). */
  const withSummary = (reader: number, query: SelectQueryBuilder<DB, 'conversations', object>) =>
    query
      .leftJoin('accounts', 'accounts.id', 'conversations.assignee_id')
      .select([
        'conversations.id',
        'conversations.guest_name',
        'conversations.guest_table',
        'conversations.guest_email',
        'conversations.status',
        'conversations.assignee_id',
        'accounts.name as assignee_name',
        'conversations.created_at',
        'conversations.updated_at',
      ])
      .select(unreadFor(reader).as('unread'))
      .select(sql<number | null>`(select max(m.id) from messages m where m.conversation_id = conversations.id)`.as('last_message_id'));
  const summaries = (reader: number) => withSummary(reader, db.selectFrom('conversations'));
  type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>['execute']>>[number];

  const toSummaries = async (rows: SummaryRow[]): Promise<ConversationSummary[]> => {
    const lastIds = rows.map((row) => row.last_message_id).filter((id): id is number => id !== null);
    const latest = lastIds.length === 0 ? [] : await db.selectFrom('messages').selectAll().where('id', 'in', lastIds.map(Number)).execute();
    const byId = new Map(latest.map((row) => [row.id, toMessage(row)]));
    return rows.map((row) => ({
      id: row.id,
      guestName: row.guest_name,
      table: row.guest_table,
      email: row.guest_email,
      status: row.status,
      assignee: row.assignee_id !== null && row.assignee_name !== null ? { id: row.assignee_id, name: row.assignee_name } : null,
      lastMessage: row.last_message_id === null ? null : (byId.get(Number(row.last_message_id)) ?? null),
      unread: Number(row.unread),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }));
  };

  return {
    /** The conversation and its first message, in the caller's transaction. */
    insert: async (conversation: NewConversation, body: string, now: string): Promise<number> => {
      const { id } = await db
        .insertInto('conversations')
        .values({
          guest_name: conversation.guestName,
          guest_table: conversation.table,
          guest_email: conversation.email,
          guest_token_hash: conversation.tokenHash,
          status: 'open',
          created_at: now,
          updated_at: now,
          search_text: [conversation.guestName, conversation.email ?? '', body].join('\n'),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('messages').values({ conversation_id: id, author_kind: 'guest', author_name: conversation.guestName, body, created_at: now }).execute();
      return id;
    },

    /** Guest messages in open conversations after `reader`'s position in each. */
    unreadInOpen: async (reader: number): Promise<number> => {
      const perConversation = db.selectFrom('conversations').where('conversations.status', '=', 'open').select(unreadFor(reader).as('unread')).as('open_conversations');
      const { total } = await db
        .selectFrom(perConversation)
        .select(sql<number | string>`coalesce(sum(open_conversations.unread), 0)`.as('total'))
        .executeTakeFirstOrThrow();
      return Number(total);
    },

    /**
     * Newest activity first, a page from its cursor, the count stopping at 1,000 past it. `query`
     * matches the guest's name or email or any message, through the contains index of `search_text`
     * (migration 032), which each write below keeps.
     */
    list: async (reader: number, query: ConversationListQuery): Promise<Page<ConversationSummary>> => {
      const matching = () => {
        let q = db.selectFrom('conversations');
        if (query.status !== 'all') q = q.where('conversations.status', '=', query.status);
        if (query.assignee === 'mine') q = q.where('conversations.assignee_id', '=', reader);
        if (query.assignee === 'unassigned') q = q.where('conversations.assignee_id', 'is', null);
        // The guest's name or email or any message: one contains index of each conversation's words.
        if (query.query) q = q.where(containsMatch('conversations', ['search_text'], query.query, 'conversations.id'));
        return q;
      };
      const page = await keysetPaginate(db, query, { matching, order: BY_ACTIVITY, select: (q) => withSummary(reader, q), toItem: (row: SummaryRow) => row });
      return { ...page, items: await toSummaries(page.items) };
    },

    summary: async (id: number, reader: number): Promise<ConversationSummary | undefined> => (await toSummaries(await summaries(reader).where('conversations.id', '=', id).execute()))[0],

    /** Who may read it: its guest's token hash. */
    guestTokenHash: async (id: number) => (await db.selectFrom('conversations').select('guest_token_hash').where('id', '=', id).executeTakeFirst())?.guest_token_hash,

    /** Oldest first, the newest {@link MAX_THREAD_MESSAGES}. */
    messages: async (id: number): Promise<ConversationMessage[]> => {
      const rows = await db.selectFrom('messages').selectAll().where('conversation_id', '=', id).orderBy('id', 'desc').limit(MAX_THREAD_MESSAGES).execute();
      return rows.reverse().map(toMessage);
    },

    /**
     * Adds a message and moves the conversation's activity time, in the caller's transaction; with
     * `changes`, sets its status, or assigns it to `claimBy` unless someone has it already (decided
     * by the row itself, so of two answering at once the first keeps it).
     */
    insertMessage: async (
      id: number,
      author: MessageAuthor,
      body: string,
      now: string,
      changes: { status?: ConversationStatus; claimBy?: number } = {},
    ): Promise<ConversationMessage> => {
      await db
        .updateTable('conversations')
        .set({
          updated_at: now,
          search_text: sql<string>`search_text || ${'\n'} || ${body}`,
          ...(changes.status ? { status: changes.status } : {}),
          ...(changes.claimBy ? { assignee_id: sql<number>`coalesce(assignee_id, ${changes.claimBy})` } : {}),
        })
        .where('id', '=', id)
        .execute();
      return toMessage(
        await db
          .insertInto('messages')
          .values({ conversation_id: id, author_kind: author.kind, author_account_id: author.accountId, author_name: author.name, body, created_at: now })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    },

    update: async (id: number, changes: { status?: ConversationStatus; assigneeId?: number | null }, now: string) =>
      Number(
        (
          await db
            .updateTable('conversations')
            .set({ updated_at: now, ...(changes.status ? { status: changes.status } : {}), ...(changes.assigneeId !== undefined ? { assignee_id: changes.assigneeId } : {}) })
            .where('id', '=', id)
            .executeTakeFirst()
        ).numUpdatedRows,
      ) > 0,

    /** Moves the reader's position to the newest message (never back). */
    markRead: async (id: number, reader: number) => {
      const newest = Number((await db.selectFrom('messages').select((eb) => eb.fn.max('id').as('id')).where('conversation_id', '=', id).executeTakeFirst())?.id ?? 0);
      await db
        .insertInto('conversation_reads')
        .values({ conversation_id: id, account_id: reader, last_read_id: newest })
        .onConflict((oc) =>
          oc
            .columns(['conversation_id', 'account_id'])
            .doUpdateSet({ last_read_id: (eb) => eb.ref('excluded.last_read_id') })
            .where('conversation_reads.last_read_id', '<', (eb) => eb.ref('excluded.last_read_id')),
        )
        .execute();
    },

    /** The name of a staff or admin account (who a conversation may be assigned to). */
    frontDeskAccountName: async (id: number) =>
      (await db.selectFrom('accounts').select('name').where('id', '=', id).where('role', 'in', ['staff', 'admin']).executeTakeFirst())?.name,
  };
}
export type ConversationsRepository = ReturnType<typeof conversationsRepository>;
