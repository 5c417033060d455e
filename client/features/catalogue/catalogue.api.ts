import * as v from 'valibot';
import { idText, type Page } from '@contracts/common.contract';
import {
  CATALOGUE_PAGE_SIZE,
  MAX_CATALOGUE_QUERY,
  PART_SORTS,
  PIECE_SORTS,
  PartRefParamSchema,
  PieceRefParamSchema,
  catalogueApi,
  catalogueReads,
  type Category,
  type PartSort,
  type PieceSort,
} from '@contracts/catalogue.contract';
import { fetcherFor, isApiError, keyFor, keyOf } from '@/lib/api-client';
import { formatCount } from '@/lib/format';
import { lastListAddress } from '@/lib/last-list';
import { paths } from '@/lib/paths';
import { pageParam, parseSearch, toApiPage } from '@pages/search-params';

/**
 * The catalogue's data layer (read only, public): the search params of its pages, the keys and
 * fetchers of its reads (keys name the endpoint and its input) and the links between its pages.
 */

/** A grid of pieces: 24 fills rows of 2, 3, 4 or 6 cards. */
export const PIECES_PAGE_SIZE = CATALOGUE_PAGE_SIZE;
export const WHERE_USED_PAGE_SIZE = 20;

// ---- search params (every key falls back silently) ------------------------------------------

/** `?query=`: trimmed, and cut to what the API accepts rather than dropped. */
const queryParam = v.fallback(
  v.pipe(
    v.string(),
    v.trim(),
    v.transform((text) => text.slice(0, MAX_CATALOGUE_QUERY).trim()),
  ),
  '',
);
/** `?category=`: a category id, or 0 for every category. */
const categoryParam = v.fallback(idText(), 0);
const sortParam = v.fallback(v.picklist(PIECE_SORTS), 'relevance' as PieceSort);

export const PiecesSearchSchema = v.object({ page: pageParam, query: queryParam, category: categoryParam, sort: sortParam });
export type PiecesSearch = v.InferOutput<typeof PiecesSearchSchema>;

/** The same list page searching parts (`?kind=parts`): its own category (a part category) and sorts. */
export const PartsSearchSchema = v.object({ page: pageParam, query: queryParam, category: categoryParam, sort: v.fallback(v.picklist(PART_SORTS), 'relevance' as PartSort) });
export type PartsSearch = v.InferOutput<typeof PartsSearchSchema>;

/** What `/pieces` shows: pieces (the default) or parts, each with its own search. */
export type CatalogueSearch = ({ kind: 'pieces' } & PiecesSearch) | ({ kind: 'parts' } & PartsSearch);
export function parseCatalogueSearch(url: URL | URLSearchParams): CatalogueSearch {
  const params = url instanceof URL ? url.searchParams : url;
  return params.get('kind') === 'parts' ? { kind: 'parts', ...parseSearch(PartsSearchSchema, params) } : { kind: 'pieces', ...parseSearch(PiecesSearchSchema, params) };
}
export const parsePiecesSearch = (url: URL | URLSearchParams) => parseSearch(PiecesSearchSchema, url);

export const WhereUsedSearchSchema = v.object({ page: pageParam });
export const parseWhereUsedSearch = (url: URL | URLSearchParams) => parseSearch(WhereUsedSearchSchema, url);

export const SORT_LABELS: Record<PieceSort, string> = {
  relevance: 'Best match',
  number: 'Number',
  name: 'Name (A–Z)',
  'year-desc': 'Newest first',
  year: 'Oldest first',
  'parts-desc': 'Most parts',
};

export const PART_SORT_LABELS: Record<PartSort, string> = {
  relevance: 'Best match',
  number: 'Number',
  name: 'Name (A–Z)',
  'used-desc': 'Most used',
};

/** Is this path segment a piece (or part) the API can look up: an id, or a number such as 10270-1? */
export const isPieceRef = (id: string | undefined): id is string => v.is(PieceRefParamSchema, { id });
export const isPartRef = (id: string | undefined): id is string => v.is(PartRefParamSchema, { id });

// ---- links ----------------------------------------------------------------------------------

/** The list with these params (page 1, an empty query, every category and the default sort are left out). */
export const piecesHref = (search: Partial<PiecesSearch>): string => catalogueHref('pieces', search);

/** The parts list with these params, as `piecesHref` writes the pieces'. */
export const partsHref = (search: Partial<PartsSearch>): string => catalogueHref('parts', search);

function catalogueHref(kind: CatalogueSearch['kind'], search: { query?: string; category?: number; sort?: string; page?: number }): string {
  const params = new URLSearchParams();
  if (kind === 'parts') params.set('kind', 'parts');
  if (search.query) params.set('query', search.query);
  if (search.category) params.set('category', String(search.category));
  if (search.sort && search.sort !== 'relevance') params.set('sort', search.sort);
  if (search.page && search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query ? `${paths.pieces}?${query}` : paths.pieces;
}

/** A part's page (by its number, as people know it) at a where-used page (1-based; page 1 is left out). */
export function partHref(number: string, page = 1): string {
  return page > 1 ? `${paths.part(number)}?page=${page}` : paths.part(number);
}

/**
 * Links inside the catalogue carry, in the history entry's state, the list the reader came from
 * (its search, filter, sort and page) and the piece or part page they came from, so "back" goes
 * where they were, after a reload too. Where the state is missing (a link typed or shared), the
 * list this tab showed last stands in.
 */
export type CatalogueLinkState = { list: string; from?: { href: string; label: string } };

/** The list this tab showed last, for a piece or part opened without one in its link. */
export const lastList = lastListAddress(paths.pieces);

const isListHref = (href: unknown): href is string => typeof href === 'string' && (href === paths.pieces || href.startsWith(`${paths.pieces}?`));
/** A piece's or part's page (only our own paths are followed back). */
const isDetailHref = (href: unknown): href is string => typeof href === 'string' && /^\/(pieces|parts)\/[A-Za-z0-9._-]+(\?page=[0-9]+)?$/.test(href);

/** The list to go back to: the one in the history state, when it is a list URL; else the last one shown. */
export function listFrom(state: unknown): string {
  const list = (state as Partial<CatalogueLinkState> | null | undefined)?.list;
  return isListHref(list) ? list : lastList.get();
}

/** Where "back" goes, what it says, and the state it carries (the same list, so the way back from there still finds it). */
export type Back = { href: string; label: string; state: CatalogueLinkState };

/** The way back: to the piece or part the reader came from, else to their list. */
export function backFrom(state: unknown): Back {
  const from = (state as Partial<CatalogueLinkState> | null | undefined)?.from;
  const list = listFrom(state);
  if (from && isDetailHref(from.href) && typeof from.label === 'string') return { href: from.href, label: `Back to ${from.label}`, state: { list } };
  if (list === paths.pieces) return { href: list, label: 'All pieces', state: { list } };
  return { href: list, label: parseCatalogueSearch(new URL(list, 'http://list')).kind === 'parts' ? 'Back to the parts' : 'Back to the pieces', state: { list } };
}

/** The state for links from this page: the same list, and this page to come back to (`here`). */
export const linkState = (state: unknown, here?: { href: string; label: string }): CatalogueLinkState => ({ list: listFrom(state), ...(here && { from: here }) });

// ---- keys and fetchers ------------------------------------------------------------------------

/** `GET /api/rest/pieces?page=<0-based>…` for a 1-based URL page. */
export const piecesKey = (search: PiecesSearch) =>
  keyFor(catalogueApi.listPieces, {
    query: {
      page: toApiPage(search.page),
      pageSize: PIECES_PAGE_SIZE,
      query: search.query || undefined,
      category: search.category || undefined,
      sort: search.sort,
    },
  });
/** `GET /api/rest/parts?page=<0-based>…` for a 1-based URL page. */
export const partsKey = (search: PartsSearch, pageSize = PIECES_PAGE_SIZE) =>
  keyFor(catalogueApi.listParts, {
    query: {
      page: toApiPage(search.page),
      pageSize,
      query: search.query || undefined,
      category: search.category || undefined,
      sort: search.sort,
    },
  });
export const pieceKey = (id: number | string) => keyFor(catalogueApi.getPiece, { params: { id } });
export const partKey = (id: number | string, page: number) =>
  keyFor(catalogueApi.getPart, { params: { id }, query: { page: toApiPage(page), pageSize: WHERE_USED_PAGE_SIZE } });
export const CATEGORIES_KEY = keyOf(catalogueReads.categories);
export const PART_CATEGORIES_KEY = keyFor(catalogueApi.listPartCategories);

export const fetchPiecePage = fetcherFor(catalogueApi.listPieces);
export const fetchPiece = fetcherFor(catalogueApi.getPiece);
export const fetchPart = fetcherFor(catalogueApi.getPart);
export const fetchCategories = fetcherFor(catalogueApi.listCategories);
export const fetchPartPage = fetcherFor(catalogueApi.listParts);
export const fetchPartCategories = fetcherFor(catalogueApi.listPartCategories);

/** A read that may fail without failing the page: its data, or the error to show inside the page. */
export type Attempt<T> = { data?: T; error?: unknown };

/** Waits for a loader read; a failure becomes the page's message (a 401 or 403 would still go to the router, but the catalogue is public). */
export async function attempt<T>(read: () => T | Promise<T>): Promise<Attempt<T>> {
  try {
    return { data: await read() };
  } catch (error) {
    if (isApiError(error, 401) || isApiError(error, 403)) throw error;
    return { error };
  }
}

// ---- categories -------------------------------------------------------------------------------

/** A category in the filter: its depth in the tree and the pieces it and its sub-categories hold (what choosing it finds). */
export type CategoryChoice = Category & { depth: number; total: number };

/**
 * Categories in tree order: each parent (by name) followed by its sub-categories. `pieceCount` is
 * the pieces directly in a category, while the filter takes in the sub-categories too, so each
 * choice also carries the `total` of its whole branch.
 */
export function categoryTree(categories: Category[]): CategoryChoice[] {
  const ids = new Set(categories.map((c) => c.id));
  const children = new Map<number | null, Category[]>();
  for (const category of categories) {
    // A parent the list does not have: the category stands at the top.
    const parent = category.parentId !== null && ids.has(category.parentId) ? category.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), category]);
  }
  const out: CategoryChoice[] = [];
  const seen = new Set<number>();
  const walk = (parent: number | null, depth: number): number => {
    let sum = 0;
    for (const category of [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name))) {
      if (seen.has(category.id)) continue; // a cycle in bad data must not loop
      seen.add(category.id);
      const choice: CategoryChoice = { ...category, depth, total: category.pieceCount };
      out.push(choice);
      choice.total += walk(category.id, depth + 1);
      sum += choice.total;
    }
    return sum;
  };
  walk(null, 0);
  return out;
}

/** A colour's `rgb` ("C91A09") as CSS, or undefined when it is not six hex digits. */
export function cssColour(rgb: string): string | undefined {
  return /^[0-9a-f]{6}$/i.test(rgb) ? `#${rgb}` : undefined;
}

export const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
/** How many a list has: `total`, or at least that many. */
export type Found = Pick<Page<unknown>, 'total' | 'totalIsLowerBound'>;
/** The other tab of the catalogue's search, when the same words find something there: how many, and its address. */
export type Elsewhere = { found: Found; to: string };
/** How many a search found: "24", or "1,000+" when it stopped counting there. */
export const foundCount = (found: Found) => formatCount(found.total, found.totalIsLowerBound);
const foundOne = (found: Found) => found.total === 1 && !found.totalIsLowerBound;
/** "1 part", "24 parts", "1,000+ parts". */
export const foundPlural = (found: Found, one: string, many: string) => `${foundCount(found)} ${foundOne(found) ? one : many}`;
/** "1 part matches", "24 parts match". */
export const foundMatching = (found: Found, one: string, many: string) =>
  `${foundPlural(found, one, many)} ${foundOne(found) ? 'matches' : 'match'}`;
