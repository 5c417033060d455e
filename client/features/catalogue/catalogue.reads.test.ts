import { urlOf } from '@contracts/endpoint.contract';
import { AddressNotFound, type PageRead } from '@pages/reads';
import { catalogueReads } from '@pages/catalogue.reads';

/** What a page of the catalogue reads first from its address (what its loader waits for and the BFF preloads), as URLs. */
const firstReads = (page: keyof typeof catalogueReads, href: string, params: Record<string, string> = {}) =>
  Object.values<PageRead | undefined>(catalogueReads[page]({ params, search: new URL(href, 'http://desk.test').searchParams }))
    .filter((read) => read !== undefined)
    .map((read) => urlOf(read.endpoint, read.input as Parameters<typeof urlOf>[1]));

describe("the catalogue's first reads", () => {
  it('at the bare list are the newest pieces and the categories of the filter', () => {
    expect(firstReads('pieces', '/pieces')).toEqual(['/api/rest/pieces?page=0&pageSize=24&sort=relevance', '/api/rest/categories']);
  });

  it('with words typed are the tab’s list, the first page of the other tab (for its count) and the tab’s categories', () => {
    expect(firstReads('pieces', '/pieces?query=3001&category=3&sort=name&page=2')).toEqual([
      '/api/rest/pieces?page=1&pageSize=24&query=3001&category=3&sort=name',
      '/api/rest/parts?page=0&pageSize=24&query=3001&sort=relevance',
      '/api/rest/categories',
    ]);
    expect(firstReads('pieces', '/pieces?kind=parts&query=3001&sort=used-desc')).toEqual([
      '/api/rest/pieces?page=0&pageSize=24&query=3001&sort=relevance',
      '/api/rest/parts?page=0&pageSize=24&query=3001&sort=used-desc',
      '/api/rest/part-categories',
    ]);
  });

  it('of a piece or a part are it (a part with its page of pieces), by the number or id in the address', () => {
    expect(firstReads('piece', '/pieces/10270-1', { id: '10270-1' })).toEqual(['/api/rest/pieces/10270-1']);
    expect(firstReads('part', '/parts/3001?page=3', { id: '3001' })).toEqual(['/api/rest/parts/3001?page=2&pageSize=20']);
  });

  it('of an address the API could not look up are none: the page is not found', () => {
    expect(() => firstReads('piece', '/pieces/_x', { id: '_x' })).toThrow(AddressNotFound);
    expect(() => firstReads('part', '/parts/a%20b', { id: 'a b' })).toThrow(AddressNotFound);
  });
});
