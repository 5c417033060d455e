import { useLocation, useNavigation, useSearchParams } from 'react-router';
import * as v from 'valibot';

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

/**
 * Where a navigation still loading goes, seen from the page shown: `leaving` when it is to another
 * page, `pendingSearch` the search it will show when it stays on this one.
 */
export function usePendingNavigation(): { leaving: boolean; pendingSearch: string | undefined } {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  if (navigation.state === 'idle') return { leaving: false, pendingSearch: undefined };
  const samePage = navigation.location.pathname === pathname;
  return { leaving: !samePage, pendingSearch: samePage ? navigation.location.search : undefined };
}

/**
 * Changes search params of the current URL in one navigation (an empty value removes its param, a
 * param left out stays) and goes back to page 1, keeping the scroll position. `replace` for typing
 * in a search box: each keystroke is not history. A change made while the previous one still loads
 * builds on that one, not on the URL still shown: two quick filter changes keep both.
 */
export function useSetSearchParams() {
  const [, setSearchParams] = useSearchParams();
  const { pendingSearch } = usePendingNavigation();
  return (changes: Readonly<Partial<Record<string, string>>>, { replace = false }: { replace?: boolean } = {}) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(pendingSearch ?? params);
        for (const [name, value] of Object.entries(changes)) {
          if (value) next.set(name, value);
          else if (value === '') next.delete(name);
        }
        next.delete('page');
        return next;
      },
      { replace, preventScrollReset: true },
    );
}

/** Changes one search param (see `useSetSearchParams`). */
export function useSetSearchParam() {
  const setSearchParams = useSetSearchParams();
  return (name: string, value: string, options?: { replace?: boolean }) => setSearchParams({ [name]: value }, options);
}
