import * as v from 'valibot';
import { CURSOR_TEXT } from '../bff/contracts/common.contract';

/**
 * Search-param schemas (docs/ARCHITECTURE.md "Client conventions"): every key has a fallback, so bad input silently becomes the
 * default and `parseSearch` never throws on a URL.
 */
const digits = v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.toNumber(), v.integer());

/** A 1-based URL page: positive integer, default 1. */
export const pageParam = v.fallback(v.pipe(digits, v.minValue(1)), 1);
/** A 0-based page (the Pokémon list keeps 0-based pages in the URL): default 0. */
export const zeroBasedPageParam = v.fallback(v.pipe(digits, v.minValue(0)), 0);
/** A free-text param (flash, redirect, query): default ''. */
export const textParam = v.fallback(v.string(), '');

/**
 * `?next=` / `?previous=` of a list paged by cursor (docs/ARCHITECTURE.md "API conventions"): the
 * position its Next / Previous link gave, kept in the address so the page can be shared and the back
 * button returns to it. Opaque here; the API says when one is not its own.
 */
const cursorParam = v.fallback(v.pipe(v.string(), v.regex(CURSOR_TEXT)), '');
export const cursorParams = { next: cursorParam, previous: cursorParam };
export type CursorSearch = { page: number; next: string; previous: string };
/** A list's page in its address: the page unless 1 and, with it, the cursor its link gave. */
export function setPageParams(params: URLSearchParams, { page, next, previous }: { page: number; next?: string; previous?: string }): void {
  if (page <= 1) return;
  params.set('page', String(page));
  if (next) params.set('next', next);
  else if (previous) params.set('previous', previous);
}

/** A list's page for the API: the 0-based page and the cursor the link carried. */
export const toApiCursorPage = ({ page, next, previous }: CursorSearch) => ({ page: toApiPage(page), next: next || undefined, previous: previous || undefined });

export const PageSearchSchema = v.object({ page: pageParam });
export type PageSearch = v.InferOutput<typeof PageSearchSchema>;

export const ZeroBasedPageSearchSchema = v.object({ page: zeroBasedPageParam });

export const LoginSearchSchema = v.object({ flash: textParam, redirect: textParam });
export type LoginSearch = v.InferOutput<typeof LoginSearchSchema>;

export const QuerySearchSchema = v.object({ query: textParam });

type FallbackObject = v.ObjectSchema<Record<string, v.GenericSchema>, undefined>;

/** Parses a URL's search params with a schema whose keys all have fallbacks. */
export function parseSearch<S extends FallbackObject>(schema: S, from: URL | URLSearchParams | string): v.InferOutput<S> {
  const params =
    from instanceof URL ? from.searchParams : from instanceof URLSearchParams ? from : new URLSearchParams(from);
  return v.parse(schema, Object.fromEntries(params));
}

/** The one page helper: URL pages are 1-based, API pages 0-based (docs/ARCHITECTURE.md "API conventions"). */
export const toApiPage = (urlPage: number) => Math.max(0, urlPage - 1);
export const toUrlPage = (apiPage: number) => apiPage + 1;
/** How many pages a list has (at least 1, so "page 1 of 1" reads right for an empty list). */
export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / Math.max(1, pageSize)));

// ---- lists filtered by a day range and a page size --------------------------------------------

/**
 * What filtered lists with a day range and a page size share (door events, the audit trail): the
 * params, turning days into the API's instants, the params a link had that the page could not use,
 * and the page's own URL for a search.
 */

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = PAGE_SIZES[0];

/** `?pageSize=`: one of the offered sizes, else the default. */
export const pageSizeParam = v.fallback(v.pipe(v.string(), v.transform(Number), v.picklist(PAGE_SIZES)), DEFAULT_PAGE_SIZE);

/** Local midnight at the start of `day` (YYYY-MM-DD), `plusDays` later; DST-safe (the calendar moves, not 24 h). */
function startOf(day: string, plusDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number);
  const date = new Date(2000, 0, 1);
  date.setFullYear(y!, m! - 1, d! + plusDays);
  date.setHours(0, 0, 0, 0);
  return date;
}
const dayOf = (date: Date) => `${String(date.getFullYear()).padStart(4, '0')}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** `?from=` / `?to=`: a calendar day as `<input type="date">` writes it, and a real one (no 30 February); else none. */
export const dayParam = v.fallback(
  v.pipe(
    v.string(),
    v.isoDate(),
    v.check((day) => dayOf(startOf(day)) === day),
  ),
  '',
);

/** The local day of now (YYYY-MM-DD). */
export const today = () => dayOf(new Date());

/**
 * A day range as the API's instants: days become UTC instants at the browser's local midnights (the
 * desk's browser is at the venue, so its day is the venue's day); the last day is inclusive, so the
 * range ends before the midnight after it.
 */
export const dayRange = ({ from, to }: { from: string; to: string }) => ({
  since: from ? startOf(from).toISOString() : undefined,
  before: to ? startOf(to, 1).toISOString() : undefined,
});

const DAY_MS = 86_400_000;
/** How many days a range of `dayParam` days holds, both ends included (they parse as UTC midnights: whole days). */
export const daysInRange = ({ from, to }: { from: string; to: string }) => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
/** The day `days` after `day` (before, for a negative count). */
export const dayAfter = (day: string, days: number) => new Date(Date.parse(day) + days * DAY_MS).toISOString().slice(0, 10);

/** A param of the URL the page could not use, said back to the person (a hand-typed or old link). */
export type IgnoredParam = { name: string; value: string; reason: string };

export const DAY_REASON = 'a day is written YYYY-MM-DD';
export const PAGE_SIZE_REASON = `a page size is ${PAGE_SIZES.join(', ')}`;

/**
 * The params of `params` whose value the parsed `search` did not keep, each with its reason. Bad
 * values fall back as on every list page (never an error screen for a URL), but a filter that
 * silently vanished would show a list the link's sender did not mean: the page names each one. A
 * range whose last day is before its first keeps the first (and `search.to` becomes '').
 */
export function ignoredParams<S extends { from: string; to: string }>(params: URLSearchParams, search: S, reasons: Partial<Record<keyof S & string, string>>): IgnoredParam[] {
  const ignored: IgnoredParam[] = [];
  for (const [name, reason] of Object.entries(reasons) as Array<[keyof S & string, string]>) {
    const raw = params.get(name)?.trim();
    if (raw && raw !== String(search[name])) ignored.push({ name, value: raw, reason });
  }
  if (search.from && search.to && search.to < search.from) {
    ignored.push({ name: 'to', value: search.to, reason: `the last day is before the first (${search.from})` });
    search.to = '';
  }
  return ignored;
}

/**
 * A list page's URL for a search: the filters that are set, the page size unless the default, the
 * page unless 1 and, paged by cursor, the cursor its link gave (`next` or `previous`).
 */
export function filteredHref<S extends { page: number; pageSize: number; next?: string; previous?: string }>(path: string, search: S, filterNames: readonly (keyof S & string)[]): string {
  const params = new URLSearchParams();
  for (const name of filterNames) if (search[name]) params.set(name, String(search[name]));
  if (search.pageSize !== DEFAULT_PAGE_SIZE) params.set('pageSize', String(search.pageSize));
  setPageParams(params, search);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

