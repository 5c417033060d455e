import * as v from 'valibot';
import { chatApi } from '../bff/contracts/chat.contract';
import { read } from '../bff/contracts/endpoint.contract';
import { pages } from './pages';
import type { AreaReads, PageAddress } from './reads';
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
 * Every chat layout's first reads: the channel list, and the thread of the channel the address
 * names. Without one the page opens the first channel listed, whose thread its loader reads once the list has come.
 */
export const chatPageReads = ({ search }: PageAddress) => {
  const { channel } = parseChatSearch(search);
  return { channels: channelsRead, thread: channel ? threadRead(channel) : undefined };
};

export const chatReads = {
  chat: (address) => ({ ...shellLayoutReads(pages.chat), ...chatPageReads(address) }),
  chatGrid: (address) => ({ ...shellLayoutReads(pages.chatGrid), ...chatPageReads(address) }),
  chatFlex: (address) => ({ ...shellLayoutReads(pages.chatFlex), ...chatPageReads(address) }),
} satisfies AreaReads;
