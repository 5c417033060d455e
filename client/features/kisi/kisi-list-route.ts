import { useLoaderData, useNavigation } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { warm } from '@/lib/cache';
import { loadKisi, useKisi } from '@/lib/kisi';

/**
 * The route plumbing every paged /kisi list shares: the loader parses the URL's search and reads the
 * page once through the cache (a Kisi outage shows inside the page), hover preloads the same key,
 * and the screen gets the search, the live read and whether a navigation to this list is under way.
 */
export function kisiListRoute<S, T>(list: {
  title: string;
  path: string;
  parse: (url: URL) => S;
  key: (search: S) => string;
  fetcher: (key: string) => Promise<T>;
}) {
  async function loader({ url }: LoaderFunctionArgs) {
    const search = list.parse(url);
    return { search, ...(await loadKisi(list.key(search), list.fetcher)) };
  }
  return {
    loader,
    handle: { title: list.title, preload: ({ url }: { url: URL }) => warm(list.key(list.parse(url)), list.fetcher) },
    useList() {
      const loaded = useLoaderData<typeof loader>();
      const read = useKisi(list.key(loaded.search), list.fetcher, loaded);
      const navigation = useNavigation();
      const busy = navigation.state === 'loading' && navigation.location.pathname === list.path;
      return { search: loaded.search, read, busy };
    },
  };
}
