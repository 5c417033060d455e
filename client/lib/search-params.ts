import { useLocation, useNavigation, useSearchParams } from 'react-router';

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
 * param left out stays) and goes back to page 1 (no cursor), keeping the scroll position. `replace` for typing
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
        // A changed filter is another list: its first page, without the old one's cursor.
        for (const name of ['page', 'next', 'previous']) next.delete(name);
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

/** The current address's search, parsed (a page's own `parse…Search`, the one its reads are declared with). */
export const useSearch = <T>(parse: (search: URLSearchParams) => T): T => parse(new URLSearchParams(useLocation().search));
