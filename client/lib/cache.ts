import { createElement, useEffect, useLayoutEffect, type ReactNode } from 'react';
import useSWR, { SWRConfig, unstable_serialize, useSWRConfig } from 'swr';
import type { Middleware, ScopedMutator, State, SWRConfiguration, SWRResponse } from 'swr';
import { describeEndpoint, type Address, type EndpointDefinition, type PathParamNames, type QueryValues } from '@contracts/endpoint.contract';
import { useFirstPaintDone } from './after-paint';
import { ApiError, isApiError, isServiceUnavailable, unavailableRetryMs, type QueryKey } from './api-client';

/**
 * The route-data cache (docs/ARCHITECTURE.md "Client conventions"). What a route author uses:
 *
 * - in a loader: `await loadQuery(key, fetcher)`: the cached answer at once, else a fetch (with
 *   retries) whose answer goes into the cache;
 * - in a component: `useQuery(key, fetcher, loaderData)`: shows the cached answer and revalidates it
 *   (stale time 0), so a revisit renders at once and then refreshes;
 * - in a route `handle.preload` (links call it after 50 ms of hover or focus): `preloadQuery(key, fetcher)`;
 * - after a write: `invalidate(endpoint, filter?)`: every cached read of that endpoint is out of date;
 * - with an answer in hand (a write's answer, a live event, a login): `setQueryData(key, data)`.
 *
 * Keys come from `keyFor(endpoint, input)`: `[endpoint, {params, query}]`, so "this endpoint
 * changed" is a filter on the key, never a parse of URLs. SWR does the rest: the cache provider,
 * revalidation and its races, retries of hooks, and `mutate` with a key filter.
 */

export const GC_AFTER_MS = 5 * 60_000;
export const PRELOAD_FRESH_MS = 30_000;
const MAX_RETRIES = 3;

/** A fetcher of a cache key (`fetcherFor(endpoint)`, or one that reshapes the answer). */
export type Fetcher<T> = (key: QueryKey) => Promise<T>;

/** A loader read that keeps an outage inside the page: the data, or the failure to show. */
export type Loaded<T> = { data?: T; error?: unknown };

/** `outage: 'in-page'`: see `loadQuery`. */
export type OutageOption = { outage: 'in-page' };

// The provider's Map: loaders read it synchronously and the collector deletes from it. SWR types
// its entries as State<any, any>, whatever each key holds.
const cache = new Map<string, State<unknown, unknown>>();

/**
 * What SWR does not keep about a key: how many hooks show it (the collector never deletes those),
 * the collection timer, when a loader or preload last fetched it and until when that answer counts
 * as fresh for the first hook to show it, and a count of writes (an answer fetched before a write
 * must not go over it).
 */
type Entry = { key: QueryKey; hooks: number; gc?: ReturnType<typeof setTimeout>; fetchedAt: number; freshUntil: number; writes: number };
const entries = new Map<string, Entry>();

/** Fetches started by loaders and preloads, so a loader joins a preload under way. */
const pending = new Map<string, Promise<unknown>>();

/** The mutate bound to our provider (the global one from 'swr' only reaches SWR's default cache), while <CacheProvider> is mounted. */
let swrMutate: ScopedMutator | undefined;

function entryOf(key: QueryKey): [string, Entry] {
  const k = unstable_serialize(key);
  let entry = entries.get(k);
  if (!entry) entries.set(k, (entry = { key, hooks: 0, fetchedAt: 0, freshUntil: 0, writes: 0 }));
  return [k, entry];
}

/** Unused data goes 5 minutes after its last use: SWR keeps every key forever. */
function used(k: string, entry: Entry) {
  clearTimeout(entry.gc);
  if (entry.hooks === 0) entry.gc = setTimeout(() => forget(k), GC_AFTER_MS);
}

/** Drops a key from the cache and from the bookkeeping. */
function forget(k: string) {
  clearTimeout(entries.get(k)?.gc);
  entries.delete(k);
  cache.delete(k);
}

/**
 * Writes a key's data. A key some hook shows goes through SWR's mutate (the hooks re-render, and a
 * revalidation already on its way is dropped as older); a key nobody shows has nobody to tell.
 */
function write(k: string, entry: Entry, data: unknown) {
  if (entry.hooks > 0 && swrMutate) void swrMutate(entry.key, data, { revalidate: false });
  else cache.set(k, { ...cache.get(k), data, error: undefined });
  used(k, entry);
}

/**
 * One fetch of a key by a loader or a preload (SWR's `preload` keeps its promise until a hook
 * takes it, so a hook mounted later would put that older answer over a live update). The answer
 * goes into the cache unless something was written meanwhile; the first hook to show it within
 * 30 s does not fetch it again, nor does any hook within SWR's dedupe interval (as if SWR had
 * fetched it).
 */
function fetchOnce<T>(k: string, entry: Entry, fetcher: Fetcher<T>): Promise<T> {
  const running = pending.get(k);
  if (running) return running as Promise<T>;
  const writes = entry.writes;
  const request = fetcher(entry.key).then((data) => {
    if (entry.writes === writes && entries.get(k) === entry) {
      write(k, entry, data);
      entry.fetchedAt = Date.now();
      entry.freshUntil = entry.fetchedAt + PRELOAD_FRESH_MS;
    }
    return data;
  });
  pending.set(k, request);
  const done = () => void (pending.get(k) === request && pending.delete(k));
  request.then(done, done);
  return request;
}

/** No retries for 4xx (a 404 must show the not-found screen at once) nor for aborts. */
function shouldRetry(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 408 || error.status === 429;
  return !(error instanceof DOMException && error.name === 'AbortError');
}

/** 1 s, 2 s, 4 s … capped at 30 s. `attempt` counts from 0. */
const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

/**
 * The loader read. A cached answer comes back at once (the page's `useQuery` revalidates it);
 * otherwise the key is fetched, joining a preload under way, retried 3 times with backoff (SWR
 * retries only its hooks' requests), and the answer goes into the cache.
 *
 * `{ outage: 'in-page' }` is for an outside service (Kisi, the samples' upstreams): one try, and
 * a failure comes back as `{ error }` for the page to show at once, instead of holding the
 * navigation through the backoff (the page's hook keeps retrying). A 401, 403 or 404 still throws,
 * to the login, the 403 and the not-found screens.
 */
export async function loadQuery<T>(key: QueryKey, fetcher: Fetcher<T>): Promise<T>;
export async function loadQuery<T>(key: QueryKey, fetcher: Fetcher<T>, options: OutageOption): Promise<Loaded<T>>;
export async function loadQuery<T>(key: QueryKey, fetcher: Fetcher<T>, options?: OutageOption): Promise<T | Loaded<T>> {
  const [k, entry] = entryOf(key);
  used(k, entry);
  const hit = cache.get(k)?.data as T | undefined; // what this key's fetcher put there
  if (options) {
    if (hit !== undefined) return { data: hit };
    try {
      return { data: await fetchOnce(k, entry, fetcher) };
    } catch (error) {
      if (isApiError(error, 401) || isApiError(error, 403) || isApiError(error, 404)) throw error;
      return { error };
    }
  }
  if (hit !== undefined) return hit;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(k, entry, fetcher);
    } catch (error) {
      // A 503 says "briefly unavailable": the page says so at once and tries again after its Retry-After, rather than holding the navigation.
      if (attempt >= MAX_RETRIES || !shouldRetry(error) || isServiceUnavailable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelay(attempt)));
    }
  }
}

/**
 * A fresh answer from the server, whatever the cache holds (joining a fetch of the key under way):
 * one try, and the answer goes into the cache as a loader's does, so the first hook to show it
 * within 30 s takes it instead of asking again. For a check that must not trust the cache (who is
 * signed in, before a protected page's loaders run).
 */
export function fetchQuery<T>(key: QueryKey, fetcher: Fetcher<T>): Promise<T> {
  const [k, entry] = entryOf(key);
  used(k, entry);
  return fetchOnce(k, entry, fetcher);
}

/**
 * Warms a key before a navigation (a route's `handle.preload`): one try, and only when nothing is
 * cached or on its way. A failure is left to the loader, which retries.
 */
export function preloadQuery<T>(key: QueryKey, fetcher: Fetcher<T>): void {
  const [k, entry] = entryOf(key);
  used(k, entry);
  if (cache.get(k)?.data === undefined) fetchOnce(k, entry, fetcher).catch(() => undefined);
}

/**
 * `afterFirstPaint`: on the app's first page, a read the cache cannot answer waits until that page
 * has painted (the hook says `isLoading` meanwhile); on any later page it is asked at once. For what a first screen can show
 * a moment later: asked as the page renders, the request goes out with its first paint and holds it back.
 */
type QueryOptions = Pick<SWRConfiguration, 'refreshInterval'> & { afterFirstPaint?: boolean };

/**
 * The component read: the cached answer (or `loaderData` until the cache has one), revalidated
 * when the component mounts and on focus and reconnect, and whenever the key is invalidated.
 * With the loader's `{ outage: 'in-page' }`, pass its `Loaded` result: `error` is then the
 * loader's failure until the hook has data or its own error.
 */
export function useQuery<T>(key: QueryKey, fetcher: Fetcher<T>, loaderData?: T, options?: QueryOptions): SWRResponse<T>;
export function useQuery<T>(key: QueryKey, fetcher: Fetcher<T>, loaded: Loaded<T>, options: QueryOptions & OutageOption): SWRResponse<T>;
export function useQuery<T>(key: QueryKey, fetcher: Fetcher<T>, loaded?: T | Loaded<T>, options: QueryOptions & Partial<OutageOption> = {}): SWRResponse<T> {
  const { outage, afterFirstPaint, ...config } = options;
  const painted = useFirstPaintDone(afterFirstPaint === true);
  // What the cache holds already costs no request: shown at once.
  const waiting = afterFirstPaint === true && !painted && cache.get(unstable_serialize(key))?.data === undefined;
  const fromLoader = outage ? (loaded as Loaded<T> | undefined) : { data: loaded as T | undefined };
  const read = useSWR<T>(waiting ? null : key, fetcher, { ...config, fallbackData: fromLoader?.data });
  if (!outage && !waiting) return read;
  const { data, error, isValidating, isLoading, mutate } = read;
  return { data, error: error ?? (data === undefined ? fromLoader?.error : undefined), isValidating, isLoading: isLoading || waiting, mutate };
}

/** Which reads of an endpoint: those whose params and query have these values (all when empty). */
export type ReadFilter<E extends EndpointDefinition> = {
  params?: Partial<Record<PathParamNames<E['path']>, string | number>>;
  query?: Partial<QueryValues<E['query']>>;
};

const isQueryKey = (key: unknown): key is QueryKey => Array.isArray(key) && typeof key[0] === 'string';
const sameValues = (values: Readonly<Record<string, string>>, wanted: object = {}) =>
  Object.entries(wanted).every(([name, value]) => value === undefined || values[name] === String(value));

/**
 * "This endpoint's data changed" (after a write, or news a page cannot fold in itself): its reads
 * on screen read again; the others are dropped, so the next loader fetches instead of showing the
 * old answer. `gone` (after a delete): nothing reads them again, the ones on screen show their
 * loader's data until the page goes. Resolves once the reads on screen have answered.
 */
export async function invalidate<E extends EndpointDefinition>(endpoint: E | Address, filter: ReadFilter<E> = {}, { gone = false } = {}): Promise<void> {
  const id = describeEndpoint(endpoint);
  const matches = (key: unknown) => isQueryKey(key) && key[0] === id && sameValues(key[1].params, filter.params) && sameValues(key[1].query, filter.query);
  const hidden: string[] = [];
  for (const [k, entry] of entries) {
    if (!matches(entry.key)) continue;
    entry.writes++;
    entry.fetchedAt = entry.freshUntil = 0;
    pending.delete(k);
    if (entry.hooks === 0) hidden.push(k);
  }
  // SWR's mutate with a key filter tells the hooks, and drops its 2 s dedupe mark of each key, so a
  // hook mounting on a dropped key later fetches anew instead of waiting on a finished request.
  const told = gone ? swrMutate?.(matches, undefined, { revalidate: false }) : swrMutate?.(matches);
  hidden.forEach(forget);
  await told;
}

/**
 * Puts known data in the cache (a write's answer, a live event, who signed in): every hook of the
 * key shows it, and no revalidation or preload under way puts an older answer back. `next` may
 * be a function of the cached data; when it returns undefined nothing is written.
 */
export function setQueryData<T>(key: QueryKey, next: T | ((current: T | undefined) => T | undefined)): void {
  const [k, entry] = entryOf(key);
  entry.writes++;
  const data = typeof next === 'function' ? (next as (current: T | undefined) => T | undefined)(cache.get(k)?.data as T | undefined) : next;
  if (data !== undefined) write(k, entry, data);
  else used(k, entry);
}

/** What the cache holds for a key now, without fetching (undefined: nothing). For folding news into cached data. */
export const cachedData = (key: QueryKey): unknown => cache.get(unstable_serialize(key))?.data;

/**
 * SWR middleware, the hooks' side of the bookkeeping: counts the hooks that show a key (the
 * collector spares those), and lets a hook take an answer a loader or preload fetched without
 * fetching it again, while it is fresh (SWR's dedupe knows only its own requests).
 */
const trackHooks: Middleware = (useSWRNext) => (key, fetcher, config) => {
  const k = isQueryKey(key) ? unstable_serialize(key) : '';
  useEffect(() => {
    if (!isQueryKey(key)) return;
    const [, shown] = entryOf(key);
    shown.hooks++;
    shown.freshUntil = 0;
    clearTimeout(shown.gc);
    return () => {
      shown.hooks--;
      used(k, shown);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `k` is `key` serialized: a new array of the same key is the same key
  }, [k]);
  const entry = entries.get(k);
  const now = Date.now();
  const fresh = entry !== undefined && (now < entry.freshUntil || now < entry.fetchedAt + (config.dedupingInterval ?? 0));
  return useSWRNext(key, fetcher, fresh ? { ...config, revalidateIfStale: false } : config);
};

const swrConfig: SWRConfiguration = {
  provider: () => cache,
  use: [trackHooks],
  // The same policy as loaders: 3 retries, 1 s doubling, none for 4xx.
  // A 503 is retried after its Retry-After for as long as it lasts: the page recovers by itself when the service is back.
  onErrorRetry: (error, _key, _config, revalidate, { retryCount }) => {
    if (isServiceUnavailable(error)) return void setTimeout(() => void revalidate({ retryCount }), unavailableRetryMs(error));
    if (retryCount > MAX_RETRIES || !shouldRetry(error)) return;
    setTimeout(() => void revalidate({ retryCount }), retryDelay(retryCount - 1));
  },
};

/** Hands the mutate bound to our provider to the code outside React (loaders, live events), while the provider is mounted. */
function MutateBridge() {
  const { mutate } = useSWRConfig();
  useLayoutEffect(() => {
    swrMutate = mutate;
    return () => void (swrMutate = undefined);
  }, [mutate]);
  return null;
}

/** The cache for everything below it (the app's providers.tsx). */
export function CacheProvider({ children }: { children?: ReactNode }) {
  return createElement(SWRConfig, { value: swrConfig }, createElement(MutateBridge), children);
}

/** For tests: forget everything. */
export function resetCache() {
  for (const k of [...entries.keys()]) forget(k);
  cache.clear();
  pending.clear();
}
