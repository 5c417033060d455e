import { urlOf } from '@contracts/endpoint.contract';
import type { PageRead } from '@pages/reads';
import { chatReads } from '@pages/chat.reads';

/** What a chat page reads first from its address (what its loader starts with and the BFF preloads), as URLs. */
const firstReads = (page: keyof typeof chatReads) =>
  Object.values<PageRead | undefined>(chatReads[page]())
    .filter((read) => read !== undefined)
    .map((read) => urlOf(read.endpoint, read.input as Parameters<typeof urlOf>[1]));

describe("the chat's first reads", () => {
  it('are the channel list alone in every layout, whatever the address names: which thread opens, only the list tells', () => {
    for (const page of ['chat', 'chatGrid', 'chatFlex'] as const) expect([page, firstReads(page)]).toEqual([page, ['/api/chat/channels']]);
  });
});
