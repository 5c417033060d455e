import type { Channel, ChatMessage } from '@contracts/chat.contract';
import { MAX_MESSAGE_LENGTH } from '@contracts/message.contract';
import { ADMIN_USER, problem } from '@/test-utils';
import type { FakeHandler, FakeReply } from '@/test-utils';

/**
 * Test support: an in-memory staff chat behaving like `bff/features/chat` as its contract
 * describes it (newest-first slices with an `older` cursor, unread counts from a last-read
 * position, own-message edits, 409 in archived channels and on taken names), for route tests to
 * drive through the real screens. The reader is `me` (the fake session's admin by default).
 *
 * `failNextPost`: the next send answers this status (429: the rate limit) without storing anything.
 */
export type FakeChannel = Omit<Channel, 'unread' | 'lastMessage'>;
export type FakeChat = {
  me: number;
  channels: FakeChannel[];
  messages: ChatMessage[];
  /** Last-read message id per channel, for `me`. */
  reads: Map<number, number>;
  failNextPost?: number;
  /**
   * Someone else writes, edits or deletes: the store changes as the server's would, and the `chat`
   * event the server would publish is returned, for the test to send down the fake stream.
   */
  publish: (kind: 'posted' | 'edited' | 'deleted', message: ChatMessage) => { kind: string; channelId: number; message: ChatMessage; audience: string[] };
  handler: FakeHandler;
};

const AT = '2025-03-01T09:30:00.000Z';

export function channel(id: number, overrides: Partial<FakeChannel> = {}): FakeChannel {
  return { id, name: `Channel ${id}`, topic: null, runnersMayJoin: false, archivedAt: null, createdAt: AT, ...overrides };
}

/** A message by someone else (account 20 + channel) `minutesAgo` (default 1); `mine: true` writes it as the fake session's admin (account 1). */
export function message(id: number, channelId: number, overrides: Partial<ChatMessage> & { minutesAgo?: number; mine?: boolean } = {}): ChatMessage {
  const { minutesAgo = 1, mine = false, ...rest } = overrides;
  return {
    id,
    channelId,
    author: mine ? { kind: 'staff', accountId: ADMIN_USER.id, name: ADMIN_USER.name } : { kind: 'staff', accountId: 20 + channelId, name: `Sam Rivera` },
    body: `Message ${id}`,
    createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    editedAt: null,
    deleted: false,
    ...rest,
  };
}

const fieldProblem = (status: number, path: string, detail: string): FakeReply => ({
  status,
  contentType: 'application/problem+json',
  json: { type: 'about:blank', title: status === 409 ? 'Conflict' : 'Bad Request', status, detail, errors: [{ path, message: detail }] },
});

export function fakeChat(init: { channels?: FakeChannel[]; messages?: ChatMessage[]; reads?: Record<number, number>; me?: number } = {}): FakeChat {
  const chat: FakeChat = {
    me: init.me ?? ADMIN_USER.id,
    channels: (init.channels ?? []).map((c) => ({ ...c })),
    messages: (init.messages ?? []).map((m) => ({ ...m })),
    reads: new Map(Object.entries(init.reads ?? {}).map(([k, val]) => [Number(k), val])),
    publish: (kind, changed) => {
      const stored = kind === 'deleted' ? { ...changed, body: '', deleted: true } : changed;
      chat.messages = [...chat.messages.filter((m) => m.id !== stored.id), stored];
      return { kind, channelId: stored.channelId, message: stored, audience: ['staff'] };
    },
    handler: () => undefined,
  };
  let nextId = Math.max(1000, ...chat.messages.map((m) => m.id)) + 1;

  const inChannel = (id: number) => chat.messages.filter((m) => m.channelId === id).sort((a, b) => b.id - a.id);
  const unreadOf = (id: number) => inChannel(id).filter((m) => m.id > (chat.reads.get(id) ?? 0) && !m.deleted && m.author.accountId !== chat.me).length;
  const view = (c: FakeChannel): Channel => ({ ...c, unread: unreadOf(c.id), lastMessage: inChannel(c.id)[0] ?? null });
  const list = (includeArchived: boolean) => {
    const channels = chat.channels
      .filter((c) => includeArchived || !c.archivedAt)
      .sort((a, b) => Number(!!a.archivedAt) - Number(!!b.archivedAt) || a.name.localeCompare(b.name))
      .map(view);
    return { channels, totalUnread: channels.reduce((sum, c) => sum + (c.archivedAt ? 0 : c.unread), 0) };
  };
  const checkBody = (body: unknown): string | FakeReply => {
    const text = typeof (body as { body?: unknown })?.body === 'string' ? (body as { body: string }).body.trim() : '';
    if (!text) return fieldProblem(400, 'body.body', 'Write a message first');
    if (text.length > MAX_MESSAGE_LENGTH) return fieldProblem(400, 'body.body', `A message is at most ${MAX_MESSAGE_LENGTH} characters`);
    return text;
  };

  chat.handler = ({ method, url, body }) => {
    const path = url.pathname;
    if (!path.startsWith('/api/chat/')) return undefined;

    if (path === '/api/chat/channels' && method === 'GET') return { json: list(url.searchParams.get('archived') === 'include') };
    if (path === '/api/chat/channels' && method === 'POST') {
      const b = body as { name: string; topic?: string | null; runnersMayJoin?: boolean };
      const name = b.name.trim();
      if (chat.channels.some((c) => c.name.toLowerCase() === name.toLowerCase())) return fieldProblem(409, 'body.name', `A channel named ${name} already exists`);
      const created = channel(Math.max(0, ...chat.channels.map((c) => c.id)) + 1, { name, topic: b.topic ?? null, runnersMayJoin: b.runnersMayJoin ?? false });
      chat.channels.push(created);
      return { status: 201, json: { id: created.id } };
    }

    const channelMatch = /^\/api\/chat\/channels\/(\d+)(\/messages|\/read)?$/.exec(path);
    if (channelMatch) {
      const found = chat.channels.find((c) => c.id === Number(channelMatch[1]));
      if (!found) return problem(404, 'Not Found', `No channel with id ${channelMatch[1]}.`);
      const part = channelMatch[2];
      if (!part && method === 'PATCH') {
        const b = body as { name?: string; topic?: string | null; runnersMayJoin?: boolean; archived?: boolean };
        if (b.name !== undefined) found.name = b.name.trim();
        if (b.topic !== undefined) found.topic = b.topic;
        if (b.runnersMayJoin !== undefined) found.runnersMayJoin = b.runnersMayJoin;
        if (b.archived !== undefined) found.archivedAt = b.archived ? new Date().toISOString() : null;
        return { json: view(found) };
      }
      if (part === '/messages' && method === 'GET') {
        const before = Number(url.searchParams.get('before') ?? Infinity);
        const limit = Number(url.searchParams.get('limit') ?? 30);
        const older = inChannel(found.id).filter((m) => m.id < before);
        const items = older.slice(0, limit);
        return { json: { items, older: older.length > limit ? items.at(-1)!.id : null } };
      }
      if (part === '/messages' && method === 'POST') {
        const failure = chat.failNextPost;
        chat.failNextPost = undefined;
        if (failure === 429) return problem(429, 'Too Many Requests', 'You are sending messages too fast; wait a few seconds.');
        if (failure) return problem(failure, 'Error', 'Something failed.');
        if (found.archivedAt) return problem(409, 'Conflict', `#${found.name} is archived.`);
        const text = checkBody(body);
        if (typeof text !== 'string') return text;
        const created: ChatMessage = { id: nextId++, channelId: found.id, author: { kind: 'staff', accountId: chat.me, name: ADMIN_USER.name }, body: text, createdAt: new Date().toISOString(), editedAt: null, deleted: false };
        chat.messages.push(created);
        return { status: 201, json: created };
      }
      if (part === '/read' && method === 'POST') {
        const upTo = (body as { upTo?: number }).upTo ?? inChannel(found.id)[0]?.id ?? 0;
        chat.reads.set(found.id, Math.max(chat.reads.get(found.id) ?? 0, upTo));
        return { json: { channelId: found.id, lastReadId: chat.reads.get(found.id)!, unread: unreadOf(found.id), totalUnread: list(false).totalUnread } };
      }
    }

    const messageMatch = /^\/api\/chat\/messages\/(\d+)$/.exec(path);
    if (messageMatch) {
      const found = chat.messages.find((m) => m.id === Number(messageMatch[1]));
      if (!found || found.deleted) return problem(404, 'Not Found', `No message with id ${messageMatch[1]}.`);
      const own = found.author.accountId === chat.me;
      if (method === 'PATCH') {
        if (!own) return problem(403, 'Forbidden', 'You may only edit your own messages.');
        const text = checkBody(body);
        if (typeof text !== 'string') return text;
        Object.assign(found, { body: text, editedAt: new Date().toISOString() });
        return { json: found };
      }
      if (method === 'DELETE') {
        Object.assign(found, { body: '', deleted: true });
        return { status: 204 };
      }
    }
    return undefined;
  };
  return chat;
}
