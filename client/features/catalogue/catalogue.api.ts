import type { Page } from '@contracts/common.contract';
import type { Category, PartSort, PieceSort } from '@contracts/catalogue.contract';
import { parseCatalogueSearch, type CatalogueSearch, type PartsSearch, type PiecesSearch } from '@pages/catalogue.reads';
import { isApiError } from '@/lib/api-client';
import { formatCount } from '@/lib/format';
import { lastListAddress } from '@/lib/last-list';
import { paths } from '@/lib/paths';
import { load, type Loaded, type Query } from '@/lib/reads';

/**
 * The catalogue's client side (read only, public; its reads are declared in pages/catalogue.reads.ts):
 * the links between its pages, the list's failures kept inside the page, and the words it uses.
 */

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
  return { href: list, label: parseCatalogueSearch(new URL(list, 'http://list').searchParams).kind === 'parts' ? 'Back to the parts' : 'Back to the pieces', state: { list } };
}

/** The state for links from this page: the same list, and this page to come back to (`here`). */
export const linkState = (state: unknown, here?: { href: string; label: string }): CatalogueLinkState => ({ list: listFrom(state), ...(here && { from: here }) });

// ---- the list's failures ---------------------------------------------------------------------

/**
 * A list read that fails inside the page rather than on the error screen (a refused search, the
 * catalogue still down after the loader's retries): the search box and filters stay there to change
 * it. A 401 or 403 would still go to the router, but the catalogue is public.
 */
export async function attempt<T>(read: Query<T>): Promise<Loaded<T>> {
  try {
    return { data: await load(read) };
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
