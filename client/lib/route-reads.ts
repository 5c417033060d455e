import { data, useLoaderData, useLocation, useParams, type Params } from 'react-router';
import type { SWRResponse } from 'swr';
import type { CallArgs, Endpoint, EndpointOutput } from '@contracts/endpoint.contract';
import { AddressNotFound, type PageAddress, type PageRead, type PageReads } from '@pages/reads';
import { load, preloadRead, query, useRead, type Loaded, type Query } from './reads';

/** The client's value of a page read: its key, fetcher and outage policy. */
export function queryOf<E extends Endpoint>(read: PageRead<E> & { outage: 'in-page' }): Query<EndpointOutput<E>> & { outage: 'in-page' };
export function queryOf<E extends Endpoint>(read: PageRead<E>): Query<EndpointOutput<E>>;
export function queryOf<E extends Endpoint>(read: PageRead<E>): Query<EndpointOutput<E>> {
  return { ...query(read.endpoint, ...([read.input] as CallArgs<E>)), outage: read.outage };
}

type Reads = Record<string, PageRead | undefined>;
type Output<R> = R extends PageRead<infer E> ? EndpointOutput<E> : never;
type Optional<R> = undefined extends R ? undefined : never;
type InPage<R> = R extends { outage: 'in-page' } ? true : false;

/** What the loader hands the page: each read's answer (`Loaded` for an in-page read). */
export type LoadedReads<R extends Reads> = { [K in keyof R]: (InPage<R[K]> extends true ? Loaded<Output<R[K]>> : Output<R[K]>) | Optional<R[K]> };

/** An in-page read as the page shows it: the data, or why there is none (the loader's failure until the hook has its own answer). */
export type InPageRead<T> = Pick<SWRResponse<T>, 'data' | 'error' | 'isValidating' | 'mutate'>;

/** What the component shows: each read's live answer (revalidated), falling back to the loader's. */
export type ShownReads<R extends Reads> = { [K in keyof R]: (InPage<R[K]> extends true ? InPageRead<Output<R[K]>> : Output<R[K]>) | Optional<R[K]> };

/** How a page read becomes the client's query (`queryOf`, or one with a fetcher of its own: Kisi's lists read their range header). */
export type ToQuery = (read: PageRead) => Query;

const queriesOf = (declare: PageReads, address: PageAddress, toQuery: ToQuery) => Object.entries(declare(address)).map(([name, read]) => [name, read && toQuery(read)] as const);

function useShown(read: Query | undefined, loaded: unknown) {
  const inPage = read?.outage === 'in-page';
  const fromLoader = (inPage ? loaded : { data: loaded }) as Loaded<unknown> | undefined;
  const shown = useRead(read ?? null, fromLoader?.data);
  if (!inPage) return shown.data;
  const { data, error, isValidating, mutate } = shown;
  return { data, error: error ?? (data === undefined ? fromLoader?.error : undefined), isValidating, mutate };
}

/**
 * A route's reads, declared once (`PageReads`): its loader's wait, its hover preload and its
 * component's hook all come from the declaration. A loader that does more awaits `load(args)` itself.
 */
export function routeReads<R extends Reads>(declare: PageReads<R>, toQuery: ToQuery = (read) => queryOf(read)) {
  const load_ = async ({ params, request }: { params: Params; request: Request }): Promise<LoadedReads<R>> => {
    let queries;
    try {
      queries = queriesOf(declare, { params, search: new URL(request.url).searchParams }, toQuery);
    } catch (error) {
      if (error instanceof AddressNotFound) throw data(error.message, { status: 404, statusText: 'Not Found' });
      throw error;
    }
    return Object.fromEntries(await Promise.all(queries.map(async ([name, read]) => [name, read && (await load(read))]))) as LoadedReads<R>;
  };
  return {
    declare,
    loader: load_,
    handle: {
      preload({ params, url }: { params: Params; url: URL }) {
        try {
          queriesOf(declare, { params, search: url.searchParams }, toQuery).forEach(([, read]) => read && preloadRead(read));
        } catch {
          // an address the page cannot have: its loader says so
        }
      },
    },
    /** The reads as shown now; call it in the route's component (its loader's data must hold them). */
    useReads(): ShownReads<R> {
      const loaded = useLoaderData() as LoadedReads<R>;
      const params = useParams();
      const search = new URLSearchParams(useLocation().search);
      // One hook per declared name, in the declaration's order: the same names for every address.
      // eslint-disable-next-line react-hooks/rules-of-hooks -- the names never change, so neither do the hooks
      return Object.fromEntries(queriesOf(declare, { params, search }, toQuery).map(([name, read]) => [name, useShown(read, loaded[name])])) as ShownReads<R>;
    },
  };
}
