import { chatApi } from '../bff/contracts/chat.contract';
import { conversationsApi } from '../bff/contracts/conversations.contract';
import { read, type Access } from '../bff/contracts/endpoint.contract';
import { statusRead } from './home.reads';
import { mayCall, pages, type Page } from './pages';
import type { AreaReads } from './reads';

/** The staff shell: the reads its layout makes on every page behind it, and its own pages'. */

/** The chat's channel list: the chat pages list it, and the shell's Chat tab counts its unread. */
export const chatChannelsRead = read(chatApi.listChannels);
/** What waits in guest help for this reader: the count on the front desk's Guest help tab. */
export const guestWaitingRead = read(conversationsApi.waiting);

/** Whether every role the page is for may make a read of this access, as the API decides (admins may make any). */
const wholeAudienceMay = (page: Page, access: Access): boolean => page.for.every((who) => mayCall(who, access));

/**
 * The layout's reads, as a page behind it names them: a tab's count is named only where everyone
 * the page is for may read it (a runner has no Guest help tab, so the pages runners open leave it out).
 */
export const shellLayoutReads = (page: Page) => ({
  channels: wholeAudienceMay(page, chatChannelsRead.endpoint.access) ? chatChannelsRead : undefined,
  waiting: wholeAudienceMay(page, guestWaitingRead.endpoint.access) ? guestWaitingRead : undefined,
});

/** `/shell/api`: the service status, an outage of which shows inside the page. */
export const shellApiReads = () => ({ status: statusRead });

export const shellReads = {
  shell: () => shellLayoutReads(pages.shell),
  shellApi: () => ({ ...shellLayoutReads(pages.shellApi), ...shellApiReads() }),
  shellEmpty: () => shellLayoutReads(pages.shellEmpty),
  shellContain: () => shellLayoutReads(pages.shellContain),
  shellSse: () => shellLayoutReads(pages.shellSse),
} satisfies AreaReads;
