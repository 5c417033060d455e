import * as v from 'valibot';
import { chatApi } from '../bff/contracts/chat.contract';
import { read } from '../bff/contracts/endpoint.contract';
import { pages } from './pages';
import type { AreaReads } from './reads';
import { parseSearch } from './search-params';
import { chatChannelsRead, shellLayoutReads } from './shell.reads';

/** The staff chat's pages (list, grid, split): `?channel=` and the reads they start with. */

/** `?channel=<id>`: anything else falls back to 0, no channel named (the page opens the first one listed). */
const ChatSearchSchema = v.object({ channel: v.fallback(v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.toNumber()), 0) });
export type ChatSearch = v.InferOutput<typeof ChatSearchSchema>;
export const parseChatSearch = (search: URLSearchParams) => parseSearch(ChatSearchSchema, search);

/** The channels every layout lists (active ones), the same read as the shell's Chat tab count. */
export const channelsRead = chatChannelsRead;

/** The newest slice of a channel's thread. */
export const threadRead = (channelId: number) => read(chatApi.listMessages, { params: { id: channelId } });

/**
 * Every chat layout's first read: the channel list. The thread is the one the address names when the
 * list holds it, else the first listed: only the list tells (a runner linked to a desk channel must
 * not ask for its thread, a 404), so the loader reads it once the list has come.
 */
export const chatPageReads = () => ({ channels: channelsRead });

export const chatReads = {
  chat: () => ({ ...shellLayoutReads(pages.chat), ...chatPageReads() }),
  chatGrid: () => ({ ...shellLayoutReads(pages.chatGrid), ...chatPageReads() }),
  chatFlex: () => ({ ...shellLayoutReads(pages.chatFlex), ...chatPageReads() }),
} satisfies AreaReads;
