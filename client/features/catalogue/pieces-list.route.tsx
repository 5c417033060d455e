import './catalogue.css';
import { useEffect } from 'react';
import { useLoaderData, useNavigation } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import type { Page } from '@contracts/common.contract';
import { EXAMPLE_PIECE_NUMBER, type Category, type PartCategory, type PartListItem, type PieceSummary } from '@contracts/catalogue.contract';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { loadQuery, preloadQuery } from '@/lib/cache';
import { paths } from '@/lib/paths';
import {
  CATEGORIES_KEY,
  PART_CATEGORIES_KEY,
  attempt,
  fetchCategories,
  fetchPartCategories,
  fetchPartPage,
  fetchPiecePage,
  foundCount,
  lastList,
  parseCatalogueSearch,
  partsHref,
  partsKey,
  piecesHref,
  piecesKey,
  type Attempt,
  type CatalogueLinkState,
  type CatalogueSearch,
  type Elsewhere,
  type Found,
} from './catalogue.api';
import { PartResults } from './components/part-results';
import { PieceResults } from './components/piece-results';

type PiecesData = { search: Extract<CatalogueSearch, { kind: 'pieces' }>; pieces: Attempt<Page<PieceSummary>>; categories: Attempt<{ items: Category[] }> };
type PartsData = { search: Extract<CatalogueSearch, { kind: 'parts' }>; parts: Attempt<Page<PartListItem>>; categories: Attempt<{ items: PartCategory[] }> };
/** `otherTotal`: with a query, how many of the other kind match it (the tab says so, and its first page is then in the cache). */
type Data = (PiecesData | PartsData) & { otherTotal?: Found };

/** With words typed, how many of the other kind match them (its first page, its own filters at their defaults: then in the cache). */
async function otherTotal(search: CatalogueSearch): Promise<Found | undefined> {
  if (!search.query) return undefined;
  const first = { page: 1, query: search.query, category: 0, sort: 'relevance' } as const;
  const read = await attempt(async (): Promise<Page<unknown>> => (search.kind === 'pieces' ? loadQuery(partsKey(first), fetchPartPage) : loadQuery(piecesKey(first), fetchPiecePage)));
  return read.data;
}

/**
 * `/pieces?kind&query&category&sort&page`: pieces (the default) or parts (`kind=parts`), each with
 * its own category filter and sorts; the URL page is 1-based, the API's 0-based; bad params fall
 * back silently. A failed search (an unknown category is a 400) shows inside the page, with the
 * search box and filters still there to change it.
 */
export async function loader({ url }: LoaderFunctionArgs): Promise<Data> {
  const search = parseCatalogueSearch(url);
  const other = otherTotal(search);
  if (search.kind === 'parts') {
    const [parts, categories, total] = await Promise.all([attempt(() => loadQuery(partsKey(search), fetchPartPage)), attempt(() => loadQuery(PART_CATEGORIES_KEY, fetchPartCategories)), other]);
    return { search, parts, categories, otherTotal: total };
  }
  const [pieces, categories, total] = await Promise.all([attempt(() => loadQuery(piecesKey(search), fetchPiecePage)), attempt(() => loadQuery(CATEGORIES_KEY, fetchCategories)), other]);
  return { search, pieces, categories, otherTotal: total };
}

export const handle = {
  title: 'Catalogue',
  preload: ({ url }: { url: URL }) => {
    const search = parseCatalogueSearch(url);
    if (search.kind === 'parts') {
      preloadQuery(partsKey(search), fetchPartPage);
      preloadQuery(PART_CATEGORIES_KEY, fetchPartCategories);
    } else {
      preloadQuery(piecesKey(search), fetchPiecePage);
      preloadQuery(CATEGORIES_KEY, fetchCategories);
    }
  },
};

const LEDES = {
  pieces: `Every set in the catalogue. Find one by its number (such as ${EXAMPLE_PIECE_NUMBER}) or its name, then open it to see the parts it is made of.`,
  parts: 'Every part the pieces are made of. Find one by its number (such as 3001) or a word of its name, then see the pieces it is used in.',
};

/** Pieces or parts for the same words; with words typed, each tab says how many it finds. */
function KindTabs({ data }: { data: Data }) {
  const { search } = data;
  const shown: Found | undefined = search.kind === 'pieces' ? (data as PiecesData).pieces.data : (data as PartsData).parts.data;
  const totals = search.kind === 'pieces' ? { pieces: shown, parts: data.otherTotal } : { pieces: data.otherTotal, parts: shown };
  const counted = (kind: 'pieces' | 'parts') => {
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
  const data = useLoaderData<typeof loader>();
  const { search } = data;
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
      <KindTabs data={data} />
      {search.kind === 'parts' ? (
        <PartResults search={search} loaded={data as PartsData} busy={busy} state={state} elsewhere={elsewhere(data.otherTotal, piecesHref({ query: search.query }))} />
      ) : (
        <PieceResults search={search} loaded={data as PiecesData} busy={busy} state={state} elsewhere={elsewhere(data.otherTotal, partsHref({ query: search.query }))} />
      )}
    </div>
  );
}
