import * as v from 'valibot';

/** Ids in paths are positive integers; anything else is a 400. */
export const IdParamSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, 'Expected a positive integer id'), v.transform(Number)),
});

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

const wholeNumber = (min: number, max: number, message: string) =>
  v.pipe(v.string(), v.regex(/^\d{1,9}$/, message), v.transform(Number), v.minValue(min, message), v.maxValue(max, message));

/** `?page=<0-based>&pageSize=` of every list call (DESIGN §5). */
export const PageQuerySchema = v.object({
  page: v.optional(wholeNumber(0, 1_000_000, 'Expected a page number of 0 or more'), '0'),
  pageSize: v.optional(wholeNumber(1, MAX_PAGE_SIZE, `Expected a page size from 1 to ${MAX_PAGE_SIZE}`), String(DEFAULT_PAGE_SIZE)),
});
export type PageQuery = v.InferOutput<typeof PageQuerySchema>;

/** The envelope of every paged list response. */
export const pageOf = <TItem extends v.GenericSchema>(item: TItem) =>
  v.object({ items: v.array(item), page: v.number(), pageSize: v.number(), total: v.number() });
export type Page<T> = { items: T[]; page: number; pageSize: number; total: number };
