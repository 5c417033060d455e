import { createElement, type ReactNode } from 'react';
import { LRUCache } from 'lru-cache';
import useSWR, { SWRConfig, mutate as mutateDefaultCache, preload, unstable_serialize } from 'swr';
import type { Cache, ScopedMutator, State, SWRConfiguration, SWRResponse } from 'swr';
import { initCache } from 'swr/_internal';
import { describeEndpoint, type CallArgs, type Endpoint, type EndpointDefinition, type EndpointOutput, type PathParamNames, type QueryValues } from '@contracts/endpoint.contract';
import { ApiError, fetcherFor, isApiError, isServiceUnavailable, keyFor, unavailableRetryMs, type QueryKey } from './api-client';

/**
 * One read is one value: its cache key (the endpoint and its input), its fetcher, and whether an
 * outage of an outside service (Kisi, the samples' upstreams) shows inside the page. Loaders wait on
 * it (`load`), links warm it (`preloadRead`), components show it (`useRead`), all through SWR: its
 * `preload` carries a loader's or a hover's request to the hook, `mutate` with a key filter marks
 * reads out of date, and a bounded LRU is its cache.
 */
export type Query<T = unknown> = { readonly key: QueryKey; readonly fetcher: (key: QueryKey) => Promise<T>; readonly outage?: 'in-page' };

export const query = <E extends Endpoint>(endpoint: E, ...[input]: CallArgs<E>): Query<EndpointOutput<E>> => ({
  key: keyFor(endpoint, ...([input] as CallArgs<E>)),
  fetcher: fetcherFor(endpoint),
});

/** A loader's read that keeps an outage inside the page: the data, or the failure to show. */
export type Loaded<T> = { data?: T; error?: unknown };

export const PRELOAD_FRESH_MS = 30_000;
const MAX_RETRIES = 3;

const lru = new LRUCache<string, State>({ max: 1000 });
// Keys as a list: SWR reads each key while it walks them, and a read moves an LRU's key to the front.
const provider: Cache = { keys: () => [...lru.keys()].values(), get: (key) => lru.get(key), set: (key, value) => void lru.set(key, value), delete: (key) => void lru.delete(key) };
// Bound here rather than by <SWRConfig>, so loaders and live events reach the same cache outside React.
const [cache, mutate, , , unload] = initCache(provider)! as [Cache, ScopedMutator, unknown, unknown, (options: { revalidate: boolean }) => void];

const serialize = (key: QueryKey) => unstable_serialize(key);

/** What the cache holds for a key now, without fetching (undefined: nothing). */
export const cachedData = (key: QueryKey): unknown => cache.get(serialize(key))?.data;

/** When each key's waiting preload started: one older than 30 s is asked again. */
const preloadedAt = new LRUCache<string, { key: QueryKey; at: number }>({ max: 1000 });

/** SWR keeps a preload until a hook takes it, a failed one too; its default `mutate` of the key drops it. */
const forgetPreload = (key: QueryKey) => {
  preloadedAt.delete(serialize(key));
  void mutateDefaultCache(key);
};

/** A preload older than 30 s is not what the page's hook should take: it asks afresh. */
const forgetStalePreload = (key: QueryKey) => {
  const started = preloadedAt.get(serialize(key));
  if (started && Date.now() - started.at > PRELOAD_FRESH_MS) forgetPreload(key);
};

/**
 * SWR's preload of a key; its answer also goes into the cache (unless news got there first), so a live
 * event or a write's answer has something to fold into before the page's hook takes the preload.
 */
async function preloadOnce<T>({ key, fetcher }: Query<T>): Promise<T> {
  const k = serialize(key);
  if (!preloadedAt.has(k)) preloadedAt.set(k, { key, at: Date.now() });
  const data = (await preload(key, fetcher)) as T;
  if (cachedData(key) === undefined) void mutate(key, data, { revalidate: false });
  return data;
}

/** No retries for 4xx (a 404 must show the not-found screen at once) nor for aborts. */
function shouldRetry(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 408 || error.status === 429;
  return !(error instanceof DOMException && error.name === 'AbortError');
}

/** 1 s, 2 s, 4 s … capped at 30 s. `attempt` counts from 0. */
const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

/**
 * A loader's wait: the cached answer at once (the page's hook revalidates it), else the request (a
 * hover's, if one is on its way), retried 3 times with backoff; its answer reaches the hook through
 * SWR's preload. A 503 says "briefly unavailable": the page says so at once rather than holding the
 * navigation. An `in-page` read tries once and hands a failure back as `{ error }`; a 401, 403 or 404
 * still throws, to the login, 403 and not-found screens.
 */
export async function load<T>(read: Query<T> & { outage: 'in-page' }): Promise<Loaded<T>>;
export async function load<T>(read: Query<T>): Promise<T>;
export async function load<T>(read: Query<T>): Promise<T | Loaded<T>> {
  forgetStalePreload(read.key);
  const hit = cachedData(read.key) as T | undefined;
  if (read.outage) {
    if (hit !== undefined) return { data: hit };
    try {
      return { data: await preloadOnce(read) };
    } catch (error) {
      forgetPreload(read.key);
      if (isApiError(error, 401) || isApiError(error, 403) || isApiError(error, 404)) throw error;
      return { error };
    }
  }
  if (hit !== undefined) return hit;
  for (let attempt = 0; ; attempt++) {
    try {
      return await preloadOnce(read);
    } catch (error) {
      forgetPreload(read.key);
      if (attempt >= MAX_RETRIES || !shouldRetry(error) || isServiceUnavailable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelay(attempt)));
    }
  }
}

/** Warms a read before a navigation (a link's hover): one try, only when nothing is cached; a failure is left to the loader. */
export function preloadRead(read: Query): void {
  if (cachedData(read.key) === undefined) preloadOnce(read).catch(() => forgetPreload(read.key));
}

/**
 * A component's read: the cached answer, else what its loader had (`loaded`), revalidated on mount,
 * focus and reconnect, and whenever the key is marked out of date. `null`: no read (nothing to ask yet).
 */
export function useRead<T>(read: Query<T>, loaded: T, options?: Pick<SWRConfiguration, 'refreshInterval'>): SWRResponse<T, unknown, { fallbackData: T }>;
export function useRead<T>(read: Query<T> | null, loaded?: T, options?: Pick<SWRConfiguration, 'refreshInterval'>): SWRResponse<T>;
export function useRead<T>(read: Query<T> | null, loaded?: T, options: Pick<SWRConfiguration, 'refreshInterval'> = {}): SWRResponse<T> {
  return useSWR<T>(read?.key ?? null, read?.fetcher ?? null, { ...options, fallbackData: loaded });
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
 * "This endpoint's data changed" (after a write, or news a page does not fold in itself): its reads
 * on screen read again, the others on their next visit. `gone` (after a delete): dropped, not read
 * again. Resolves once the reads on screen have answered.
 */
export async function invalidate<E extends EndpointDefinition>(endpoint: E, filter: ReadFilter<E> = {}, options: { gone?: boolean } = {}): Promise<void> {
  await invalidateNamed(describeEndpoint(endpoint), filter, options);
}

/** `invalidate` of an endpoint by its name (`describeEndpoint`), as another tab tells it. */
export async function invalidateNamed(id: string, filter: ReadFilter<EndpointDefinition> = {}, { gone = false } = {}): Promise<void> {
  const matches = (key: unknown) => isQueryKey(key) && key[0] === id && sameValues(key[1].params, filter.params) && sameValues(key[1].query, filter.query);
  for (const { key } of [...preloadedAt.values()]) if (matches(key)) forgetPreload(key);
  await (gone ? mutate(matches, undefined, { revalidate: false }) : mutate(matches));
}

/**
 * Puts known data in the cache (a write's answer, a live event, who signed in): every hook of the key
 * shows it. `next` may be a function of the cached data; when it returns undefined nothing changes.
 */
export function setQueryData<T>(key: QueryKey, next: T | ((current: T | undefined) => T | undefined)): void {
  // A preload fetched before this news must not be what the page's hook takes next.
  forgetPreload(key);
  const data = typeof next === 'function' ? (next as (current: T | undefined) => T | undefined)(cachedData(key) as T | undefined) : next;
  if (data !== undefined) void mutate(key, data, { revalidate: false });
}

const swrConfig: SWRConfiguration = {
  provider: () => cache,
  // The loaders' policy: 3 retries, 1 s doubling, none for 4xx; a 503 is asked again after its Retry-After for as long as it lasts.
  onErrorRetry: (error, _key, _config, revalidate, { retryCount }) => {
    if (isServiceUnavailable(error)) return void setTimeout(() => void revalidate({ retryCount }), unavailableRetryMs(error));
    if (retryCount > MAX_RETRIES || !shouldRetry(error)) return;
    setTimeout(() => void revalidate({ retryCount }), retryDelay(retryCount - 1));
  },
};

/** The cache for everything below it (the app's providers.tsx). */
export const CacheProvider = ({ children }: { children?: ReactNode }) => createElement(SWRConfig, { value: swrConfig }, children);

/** For tests: forget everything. */
export function resetCache() {
  for (const { key } of preloadedAt.values()) void mutateDefaultCache(key);
  preloadedAt.clear();
  // SWR's own marks of requests made (its 2 s dedupe) go too: a test's first hook must ask.
  unload({ revalidate: false });
  lru.clear();
}
