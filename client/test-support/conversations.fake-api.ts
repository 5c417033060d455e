import type { RequestHandler } from 'msw';
import { conversationsApi, type Conversation, type ConversationEvent, type ConversationMessage, type ConversationSummary } from '@contracts/conversations.contract';
import { ADMIN_USER } from './test-utils';
import { handle, problem } from './test-server';

/**
 * Test support: in-memory guest conversations behaving like `bff/features/conversations` as its
 * contract describes it (filters, paging, newest activity first, a guest reads only what it
 * started, staff answers assign, guest answers reopen), plus the live events that go with each
 * change, as msw handlers for route tests to drive through the real screens. Field problems (a
 * blank name or message, neither table nor email) are the contract's own 400s.
 *
 * `viewer` says who the browser is: signed-in staff (the admin of test-utils) or the guest, whose
 * cookie opens the conversations it started (`guestOwns`).
 */
export type FakeConversations = {
  conversations: Conversation[];
  viewer: 'staff' | 'guest';
  guestOwns: Set<number>;
  handlers: RequestHandler[];
  /** A staff member (not the signed-in one unless said) answers: the stored message and its live event. */
  staffWrites: (id: number, body: string, author?: { id: number; name: string }) => ConversationEvent;
  /** The guest writes (from another device, say): the stored message and its live event. */
  guestWrites: (id: number, body: string) => ConversationEvent;
  /** A guest asks for help: the new conversation, stored with its first message, and that message's live event. */
  guestStarts: (guestName: string, body: string, table?: number | null) => ConversationEvent;
  /** Someone else changes a conversation: its `updated` event. */
  update: (id: number, patch: Partial<Pick<Conversation, 'status' | 'assignee'>>) => ConversationEvent;
};

export const SAM = { id: 7, name: 'Sam Rivera' };
const ACCOUNTS = new Map<number, string>([
  [ADMIN_USER.id, ADMIN_USER.name],
  [SAM.id, SAM.name],
]);

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

let nextMessageId = 1000;

/** A message `minutesAgo` (default 5) by the guest, or by staff (`staff` names the account). */
export function message(conversationId: number, body: string, options: { minutesAgo?: number; staff?: { id: number; name: string }; guestName?: string; id?: number } = {}): ConversationMessage {
  const { staff } = options;
  return {
    id: options.id ?? nextMessageId++,
    conversationId,
    author: staff ? { kind: 'staff', accountId: staff.id, name: staff.name } : { kind: 'guest', accountId: null, name: options.guestName ?? 'Guest' },
    body,
    createdAt: minutesAgo(options.minutesAgo ?? 5),
  };
}

/** A conversation whose thread is `messages` (default: one guest message 5 minutes ago). */
export function conversation(id: number, overrides: Partial<Conversation> = {}): Conversation {
  const guestName = overrides.guestName ?? `Guest ${id}`;
  const messages = overrides.messages ?? [message(id, 'Could we have some water, please?', { guestName })];
  const last = messages.at(-1) ?? null;
  return {
    id,
    guestName,
    table: 4,
    email: null,
    status: 'open',
    assignee: null,
    unread: messages.filter((m) => m.author.kind === 'guest').length,
    createdAt: messages[0]?.createdAt ?? minutesAgo(10),
    updatedAt: last?.createdAt ?? minutesAgo(10),
    ...overrides,
    messages,
    lastMessage: last,
  };
}

const summaryOf = ({ messages: _messages, ...summary }: Conversation): ConversationSummary => summary;
const eventOf = (c: Conversation, kind: ConversationEvent['kind'], added?: ConversationMessage): ConversationEvent => {
  const { unread: _unread, ...summary } = summaryOf(c);
  return { kind, conversation: summary, ...(added ? { message: added } : {}) };
};

export function fakeConversations(init: { conversations?: Conversation[]; viewer?: 'staff' | 'guest'; guestOwns?: number[] } = {}): FakeConversations {
  let clock = Date.now();
  const now = () => new Date((clock = Math.max(clock + 1000, Date.now()))).toISOString();

  const fake: FakeConversations = {
    // Copies: a test changing the fake's state must not change the fixtures of the next test.
    conversations: (init.conversations ?? []).map((c) => ({ ...c, messages: [...c.messages] })),
    viewer: init.viewer ?? 'staff',
    guestOwns: new Set(init.guestOwns ?? []),
    handlers: [],
    staffWrites: (id, body, author = SAM) => write(find(id)!, body, 'staff', author),
    guestWrites: (id, body) => write(find(id)!, body, 'guest'),
    guestStarts: (guestName, body, table = null) => {
      const id = Math.max(0, ...fake.conversations.map((c) => c.id)) + 1;
      const at = now();
      const first: ConversationMessage = { id: nextMessageId++, conversationId: id, author: { kind: 'guest', accountId: null, name: guestName }, body, createdAt: at };
      const started = conversation(id, { guestName, table, messages: [first], createdAt: at, updatedAt: at });
      fake.conversations.push(started);
      return eventOf(started, 'message', first);
    },
    update: (id, patch) => {
      const c = find(id)!;
      Object.assign(c, patch, { updatedAt: now() });
      return eventOf(c, 'updated');
    },
  };

  const find = (id: number) => fake.conversations.find((c) => c.id === id);

  function write(c: Conversation, body: string, kind: 'staff' | 'guest', staff?: { id: number; name: string }): ConversationEvent {
    const added: ConversationMessage = {
      id: nextMessageId++,
      conversationId: c.id,
      author: kind === 'staff' ? { kind, accountId: staff!.id, name: staff!.name } : { kind, accountId: null, name: c.guestName },
      body,
      createdAt: now(),
    };
    c.messages.push(added);
    c.lastMessage = added;
    c.updatedAt = added.createdAt;
    if (kind === 'guest') {
      c.unread += 1;
      if (c.status === 'resolved') c.status = 'open';
    } else if (!c.assignee) {
      c.assignee = { id: staff!.id, name: staff!.name };
    }
    return eventOf(c, 'message', added);
  }

  const visible = (c: Conversation | undefined) => (c && (fake.viewer === 'staff' || fake.guestOwns.has(c.id)) ? c : undefined);
  const asViewer = (c: Conversation): Conversation => (fake.viewer === 'guest' ? { ...c, unread: 0 } : c);

  const unauthorized = () => problem(401, 'Unauthorized', 'You need to sign in.');
  const noSuch = () => problem(404, 'Not Found', 'No such conversation.');

  fake.handlers = [
    handle(conversationsApi.list, ({ query }) => {
      if (fake.viewer !== 'staff') return unauthorized();
      const text = (query.query ?? '').toLowerCase();
      const found = fake.conversations
        .filter((c) => query.status === 'all' || c.status === query.status)
        .filter((c) => (query.assignee === 'mine' ? c.assignee?.id === ADMIN_USER.id : query.assignee === 'unassigned' ? c.assignee === null : true))
        .filter((c) => !text || [c.guestName, c.email ?? '', ...c.messages.map((m) => m.body)].some((t) => t.toLowerCase().includes(text)))
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .map(summaryOf);
      const { page, pageSize } = query;
      return { items: found.slice(page * pageSize, page * pageSize + pageSize), page, pageSize, total: found.length };
    }),

    handle(conversationsApi.waiting, () => {
      if (fake.viewer !== 'staff') return unauthorized();
      return { unread: fake.conversations.filter((c) => c.status === 'open').reduce((sum, c) => sum + c.unread, 0) };
    }),

    handle(conversationsApi.start, ({ body }) => {
      const id = Math.max(0, ...fake.conversations.map((c) => c.id)) + 1;
      const at = now();
      const first: ConversationMessage = { id: nextMessageId++, conversationId: id, author: { kind: 'guest', accountId: null, name: body.name }, body: body.body, createdAt: at };
      fake.conversations.push({ id, guestName: body.name, table: body.table ?? null, email: body.email || null, status: 'open', assignee: null, lastMessage: first, unread: 1, createdAt: at, updatedAt: at, messages: [first] });
      fake.guestOwns.add(id);
      return { id, token: `guest-token-${id}` };
    }),

    handle(conversationsApi.get, ({ params }) => {
      const c = visible(find(params.id));
      return c ? asViewer(c) : noSuch();
    }),

    handle(conversationsApi.reply, ({ params, body }) => {
      const c = visible(find(params.id));
      if (!c) return noSuch();
      const event = fake.viewer === 'staff' ? write(c, body.body, 'staff', { id: ADMIN_USER.id, name: ADMIN_USER.name }) : write(c, body.body, 'guest');
      return event.message!;
    }),

    handle(conversationsApi.markRead, ({ params }) => {
      const c = visible(find(params.id));
      if (!c) return noSuch();
      if (fake.viewer !== 'staff') return unauthorized();
      c.unread = 0;
      return summaryOf(c);
    }),

    handle(conversationsApi.update, ({ params, body }) => {
      const c = visible(find(params.id));
      if (!c) return noSuch();
      if (fake.viewer !== 'staff') return unauthorized();
      if (body.status) c.status = body.status;
      if (body.assigneeId !== undefined) c.assignee = body.assigneeId === null ? null : { id: body.assigneeId, name: ACCOUNTS.get(body.assigneeId) ?? `Account ${body.assigneeId}` };
      c.updatedAt = now();
      return summaryOf(c);
    }),
  ];
  return fake;
}
