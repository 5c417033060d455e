import { useSetSearchParams } from './search-params';

/** Filters a person types (a name, a day): each key press replaces the history entry rather than adding one. */
const TYPED_FILTERS: ReadonlySet<string> = new Set(['person', 'from', 'to']);

/** Changes filters of a filtered list in one navigation and goes back to page 1 (`''` clears one). */
export function useSetListFilter<Name extends string>(): (changes: Partial<Record<Name, string>>) => void {
  const setSearchParams = useSetSearchParams();
  return (changes) => setSearchParams(changes, { replace: Object.keys(changes).some((name) => TYPED_FILTERS.has(name)) });
}
