import { urlOf } from '@contracts/endpoint.contract';
import type { PageRead } from '@pages/reads';
import { chatReads } from '@pages/chat.reads';

/** What a chat page reads first from its address (what its loader starts with and the BFF preloads), as URLs. */
const firstReads = (page: keyof typeof chatReads, href: string) =>
  Object.values<PageRead | undefined>(chatReads[page]({ params: {}, search: new URL(href, 'http://desk.test').searchParams }))
    .filter((read) => read !== undefined)
    .map((read) => urlOf(read.endpoint, read.input as Parameters<typeof urlOf>[1]));

describe("the chat's first reads", () => {
  it('are the channel list, and the thread of the channel the address names, in every layout', () => {
    expect(firstReads('chat', '/shell/chat?channel=3')).toEqual(['/api/chat/channels', '/api/chat/channels/3/messages']);
    expect(firstReads('chatFlex', '/shell/chat/flex?channel=12')).toEqual(['/api/chat/channels', '/api/chat/channels/12/messages']);
    expect(firstReads('chatGrid', '/shell/chat/grid?channel=3')).toEqual(['/api/chat/channels', '/api/chat/channels/3/messages']);
  });

  it('are the channel list alone when the address names no channel: which one opens, only the list tells', () => {
    for (const href of ['/shell/chat', '/shell/chat?channel=abc', '/shell/chat?channel=0', '/shell/chat/grid']) {
      expect([href, firstReads(href.startsWith('/shell/chat/grid') ? 'chatGrid' : 'chat', href)]).toEqual([href, ['/api/chat/channels']]);
    }
  });
});
