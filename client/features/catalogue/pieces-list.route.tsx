import './catalogue.css';
import { useEffect } from 'react';
import { useLoaderData, useNavigation } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { EXAMPLE_PIECE_NUMBER } from '@contracts/catalogue.contract';
import type { Endpoint } from '@contracts/endpoint.contract';
import { catalogueListReads, parseCatalogueSearch, type CatalogueSearch } from '@pages/catalogue.reads';
import type { PageRead } from '@pages/reads';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { queryOf, routeReads } from '@/lib/route-reads';
import { useSearch } from '@/lib/search-params';
import { attempt, foundCount, lastList, partsHref, piecesHref, type CatalogueLinkState, type Elsewhere, type Found } from './catalogue.api';
import { PartResults } from './components/part-results';
import { PieceResults } from './components/piece-results';

const reads = routeReads(catalogueListReads);

const attempted = <E extends Endpoint>(read: PageRead<E> | undefined) => (read ? attempt(queryOf(read)) : undefined);

/**
 * `/pieces?kind&query&category&sort&page`: pieces (the default) or parts (`kind=parts`), each with
 * its own category filter and sorts; the URL page is 1-based, the API's 0-based; bad params fall
 * back silently. A failed search (an unknown category is a 400) shows inside the page, with the
 * search box and filters still there to change it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const declared = catalogueListReads({ params: {}, search: new URL(request.url).searchParams });
  const [pieces, parts, categories, partCategories] = await Promise.all([
    attempted(declared.pieces),
    attempted(declared.parts),
    attempted(declared.categories),
    attempted(declared.partCategories),
  ]);
  return { pieces, parts, categories, partCategories };
}

export const handle = { title: 'Catalogue', ...reads.handle };

const LEDES = {
  pieces: `Every set in the catalogue. Find one by its number (such as ${EXAMPLE_PIECE_NUMBER}) or its name, then open it to see the parts it is made of.`,
  parts: 'Every part the pieces are made of. Find one by its number (such as 3001) or a word of its name, then see the pieces it is used in.',
};

/** Pieces or parts for the same words; with words typed, each tab says how many it finds (the other tab's first page is read for it). */
function KindTabs({ search, totals }: { search: CatalogueSearch; totals: Record<CatalogueSearch['kind'], Found | undefined> }) {
  const counted = (kind: CatalogueSearch['kind']) => {
    const found = totals[kind];
    return search.query && found !== undefined ? <span className="tab-count">{foundCount(found)}</span> : null;
  };
  return (
    <nav className="tabs cat-kinds" aria-label="Search the catalogue for">
      <AppLink to={piecesHref({ query: search.query })} className="tab" aria-current={search.kind === 'pieces' ? 'page' : undefined}>
        Pieces {counted('pieces')}
      </AppLink>
      <AppLink to={partsHref({ query: search.query })} className="tab" aria-current={search.kind === 'parts' ? 'page' : undefined}>
        Parts {counted('parts')}
      </AppLink>
    </nav>
  );
}

/** The other tab, when it finds something for the same words: an empty tab points there (a part number typed among the pieces). */
const elsewhere = (found: Found | undefined, to: string): Elsewhere | undefined => (found && found.total > 0 ? { found, to } : undefined);

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const search = useSearch(parseCatalogueSearch);
  const totals = { pieces: loaded.pieces?.data, parts: loaded.parts?.data };
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.pieces;
  const here = search.kind === 'parts' ? partsHref(search) : piecesHref(search);
  const state: CatalogueLinkState = { list: here };
  useEffect(() => lastList.remember(here), [here]);

  return (
    <div className="stack-lg catalogue">
      <PageHeader eyebrow="Catalogue" title={search.kind === 'parts' ? 'Parts' : 'Pieces'}>
        <p>{LEDES[search.kind]}</p>
      </PageHeader>
      <KindTabs search={search} totals={totals} />
      {search.kind === 'parts' ? (
        <PartResults search={search} loaded={{ parts: loaded.parts ?? {}, categories: loaded.partCategories ?? {} }} busy={busy} state={state} elsewhere={elsewhere(totals.pieces, piecesHref({ query: search.query }))} />
      ) : (
        <PieceResults search={search} loaded={{ pieces: loaded.pieces ?? {}, categories: loaded.categories ?? {} }} busy={busy} state={state} elsewhere={elsewhere(totals.parts, partsHref({ query: search.query }))} />
      )}
    </div>
  );
}
