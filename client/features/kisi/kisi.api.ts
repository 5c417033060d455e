import type { Endpoint } from '@contracts/endpoint.contract';
import type { PageRead, PageReads } from '@pages/reads';
import type { Query } from '@/lib/reads';
import { queryOf, routeReads, type InPageRead, type ToQuery } from '@/lib/route-reads';
import { kisiPageFetcher, type KisiOutput } from '@/lib/kisi';

/**
 * The /kisi pages' own part of the data layer: how their reads (pages/kisi.reads.ts) are asked and
 * their URLs. The calls, writes and error reading are the one Kisi module's (`@/lib/kisi`).
 */

/** A page's own URL with its search params (page 1 and an empty query are left out). */
export function pageHref(path: string, search: { page: number; query?: string }): string {
  const params = new URLSearchParams();
  if (search.query) params.set('query', search.query);
  if (search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * A Kisi read as the client asks it: a list (its endpoint pages by `X-Collection-Range`) keeps the
 * header's numbers beside the items, as a `KisiPage`; any other read is Kisi's answer as it is.
 */
export function kisiQueryOf<E extends Endpoint>(read: PageRead<E>): Query<KisiOutput<E>> {
  const plain = queryOf(read);
  return (read.endpoint.paging === 'collection-range' ? { ...plain, fetcher: kisiPageFetcher(read.endpoint) } : plain) as Query<KisiOutput<E>>;
}

type Reads = Record<string, PageRead | undefined>;
/** Each read as a Kisi page shows it (every Kisi read is in-page: Kisi is an outside service). */
type KisiShownReads<R extends Reads> = { [K in keyof R]: R[K] extends PageRead<infer E> ? InPageRead<KisiOutput<E>> : undefined };

/**
 * `routeReads` for a /kisi page: the same loader, hover and hook, with Kisi's lists read as pages;
 * `useReads` says so in its types (the declarations name Kisi's bare arrays).
 */
export function kisiRouteReads<R extends Reads>(declare: PageReads<R>) {
  const reads = routeReads(declare, kisiQueryOf as ToQuery);
  return { ...reads, useReads: reads.useReads as () => KisiShownReads<R> };
}
