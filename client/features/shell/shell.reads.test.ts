import { urlOf } from '@contracts/endpoint.contract';
import type { PageRead, PageReads } from '@pages/reads';
import { shellReads } from '@pages/shell.reads';

/** What a page of the shell reads first (what its layout and loader read, and the BFF preloads), as URLs. */
const firstReads = (page: keyof typeof shellReads) => {
  const declare: PageReads = shellReads[page];
  return Object.values<PageRead | undefined>(declare({ params: {}, search: new URLSearchParams() }))
    .filter((read) => read !== undefined)
    .map((read) => urlOf(read.endpoint, read.input as Parameters<typeof urlOf>[1]));
};

describe("the staff shell's first reads", () => {
  it('are the Chat tab’s count on the pages runners open too, without guest help’s, which a runner may not read', () => {
    expect(firstReads('shell')).toEqual(['/api/chat/channels']);
    expect(firstReads('shellEmpty')).toEqual(['/api/chat/channels']);
    expect(firstReads('shellContain')).toEqual(['/api/chat/channels']);
  });

  it('at /shell/api are the service status too', () => {
    expect(firstReads('shellApi')).toEqual(['/api/chat/channels', '/api']);
  });
});
