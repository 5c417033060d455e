import { catalogueReads } from '@contracts/catalogue.contract';
import { keyOf } from '@/lib/api-client';
import { parseCatalogueSearch, piecesKey } from './catalogue.api';

describe("the catalogue's first read", () => {
  const searchAt = (href: string) => {
    const search = parseCatalogueSearch(new URL(href, 'http://desk.test'));
    if (search.kind !== 'pieces') throw new Error(`${href} is no pieces list`);
    return search;
  };

  it('at the bare address is the read the BFF preloads from the HTML (one request, not two)', () => {
    expect(piecesKey(searchAt('/pieces'))).toEqual(keyOf(catalogueReads.firstPiecesPage));
  });

  it('with a page, a search or a sort asked is another read, which the BFF does not preload', () => {
    for (const href of ['/pieces?page=2', '/pieces?query=castle', '/pieces?sort=name']) expect(piecesKey(searchAt(href))).not.toEqual(keyOf(catalogueReads.firstPiecesPage));
  });
});
