import { useLoaderData, useNavigation } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import type { QueryKey } from '@/lib/api-client';
import { loadQuery, preloadQuery, useQuery, type Fetcher } from '@/lib/cache';

/**
 * The route plumbing every paged /kisi list shares: the loader parses the URL's search and reads the
 * page through the cache (a Kisi outage shows inside the page), hover preloads the same key,
 * and the screen gets the search, the live read and whether a navigation to this list is under way.
 */
export function kisiListRoute<S, T>(list: { title: string; path: string; parse: (url: URL) => S; key: (search: S) => QueryKey; fetcher: Fetcher<T> }) {
  async function loader({ url }: LoaderFunctionArgs) {
    const search = list.parse(url);
    return { search, page: await loadQuery(list.key(search), list.fetcher, { outage: 'in-page' }) };
  }
  return {
    loader,
    handle: { title: list.title, preload: ({ url }: { url: URL }) => preloadQuery(list.key(list.parse(url)), list.fetcher) },
    useList() {
      const loaded = useLoaderData<typeof loader>();
      const read = useQuery(list.key(loaded.search), list.fetcher, loaded.page, { outage: 'in-page' });
      const navigation = useNavigation();
      const busy = navigation.state === 'loading' && navigation.location.pathname === list.path;
      return { search: loaded.search, read, busy };
    },
  };
}
