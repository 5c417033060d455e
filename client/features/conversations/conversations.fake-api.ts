import type { Conversation, ConversationEvent, ConversationMessage, ConversationSummary } from '@contracts/conversations.contract';
import { ADMIN_USER, problem } from '@/test-utils';
import type { FakeHandler, FakeReply } from '@/test-utils';

/**
 * Test support: in-memory guest conversations behaving like `bff/features/conversations` as its
 * contract describes it (filters, paging, newest activity first, a guest reads only what it
 * started, 400 field problems, staff answers assign, guest answers reopen), plus the live events
 * that go with each change, for route tests to drive through the real screens.
 *
 * `viewer` says who the browser is: signed-in staff (the admin of test-utils) or the guest, whose
 * cookie opens the conversations it started (`guestOwns`). `refuseNextStart` answers the next
 * help request with that reply instead.
 */
export type FakeConversations = {
  conversations: Conversation[];
  viewer: 'staff' | 'guest';
  guestOwns: Set<number>;
  refuseNextStart?: FakeReply;
  handler: FakeHandler;
  /** A staff member (not the signed-in one unless said) answers: the stored message and its live event. */
  staffWrites: (id: number, body: string, author?: { id: number; name: string }) => ConversationEvent;
  /** The guest writes (from another device, say): the stored message and its live event. */
  guestWrites: (id: number, body: string) => ConversationEvent;
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

const fieldProblem = (errors: { path: string; message: string }[]): FakeReply => ({
  status: 400,
  contentType: 'application/problem+json',
  json: { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'The request is not valid.', errors },
});

export function fakeConversations(init: { conversations?: Conversation[]; viewer?: 'staff' | 'guest'; guestOwns?: number[] } = {}): FakeConversations {
  let clock = Date.now();
  const now = () => new Date((clock = Math.max(clock + 1000, Date.now()))).toISOString();

  const fake: FakeConversations = {
    // Copies: a test changing the fake's state must not change the fixtures of the next test.
    conversations: (init.conversations ?? []).map((c) => ({ ...c, messages: [...c.messages] })),
    viewer: init.viewer ?? 'staff',
    guestOwns: new Set(init.guestOwns ?? []),
    handler: () => undefined,
    staffWrites: (id, body, author = SAM) => write(find(id)!, body, 'staff', author),
    guestWrites: (id, body) => write(find(id)!, body, 'guest'),
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

  fake.handler = ({ method, url, body }) => {
    const path = url.pathname;
    if (!path.startsWith('/api/conversations')) return undefined;

    if (path === '/api/conversations' && method === 'GET') {
      if (fake.viewer !== 'staff') return problem(401, 'Unauthorized', 'You need to sign in.');
      const status = url.searchParams.get('status') ?? 'open';
      const assignee = url.searchParams.get('assignee') ?? 'anyone';
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      const found = fake.conversations
        .filter((c) => status === 'all' || c.status === status)
        .filter((c) => (assignee === 'mine' ? c.assignee?.id === ADMIN_USER.id : assignee === 'unassigned' ? c.assignee === null : true))
        .filter((c) => !query || [c.guestName, c.email ?? '', ...c.messages.map((m) => m.body)].some((text) => text.toLowerCase().includes(query)))
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .map(summaryOf);
      const page = Number(url.searchParams.get('page') ?? '0');
      const size = Number(url.searchParams.get('pageSize') ?? '10');
      return { json: { items: found.slice(page * size, page * size + size), page, pageSize: size, total: found.length } };
    }

    if (path === '/api/conversations' && method === 'POST') {
      const refusal = fake.refuseNextStart;
      fake.refuseNextStart = undefined;
      if (refusal) return refusal;
      const b = body as { name: string; table?: number | null; email?: string | null; body: string };
      const errors = [
        ...(b.name.trim() ? [] : [{ path: 'body.name', message: 'Required' }]),
        ...(b.body.trim() ? [] : [{ path: 'body.body', message: 'Write a message first' }]),
        ...(b.table == null && !b.email ? [{ path: 'body.table', message: 'Give your table number or an email address so we can find you' }] : []),
      ];
      if (errors.length) return fieldProblem(errors);
      const id = Math.max(0, ...fake.conversations.map((c) => c.id)) + 1;
      const at = now();
      const first: ConversationMessage = { id: nextMessageId++, conversationId: id, author: { kind: 'guest', accountId: null, name: b.name.trim() }, body: b.body.trim(), createdAt: at };
      fake.conversations.push({ id, guestName: b.name.trim(), table: b.table ?? null, email: b.email || null, status: 'open', assignee: null, lastMessage: first, unread: 1, createdAt: at, updatedAt: at, messages: [first] });
      fake.guestOwns.add(id);
      return { status: 201, json: { id, token: `guest-token-${id}` } };
    }

    const match = /^\/api\/conversations\/(\d+)(\/messages|\/read)?$/.exec(path);
    if (!match) return undefined;
    const c = visible(find(Number(match[1])));
    if (!c) return problem(404, 'Not Found', 'No such conversation.');

    if (!match[2] && method === 'GET') return { json: asViewer(c) };
    if (match[2] === '/messages' && method === 'POST') {
      const text = (body as { body: string }).body.trim();
      if (!text) return fieldProblem([{ path: 'body.body', message: 'Write a message first' }]);
      const event = fake.viewer === 'staff' ? write(c, text, 'staff', { id: ADMIN_USER.id, name: ADMIN_USER.name }) : write(c, text, 'guest');
      return { status: 201, json: event.message };
    }
    if (fake.viewer !== 'staff') return problem(401, 'Unauthorized', 'You need to sign in.');
    if (match[2] === '/read' && method === 'POST') {
      c.unread = 0;
      return { json: summaryOf(c) };
    }
    if (!match[2] && method === 'PATCH') {
      const patch = body as { status?: Conversation['status']; assigneeId?: number | null };
      if (patch.status) c.status = patch.status;
      if (patch.assigneeId !== undefined) c.assignee = patch.assigneeId === null ? null : { id: patch.assigneeId, name: ACCOUNTS.get(patch.assigneeId) ?? `Account ${patch.assigneeId}` };
      c.updatedAt = now();
      return { json: summaryOf(c) };
    }
    return undefined;
  };
  return fake;
}
