import { urlOf } from '@contracts/endpoint.contract';
import { AddressNotFound, type PageRead } from '@pages/reads';
import { conversationsReads } from '@pages/conversations.reads';

/** What a page of guest help reads first from its address (what its loaders wait for and the BFF preloads), as URLs. */
const firstReads = (page: keyof typeof conversationsReads, href: string, params: Record<string, string> = {}) =>
  Object.values<PageRead | undefined>(conversationsReads[page]({ params, search: new URL(href, 'http://desk.test').searchParams }))
    .filter((read) => read !== undefined)
    .map((read) => urlOf(read.endpoint, read.input as Parameters<typeof urlOf>[1]));

describe("guest help's first reads", () => {
  it('at the list are the shell tabs’ counts and the page of conversations the filters ask for (bad ones fall back)', () => {
    expect(firstReads('conversations', '/shell/nuhs/basic/')).toEqual([
      '/api/chat/channels',
      '/api/conversations/waiting',
      '/api/conversations?status=open&assignee=anyone&page=0&pageSize=20',
    ]);
    expect(firstReads('conversations', '/shell/nuhs/basic/?status=resolved&assignee=mine&query=napkins&page=3').at(-1)).toBe(
      '/api/conversations?status=resolved&assignee=mine&query=napkins&page=2&pageSize=20',
    );
    expect(firstReads('conversations', '/shell/nuhs/basic/?status=weird&assignee=42&page=-3').at(-1)).toBe('/api/conversations?status=open&assignee=anyone&page=0&pageSize=20');
  });

  it('of a thread are the list beside it too, with its filters, and the conversation', () => {
    expect(firstReads('conversation', '/shell/nuhs/basic/12?status=all', { conversationId: '12' })).toEqual([
      '/api/chat/channels',
      '/api/conversations/waiting',
      '/api/conversations?status=all&assignee=anyone&page=0&pageSize=20',
      '/api/conversations/12',
    ]);
  });

  it('of a malformed conversation id are none: the page is not found', () => {
    expect(() => firstReads('conversation', '/shell/nuhs/basic/abc', { conversationId: 'abc' })).toThrow(AddressNotFound);
  });
});
