import type { RequestHandler } from 'msw';
import { chatApi, type Channel, type ChatMessage } from '@contracts/chat.contract';
import { ADMIN_USER } from './test-utils';
import { fieldProblem, handle, problem } from './test-server';

/**
 * Test support: an in-memory staff chat behaving like `bff/features/chat` as its contract
 * describes it (newest-first slices with an `older` cursor, unread counts from a last-read
 * position, own-message edits, 409 in archived channels and on taken names), as msw handlers for
 * route tests to drive through the real screens. The reader is `me` (the fake session's admin by
 * default). A blank or overlong message is the contract's 400.
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
  handlers: RequestHandler[];
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
    handlers: [],
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
  const findChannel = (id: number) => chat.channels.find((c) => c.id === id);
  const noChannel = (id: number) => problem(404, 'Not Found', `No channel with id ${id}.`);
  const findMessage = (id: number) => chat.messages.find((m) => m.id === id && !m.deleted);
  const noMessage = (id: number) => problem(404, 'Not Found', `No message with id ${id}.`);

  chat.handlers = [
    handle(chatApi.listChannels, ({ query }) => list(query.archived === 'include')),
    handle(chatApi.createChannel, ({ body }) => {
      if (chat.channels.some((c) => c.name.toLowerCase() === body.name.toLowerCase())) {
        return fieldProblem([{ path: 'body.name', message: `A channel named ${body.name} already exists` }], `A channel named ${body.name} already exists`, 409);
      }
      const created = channel(Math.max(0, ...chat.channels.map((c) => c.id)) + 1, { name: body.name, topic: body.topic ?? null, runnersMayJoin: body.runnersMayJoin });
      chat.channels.push(created);
      return { id: created.id };
    }),
    handle(chatApi.updateChannel, ({ params, body }) => {
      const found = findChannel(params.id);
      if (!found) return noChannel(params.id);
      if (body.name !== undefined) found.name = body.name;
      if (body.topic !== undefined) found.topic = body.topic;
      if (body.runnersMayJoin !== undefined) found.runnersMayJoin = body.runnersMayJoin;
      if (body.archived !== undefined) found.archivedAt = body.archived ? new Date().toISOString() : null;
      return view(found);
    }),
    handle(chatApi.listMessages, ({ params, query }) => {
      const found = findChannel(params.id);
      if (!found) return noChannel(params.id);
      const older = inChannel(found.id).filter((m) => m.id < (query.before ?? Infinity));
      const items = older.slice(0, query.limit);
      return { items, older: older.length > query.limit ? items.at(-1)!.id : null };
    }),
    handle(chatApi.postMessage, ({ params, body }) => {
      const found = findChannel(params.id);
      if (!found) return noChannel(params.id);
      const failure = chat.failNextPost;
      chat.failNextPost = undefined;
      if (failure === 429) return problem(429, 'Too Many Requests', 'You are sending messages too fast; wait a few seconds.');
      if (failure) return problem(failure, 'Error', 'Something failed.');
      if (found.archivedAt) return problem(409, 'Conflict', `#${found.name} is archived.`);
      const created: ChatMessage = { id: nextId++, channelId: found.id, author: { kind: 'staff', accountId: chat.me, name: ADMIN_USER.name }, body: body.body, createdAt: new Date().toISOString(), editedAt: null, deleted: false };
      chat.messages.push(created);
      return created;
    }),
    handle(chatApi.markRead, ({ params, body }) => {
      const found = findChannel(params.id);
      if (!found) return noChannel(params.id);
      const upTo = body.upTo ?? inChannel(found.id)[0]?.id ?? 0;
      chat.reads.set(found.id, Math.max(chat.reads.get(found.id) ?? 0, upTo));
      return { channelId: found.id, lastReadId: chat.reads.get(found.id)!, unread: unreadOf(found.id), totalUnread: list(false).totalUnread };
    }),
    handle(chatApi.editMessage, ({ params, body }) => {
      const found = findMessage(params.id);
      if (!found) return noMessage(params.id);
      if (found.author.accountId !== chat.me) return problem(403, 'Forbidden', 'You may only edit your own messages.');
      Object.assign(found, { body: body.body, editedAt: new Date().toISOString() });
      return found;
    }),
    handle(chatApi.deleteMessage, ({ params }) => {
      const found = findMessage(params.id);
      if (!found) return noMessage(params.id);
      Object.assign(found, { body: '', deleted: true });
    }),
  ];
  return chat;
}
