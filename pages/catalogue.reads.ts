import * as v from 'valibot';
import { idText } from '../bff/contracts/common.contract';
import {
  CATALOGUE_PAGE_SIZE,
  MAX_CATALOGUE_QUERY,
  PART_SORTS,
  PIECE_SORTS,
  PartRefParamSchema,
  PieceRefParamSchema,
  catalogueApi,
  type PartSort,
  type PieceSort,
} from '../bff/contracts/catalogue.contract';
import { read } from '../bff/contracts/endpoint.contract';
import { AddressNotFound, type AreaReads, type PageAddress } from './reads';
import { pageParam, parseSearch, toApiPage } from './search-params';

/** The catalogue's pages (public, read only): their search params (every key falls back silently) and the reads they start with. */

/** A grid of pieces or parts: 24 fills rows of 2, 3, 4 or 6 cards. */
export const PIECES_PAGE_SIZE = CATALOGUE_PAGE_SIZE;
export const WHERE_USED_PAGE_SIZE = 20;

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

const PiecesSearchSchema = v.object({ page: pageParam, query: queryParam, category: categoryParam, sort: v.fallback(v.picklist(PIECE_SORTS), 'relevance' as PieceSort) });
export type PiecesSearch = v.InferOutput<typeof PiecesSearchSchema>;

/** The same list page searching parts (`?kind=parts`): its own category (a part category) and sorts. */
const PartsSearchSchema = v.object({ page: pageParam, query: queryParam, category: categoryParam, sort: v.fallback(v.picklist(PART_SORTS), 'relevance' as PartSort) });
export type PartsSearch = v.InferOutput<typeof PartsSearchSchema>;

/** What `/pieces` shows: pieces (the default) or parts, each with its own search. */
export type CatalogueSearch = ({ kind: 'pieces' } & PiecesSearch) | ({ kind: 'parts' } & PartsSearch);
export function parseCatalogueSearch(search: URLSearchParams): CatalogueSearch {
  return search.get('kind') === 'parts' ? { kind: 'parts', ...parseSearch(PartsSearchSchema, search) } : { kind: 'pieces', ...parseSearch(PiecesSearchSchema, search) };
}

const WhereUsedSearchSchema = v.object({ page: pageParam });
export const parseWhereUsedSearch = (search: URLSearchParams) => parseSearch(WhereUsedSearchSchema, search);

/** Is this path segment a piece (or part) the API can look up: an id, or a number such as 10270-1? */
export const isPieceRef = (id: string | undefined): id is string => v.is(PieceRefParamSchema, { id });
export const isPartRef = (id: string | undefined): id is string => v.is(PartRefParamSchema, { id });

// ---- reads ------------------------------------------------------------------------------------

/** `GET /api/rest/pieces?page=<0-based>…` for a 1-based URL page. */
export const piecesRead = (search: PiecesSearch) =>
  read(catalogueApi.listPieces, {
    query: { page: toApiPage(search.page), pageSize: PIECES_PAGE_SIZE, query: search.query || undefined, category: search.category || undefined, sort: search.sort },
  });

/** `GET /api/rest/parts?page=<0-based>…` for a 1-based URL page. */
export const partsRead = (search: PartsSearch) =>
  read(catalogueApi.listParts, {
    query: { page: toApiPage(search.page), pageSize: PIECES_PAGE_SIZE, query: search.query || undefined, category: search.category || undefined, sort: search.sort },
  });

/** The piece categories (themes) the pieces' filter offers. */
export const categoriesRead = read(catalogueApi.listCategories);
/** The part categories the parts' filter offers. */
export const partCategoriesRead = read(catalogueApi.listPartCategories);

export const pieceRead = (ref: string) => read(catalogueApi.getPiece, { params: { id: ref } });
/** A part with a page (1-based) of the pieces it is used in. */
export const partRead = (ref: string, page: number) => read(catalogueApi.getPart, { params: { id: ref }, query: { page: toApiPage(page), pageSize: WHERE_USED_PAGE_SIZE } });

/** The piece or part number (or id) in the address, or `AddressNotFound` ("No piece abc"): nothing the API could look up. */
function refParam({ params }: PageAddress, what: 'piece' | 'part'): string {
  const ref = params.id;
  const known = what === 'piece' ? isPieceRef(ref) : isPartRef(ref);
  if (!known || ref === undefined) throw new AddressNotFound(`No ${what} ${ref ?? ''}`);
  return ref;
}

// ---- each page's reads ------------------------------------------------------------------------

/**
 * `/pieces`: the tab's list and its filter's categories; with words typed, the other tab's first
 * page too (its filters at their defaults), whose total the tab shows.
 */
export const catalogueListReads = ({ search }: PageAddress) => {
  const shown = parseCatalogueSearch(search);
  const other = shown.query ? ({ page: 1, query: shown.query, category: 0, sort: 'relevance' } as const) : undefined;
  const pieces = shown.kind === 'pieces' ? shown : other;
  const parts = shown.kind === 'parts' ? shown : other;
  return {
    pieces: pieces && piecesRead(pieces),
    parts: parts && partsRead(parts),
    categories: shown.kind === 'pieces' ? categoriesRead : undefined,
    partCategories: shown.kind === 'parts' ? partCategoriesRead : undefined,
  };
};

export const pieceReads = (address: PageAddress) => ({ piece: pieceRead(refParam(address, 'piece')) });

export const partReads = (address: PageAddress) => ({ part: partRead(refParam(address, 'part'), parseWhereUsedSearch(address.search).page) });

export const catalogueReads = {
  pieces: catalogueListReads,
  piece: pieceReads,
  part: partReads,
} satisfies AreaReads;
