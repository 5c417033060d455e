import * as v from 'valibot';
import { PageQuerySchema, PictureQuerySchema, idText, pageOf } from './common.contract';
import { endpoint } from './endpoint.contract';

/**
 * The parts catalogue (`/api/rest`, public reads): pieces (sets, kits: assemblies) and the parts
 * they are made of, in Rebrickable's model. A piece lists its parts by category with colour and
 * quantity; a part lists the pieces it is used in. Loaded from Rebrickable's CSV downloads by
 * `npm run catalogue -- import <dir>`. A piece's or part's `imageUrl` is our own address for its
 * picture (`/api/rest/pictures?src=…`, decision 0068), null when it has none the BFF may fetch.
 */

export const MAX_CATALOGUE_QUERY = 100;

/** What a piece or part number looks like (`10270-1`, `3001pr0001`); an id is digits only. */
/** The piece number the pages give as an example of what to type: a piece of the catalogue shipped with the app. */
export const EXAMPLE_PIECE_NUMBER = '10109-1';
export const CATALOGUE_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
/**
 * A piece or part in a path: its number (`10270-1`, `3001`, `3001pr0001`: what people know, share
 * and type), or its id. The number is looked up first; an address with digits only that is no
 * number is an id (links from before numbers were used), and the page then moves to the number.
 */
export const catalogueRef = (what: string) =>
  v.pipe(v.string(), v.regex(CATALOGUE_NUMBER, `Expected a ${what} number such as ${what === 'piece' ? '10270-1' : '3001 or 3001pr0001'}, or a ${what} id`));

export const PieceRefParamSchema = v.object({ id: catalogueRef('piece') });
export const PartRefParamSchema = v.object({ id: catalogueRef('part') });

/** A search: trimmed, at most MAX_CATALOGUE_QUERY characters. */
const searchText = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(MAX_CATALOGUE_QUERY, `Search is at most ${MAX_CATALOGUE_QUERY} characters`)));

export const PIECE_SORTS = ['relevance', 'number', 'name', 'year-desc', 'year', 'parts-desc'] as const;
export type PieceSort = (typeof PIECE_SORTS)[number];

export const PieceListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  query: searchText,
  category: v.optional(idText('Expected a category id (a positive integer)')),
  sort: v.optional(v.picklist(PIECE_SORTS, `Expected sort to be one of ${PIECE_SORTS.join(', ')}`), 'relevance'),
});
export type PieceListQuery = v.InferOutput<typeof PieceListQuerySchema>;

export const CategoryRefSchema = v.object({ id: v.number(), name: v.string() });

export const PieceSummarySchema = v.object({
  id: v.number(),
  number: v.string(),
  name: v.string(),
  year: v.nullable(v.number()),
  category: v.nullable(CategoryRefSchema),
  partCount: v.number(),
  imageUrl: v.nullable(v.string()),
});
export type PieceSummary = v.InferOutput<typeof PieceSummarySchema>;
export const PiecePageSchema = pageOf(PieceSummarySchema);

export const ColourSchema = v.object({ id: v.number(), name: v.string(), rgb: v.string(), transparent: v.boolean() });
export type Colour = v.InferOutput<typeof ColourSchema>;

export const PartSummarySchema = v.object({
  id: v.number(),
  number: v.string(),
  name: v.string(),
  category: v.nullable(CategoryRefSchema),
  material: v.nullable(v.string()),
  imageUrl: v.nullable(v.string()),
});
export type PartSummary = v.InferOutput<typeof PartSummarySchema>;

export const PART_SORTS = ['relevance', 'number', 'name', 'used-desc'] as const;
export type PartSort = (typeof PART_SORTS)[number];

export const PartListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  query: searchText,
  category: v.optional(idText('Expected a part category id (a positive integer)')),
  sort: v.optional(v.picklist(PART_SORTS, `Expected sort to be one of ${PART_SORTS.join(', ')}`), 'relevance'),
});
export type PartListQuery = v.InferOutput<typeof PartListQuerySchema>;

/** A part in a list, with how many pieces use it. */
export const PartListItemSchema = v.object({ ...PartSummarySchema.entries, pieceCount: v.number() });
export type PartListItem = v.InferOutput<typeof PartListItemSchema>;
export const PartPageSchema = pageOf(PartListItemSchema);

export const PartCategorySchema = v.object({ id: v.number(), name: v.string(), partCount: v.number() });
export type PartCategory = v.InferOutput<typeof PartCategorySchema>;
export const PartCategoryListSchema = v.object({ items: v.array(PartCategorySchema) });

/** One line of a piece's composition: a part in one colour, how many, and whether they are spares. */
export const PieceLineSchema = v.object({ part: PartSummarySchema, colour: ColourSchema, quantity: v.number(), spare: v.boolean() });
export type PieceLine = v.InferOutput<typeof PieceLineSchema>;

export const PieceDetailSchema = v.object({
  ...PieceSummarySchema.entries,
  /**
   * The piece's lines grouped by part category (categories by name, lines by part number then
   * colour); `quantity` counts the parts, `spares` the spare ones beside them, as `totals` do.
   */
  groups: v.array(v.object({ category: v.nullable(CategoryRefSchema), lines: v.array(PieceLineSchema), quantity: v.number(), spares: v.number() })),
  totals: v.object({ lines: v.number(), distinctParts: v.number(), quantity: v.number(), spares: v.number() }),
});
export type PieceDetail = v.InferOutput<typeof PieceDetailSchema>;

/** A piece the part is used in, with how many of the part it takes (spares apart). */
export const WhereUsedSchema = v.object({ piece: PieceSummarySchema, quantity: v.number(), spares: v.number(), colours: v.number() });
export type WhereUsed = v.InferOutput<typeof WhereUsedSchema>;

export const PartDetailSchema = v.object({
  ...PartSummarySchema.entries,
  /** The colours the part comes in across the catalogue. */
  colours: v.array(ColourSchema),
  usedIn: pageOf(WhereUsedSchema),
});
export type PartDetail = v.InferOutput<typeof PartDetailSchema>;

export const PartQuerySchema = v.object({ ...PageQuerySchema.entries });

/** `pieceCount` counts the pieces directly in the category (a filter by it also finds those of the categories below). */
export const CategorySchema = v.object({ id: v.number(), name: v.string(), parentId: v.nullable(v.number()), pieceCount: v.number() });
export type Category = v.InferOutput<typeof CategorySchema>;
export const CategoryListSchema = v.object({ items: v.array(CategorySchema) });

export const catalogueApi = {
  listPieces: endpoint({
    method: 'GET',
    path: '/api/rest/pieces',
    summary: 'Pieces by number or name (an exact number first; without a query, sort=relevance is the newest first), optionally in one category and its sub-categories',
    access: 'public',
    query: PieceListQuerySchema,
    response: PiecePageSchema,
  }),
  listParts: endpoint({
    method: 'GET',
    path: '/api/rest/parts',
    summary: 'Parts by number or name (an exact number first, then numbers that start with the query; without a query, sort=relevance is the most used first), optionally in one part category',
    access: 'public',
    query: PartListQuerySchema,
    response: PartPageSchema,
  }),
  listPartCategories: endpoint({
    method: 'GET',
    path: '/api/rest/part-categories',
    summary: 'The categories of parts, with how many parts each holds',
    access: 'public',
    response: PartCategoryListSchema,
  }),
  getPiece: endpoint({
    method: 'GET',
    path: '/api/rest/pieces/:id',
    summary: `A piece (by number such as ${EXAMPLE_PIECE_NUMBER}, or by id) with its parts grouped by category, and totals`,
    access: 'public',
    params: PieceRefParamSchema,
    response: PieceDetailSchema,
    errors: [404],
  }),
  getPart: endpoint({
    method: 'GET',
    path: '/api/rest/parts/:id',
    summary: 'A part (by number such as 3001 or 3001pr0001, or by id) with the pieces it is used in, paged',
    access: 'public',
    params: PartRefParamSchema,
    query: PartQuerySchema,
    response: PartDetailSchema,
    errors: [404],
  }),
  listCategories: endpoint({
    method: 'GET',
    path: '/api/rest/categories',
    summary: 'The categories (themes) of pieces, with their parent and how many pieces each holds',
    access: 'public',
    response: CategoryListSchema,
  }),
  picture: endpoint({
    method: 'GET',
    path: '/api/rest/pictures',
    summary: "A piece's or part's picture (Rebrickable's sets and parts folders only), kept on disk; the answers' imageUrl addresses point here; a neutral placeholder picture while it cannot be had",
    access: 'public',
    query: PictureQuerySchema,
    response: v.unknown(),
    stream: 'file',
    errors: [404],
  }),
};

/** Rows a page of the catalogue's lists shows (pieces, parts). */
export const CATALOGUE_PAGE_SIZE = 24;
