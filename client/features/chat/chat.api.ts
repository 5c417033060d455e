import type { LoaderFunctionArgs } from 'react-router';
import { chatApi, type Channel, type ChannelList, type ChatEvent, type ChatMessage, type MessageSlice } from '@contracts/chat.contract';
import { channelsRead, chatPageReads, parseChatSearch, threadRead } from '@pages/chat.reads';
import type { PageRead } from '@pages/reads';
import { call, fetcherFor, type QueryKey } from '@/lib/api-client';
import { cachedData, invalidate, load, preloadRead, query, setQueryData, useRead, type Query } from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';
import { write } from '@/lib/endpoint-write';

/**
 * Staff chat's data layer, shared by the three layouts (list, grid, split): one channel-list read
 * and one thread read per channel, so a message sent or heard in one layout is there in the others.
 * A thread's cache entry holds every message loaded so far (newest first, as the API pages them)
 * and the cursor of the slice before them; live events and our own writes edit it in place.
 */

/** A channel's loaded messages, newest first; `older` pages further back (null: the start is loaded). */
export type Thread = MessageSlice;

// ---- reads ------------------------------------------------------------------------------------

/** The channels every layout lists (active ones): the same read for every role, and for the shell's unread badge. */
export const channelsQuery = queryOf(channelsRead);
/** Admins' management list: archived channels too. */
export const allChannelsQuery = query(chatApi.listChannels, { query: { archived: 'include' } });

const fetchSlice = fetcherFor(chatApi.listMessages);

/**
 * Reads the newest slice and keeps the older messages already loaded behind it, so a revalidation
 * (focus, reconnect) does not throw away what the reader scrolled back to.
 */
export async function fetchThread(key: QueryKey): Promise<Thread> {
  const newest = await fetchSlice(key);
  return withNewest(cachedData(key) as Thread | undefined, newest);
}

export function withNewest(cached: Thread | undefined, slice: Thread): Thread {
  const oldestNew = slice.items.at(-1);
  if (!cached || cached.items.length === 0 || !oldestNew || slice.older === null) return slice;
  // More was written since than one slice holds: what we had no longer joins on; start again from the newest.
  if (cached.items[0]!.id < oldestNew.id) return slice;
  const kept = cached.items.filter((m) => m.id < oldestNew.id);
  return { items: [...slice.items, ...kept], older: kept.length ? cached.older : slice.older };
}

/** A channel's thread as the page reads it: its newest slice, with what was loaded behind it kept. */
const threadQueryOf = (read: PageRead<typeof chatApi.listMessages>): Query<Thread> => ({ ...queryOf(read), fetcher: fetchThread });
export const threadQuery = (channelId: number) => threadQueryOf(threadRead(channelId));

/** A message added or changed: replaced where it is, or put in id order when it is newer than the oldest loaded. */
export function upsertMessage(thread: Thread, message: ChatMessage): Thread {
  const at = thread.items.findIndex((m) => m.id === message.id);
  if (at >= 0) {
    const items = thread.items.slice();
    items[at] = message;
    return { ...thread, items };
  }
  const oldest = thread.items.at(-1);
  // Further back than what is loaded: it is read with its slice when the reader scrolls there.
  if (oldest && thread.older !== null && message.id < oldest.id) return thread;
  return { ...thread, items: [...thread.items, message].sort((a, b) => b.id - a.id) };
}

/**
 * An older slice (read with `before`) joined on behind the loaded messages. When the thread was
 * read again from its newest meanwhile and no longer reaches down to `before`, joining would leave
 * a hole between the two: the slice is left out, and the next scroll up reads from the new start
 * (a thread that has its start already needs nothing).
 */
export function withOlder(thread: Thread, slice: Thread, before: number): Thread {
  const oldest = thread.items.at(-1);
  if (thread.older === null || (oldest && before < oldest.id)) return thread;
  const known = new Set(thread.items.map((m) => m.id));
  return { items: [...thread.items, ...slice.items.filter((m) => !known.has(m.id))], older: slice.older };
}

// ---- the pages' first reads -------------------------------------------------------------------

/** The channel the URL asks for when it is listed, else the first one (undefined: no channels). */
export const selectChannel = (channels: readonly Channel[], wanted: number): Channel | undefined =>
  channels.find((c) => c.id === wanted) ?? channels[0];

/** A layout's URL with a channel selected. */
export const chatHref = (path: string, channelId?: number) => (channelId ? `${path}?${new URLSearchParams({ channel: String(channelId) }).toString()}` : path);

/** What a chat page's loader has: the list, and the thread of the channel it opens (none when that one could not be read). */
export type ChatPageData = { channels: ChannelList; thread?: Thread; threadOf?: number };

/** A chat page's first read (pages/chat.reads.ts): the channel list. */
export const loadChatFirstReads = async (): Promise<{ channels: ChannelList }> => ({ channels: await load(queryOf(chatPageReads().channels)) });

/**
 * The list and split layouts' loader: the first reads, then, when the address names no listed
 * channel, the thread of the first one, which only the list tells. A thread that cannot be read
 * says so inside the page (with a retry), under the channel list.
 */
export async function loadChatPage(args: Pick<LoaderFunctionArgs, 'params' | 'request'>): Promise<ChatPageData> {
  const { channels } = await loadChatFirstReads();
  const wanted = parseChatSearch(new URL(args.request.url).searchParams).channel;
  const selected = selectChannel(channels.channels, wanted);
  if (!selected) return { channels };
  const thread = await load(threadQuery(selected.id)).catch(() => undefined);
  return { channels, thread, threadOf: selected.id };
}

/** Hovering a link to a chat page warms the list, and, when the list is known, the thread it opens. */
export function preloadChatPage({ url }: { url: URL }) {
  preloadRead(channelsQuery);
  const list = cachedData(channelsQuery.key) as ChannelList | undefined;
  const selected = list && selectChannel(list.channels, parseChatSearch(url.searchParams).channel);
  if (selected) preloadRead(threadQuery(selected.id));
}

// ---- hooks ------------------------------------------------------------------------------------

export const useChannels = (loaded: ChannelList) => useRead(channelsQuery, loaded);

/** A channel's thread; `loaded` is the loader's read (a channel that appeared later has none yet). */
export const useThread = (channelId: number, loaded?: Thread) => useRead(threadQuery(channelId), loaded);

// ---- cache edits ------------------------------------------------------------------------------

/** The sum the API gives as `totalUnread`: active channels only. */
const withTotal = (list: ChannelList): ChannelList => ({ ...list, totalUnread: list.channels.reduce((sum, c) => sum + (c.archivedAt ? 0 : c.unread), 0) });

/**
 * Changes one channel in every cached channel list (the layouts' and the admins' management list).
 * A list on screen whose first read has not reached the cache yet is read again instead: the answer
 * on its way may be older than the news.
 */
function updateChannel(channelId: number, change: (channel: Channel) => Channel) {
  if (cachedData(channelsQuery.key) === undefined) return void invalidate(chatApi.listChannels);
  for (const key of [channelsQuery.key, allChannelsQuery.key]) {
    setQueryData(key, (list: ChannelList | undefined) =>
      list?.channels.some((c) => c.id === channelId) ? withTotal({ ...list, channels: list.channels.map((c) => (c.id === channelId ? change(c) : c)) }) : undefined,
    );
  }
}

/** Changes a channel's cached thread, when it has one (an unread channel's thread is read when opened; one on screen before its first read reached the cache, read again). */
function updateThread(channelId: number, change: (thread: Thread) => Thread) {
  const { key } = threadQuery(channelId);
  if (cachedData(key) === undefined) void invalidate(chatApi.listMessages, { params: { id: channelId } });
  else setQueryData(key, (thread: Thread | undefined) => thread && change(thread));
}

/**
 * A message's news (our own answer or a live event) in its thread and its channel's row. A message
 * by someone else that the list has not counted yet adds one unread, unless a reader has that
 * thread open at its newest message.
 */
function takeMessage(message: ChatMessage, { counts }: { counts: boolean }) {
  updateThread(message.channelId, (thread) => upsertMessage(thread, message));
  updateChannel(message.channelId, (channel) => {
    const last = channel.lastMessage;
    const isNew = !last || message.id > last.id;
    return {
      ...channel,
      lastMessage: isNew || last.id === message.id ? message : last,
      unread: channel.unread + (counts && isNew && !isReading(channel.id) ? 1 : 0),
    };
  });
}

/** Applies a live `chat` event to the caches; `me` is the reader's account id (their own messages never count as unread). */
export function applyChatEvent(event: ChatEvent, me: number): void {
  if (event.kind === 'channel') {
    void invalidate(chatApi.listChannels);
    return;
  }
  takeMessage(event.message, { counts: event.kind === 'posted' && !event.message.deleted && event.message.author.accountId !== me });
}

// ---- who is reading ---------------------------------------------------------------------------

/**
 * Threads on screen and scrolled to their newest message. A message arriving there is read as it
 * arrives, so it must not flash up as unread before the thread marks it read.
 */
const reading = new Map<number, number>();

export function startReading(channelId: number): () => void {
  reading.set(channelId, (reading.get(channelId) ?? 0) + 1);
  return () => {
    const left = (reading.get(channelId) ?? 1) - 1;
    if (left > 0) reading.set(channelId, left);
    else reading.delete(channelId);
  };
}

export const isReading = (channelId: number) => (reading.get(channelId) ?? 0) > 0;

// ---- writes (docs/decisions/0001-one-way-to-write.md) -------------------------------------------

/**
 * Shown at once; the live event of the same message finds it by id and changes nothing. Archived
 * meanwhile (409): the lists read again, so the page shows the channel as it is now.
 */
export const sendMessage = write(chatApi.postMessage, {
  apply: (message) => takeMessage(message, { counts: false }),
  staleWhenRefused: [chatApi.listChannels],
});

export const editMessage = write(chatApi.editMessage, { apply: (message) => takeMessage(message, { counts: false }) });

const deleteMessageWrite = write(chatApi.deleteMessage);
/** The API answers 204: the thread shows the message as the server now keeps it. */
export async function deleteMessage(message: ChatMessage): Promise<void> {
  await deleteMessageWrite({ params: { id: message.id } });
  takeMessage({ ...message, body: '', deleted: true }, { counts: false });
}

/** Marks a channel read up to a message; its row and the total show the server's count. */
export const markRead = write(chatApi.markRead, { apply: (state) => updateChannel(state.channelId, (channel) => ({ ...channel, unread: state.unread })) });

/** The slice before the loaded messages, joined on behind them (a read, into the thread's cache entry). */
export async function loadOlderMessages(channelId: number, before: number): Promise<void> {
  const slice = await call(chatApi.listMessages, { params: { id: channelId }, query: { before } });
  updateThread(channelId, (thread) => withOlder(thread, slice, before));
}

export const createChannel = write(chatApi.createChannel, { stale: [chatApi.listChannels] });
export const changeChannel = write(chatApi.updateChannel, { stale: [chatApi.listChannels] });

/** Everything read again (after the live stream was lost: events may have been missed meanwhile). */
export const refreshChat = () => Promise.all([invalidate(chatApi.listChannels), invalidate(chatApi.listMessages)]);
/** The channel lists read again (the server's unread counts replace the ones kept locally). */
export const refreshChannels = () => invalidate(chatApi.listChannels);
