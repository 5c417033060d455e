import { useEffect } from 'react';
import useSWR, { mutate as defaultMutate, preload, unstable_serialize, useSWRConfig } from 'swr';
import type { Key, Middleware, ScopedMutator, SWRConfiguration, State } from 'swr';
import { urlMatcher, type EndpointDefinition } from '@contracts/endpoint.contract';
import { ApiError, isApiError } from './api-client';

/**
 * SWR is the route-data cache (docs/ARCHITECTURE.md "Client conventions"): loaders read through it, so a
 * revisit renders at once from cache and the hook revalidates in the background (stale time 0).
 */
export const GC_AFTER_MS = 5 * 60_000;
export const GC_SWEEP_MS = 60_000;
export const PRELOAD_FRESH_MS = 30_000;
export const MAX_RETRIES = 3;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- SWR stores any data shape
export const swrCache = new Map<string, State<any, any>>();

const observers = new Map<string, number>();
const inactiveSince = new Map<string, number>();
const preloadedAt = new Map<string, { at: number; failed: boolean }>();

const keyOf = (key: Key): string => unstable_serialize(key);

/** Marks a key as just used, so it is not collected between a loader and its component mounting. */
function touch(k: string, now = Date.now()) {
  if (!observers.get(k)) inactiveSince.set(k, now);
}

/** SWR middleware counting the mounted hooks of each key (the GC never deletes a mounted key). */
export const trackObservers: Middleware = (useSWRNext) => (key, fetcher, config) => {
  let k = '';
  try {
    k = key == null ? '' : keyOf(key as Key);
  } catch {
    k = '';
  }
  useEffect(() => {
    if (!k) return;
    observers.set(k, (observers.get(k) ?? 0) + 1);
    inactiveSince.delete(k);
    return () => {
      const left = (observers.get(k) ?? 1) - 1;
      if (left > 0) observers.set(k, left);
      else {
        observers.delete(k);
        inactiveSince.set(k, Date.now());
      }
    };
  }, [k]);
  return useSWRNext(key, fetcher, config);
};

/** Deletes entries no hook has used for 5 minutes. Returns the keys it removed. */
export function collectGarbage(now = Date.now()): string[] {
  const removed: string[] = [];
  for (const k of swrCache.keys()) if (!observers.get(k) && !inactiveSince.has(k)) inactiveSince.set(k, now);
  for (const [k, since] of inactiveSince) {
    if (observers.get(k)) continue;
    if (now - since >= GC_AFTER_MS) {
      swrCache.delete(k);
      inactiveSince.delete(k);
      removed.push(k);
    }
  }
  return removed;
}

let gcTimer: ReturnType<typeof setInterval> | undefined;
export function startCacheGc() {
  if (gcTimer === undefined) gcTimer = setInterval(() => collectGarbage(), GC_SWEEP_MS);
}

/** No retries for 4xx (a 404 must show the not-found screen at once) nor for aborts. */
export function shouldRetry(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 408 || error.status === 429;
  if (error instanceof DOMException && error.name === 'AbortError') return false;
  return true;
}

/** 1 s, 2 s, 4 s … capped at 30 s (TanStack Query's default). `attempt` counts from 0. */
export const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The loader-side retry policy; hooks get the same one from `onErrorRetry`. */
export async function withRetry<T>(fn: () => Promise<T>, retries = MAX_RETRIES): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= retries || !shouldRetry(error)) throw error;
      await sleep(retryDelay(attempt));
    }
  }
}

/** Forgets SWR's preload promise of a key: only a data-less global mutate clears it (SWR 2.5). */
function dropPreload(key: Key) {
  void defaultMutate(key);
}

/**
 * Forgets the loader's preload of a key that is about to be written. A page mounted with its loader's
 * data revalidates one frame later, and that first revalidation hands out the preload: a write made
 * in between (an answer to a click, a live event) would be put back to the older answer.
 */
export function forgetPreload(key: Key): void {
  const k = keyOf(key);
  if (!preloadedAt.delete(k)) return;
  dropPreload(key);
}

/**
 * Warms `key` with SWR's `preload`. A preload is reused for 30 s; an older or rejected one is
 * dropped first (SWR itself would keep returning it forever).
 */
export function prefetch<T>(key: Key, fetcher: () => Promise<T>, now = Date.now()): Promise<T> {
  const k = keyOf(key);
  const entry = preloadedAt.get(k);
  if (entry && (entry.failed || now - entry.at > PRELOAD_FRESH_MS)) {
    dropPreload(key);
    preloadedAt.delete(k);
  }
  if (!preloadedAt.has(k)) preloadedAt.set(k, { at: now, failed: false });
  const promise = preload(key, fetcher) as Promise<T>;
  promise.catch(() => {
    const current = preloadedAt.get(k);
    if (current) current.failed = true;
  });
  touch(k, now);
  return promise;
}

/**
 * Hover preloading: only when nothing is cached yet (a cached key renders at once anyway), and one
 * try. The loader that follows retries itself; a preload that retried would hold a navigation that
 * joins it (`loadQueryOnce`, an outside service that is down) for the whole backoff.
 */
export function warm<K extends Key, T>(key: K, fetcher: (key: K) => Promise<T>): void {
  if (swrCache.get(keyOf(key))?.data !== undefined) return;
  prefetch(key, () => fetcher(key)).catch(() => undefined);
}

/**
 * The loader helper: a cache hit returns at once; a miss fetches (joining a preload under way) and
 * retries with backoff, each retry a fresh request (a failed preload is dropped).
 */
export function loadQuery<K extends Key, T>(key: K, fetcher: (key: K) => Promise<T>): T | Promise<T> {
  const k = keyOf(key);
  const hit = swrCache.get(k)?.data as T | undefined;
  touch(k);
  if (hit !== undefined) return hit;
  return withRetry(() => prefetch(key, () => fetcher(key)));
}

/** The component side of `loadQuery`: renders the loader's data, then keeps it fresh. */
export function useQuery<K extends Key, T>(key: K, fetcher: (key: K) => Promise<T>, loaderData: T) {
  return useSWR<T>(key, fetcher as (key: unknown) => Promise<T>, { fallbackData: loaderData });
}

// The mutate bound to our cache provider, captured by <CacheBridge/> (global `mutate` from 'swr'
// only reaches the default cache).
let boundMutate: ScopedMutator | undefined;

export function CacheBridge() {
  const { mutate } = useSWRConfig();
  useEffect(() => {
    boundMutate = mutate;
  }, [mutate]);
  return null;
}

/** Invalidates keys after a write: mounted hooks refetch, unmounted entries are dropped. */
export async function invalidate(key: Key): Promise<void> {
  const k = keyOf(key);
  preloadedAt.delete(k);
  dropPreload(key);
  if (boundMutate && observers.get(k)) await boundMutate(key);
  else swrCache.delete(k);
}

/** Which reads of an endpoint to invalidate: those whose params and query have these values (all when empty). */
export type EndpointFilter = { params?: Record<string, string | number>; query?: Record<string, string | number | boolean> };

/** The keys among `keys` that are reads of `endpoint` with these params and query values. */
function keysOf(endpoint: EndpointDefinition, filter: EndpointFilter, keys: Iterable<string>): string[] {
  const match = urlMatcher(endpoint);
  return [...keys].filter((key) => {
    const found = match(key);
    if (!found) return false;
    const sameParams = Object.entries(filter.params ?? {}).every(([name, value]) => found.params[name] === String(value));
    const sameQuery = Object.entries(filter.query ?? {}).every(([name, value]) => found.query.get(name) === String(value));
    return sameParams && sameQuery;
  });
}

/**
 * Invalidates the cached reads of an endpoint (every page of a list, say), or only those matching
 * `filter`. Keys still only preloaded by a loader count too, so their old answer is not handed out.
 */
export async function invalidateEndpoint(endpoint: EndpointDefinition, filter: EndpointFilter = {}): Promise<void> {
  const keys = new Set(keysOf(endpoint, filter, [...swrCache.keys(), ...preloadedAt.keys()]));
  await Promise.all([...keys].map((k) => invalidate(k)));
}

/** Drops an endpoint's cached reads without refetching (after a delete, its own read would only answer 404). */
export function forgetEndpoint(endpoint: EndpointDefinition, params: EndpointFilter['params']): void {
  for (const k of keysOf(endpoint, { params }, swrCache.keys())) swrCache.delete(k);
}

/**
 * A loader read of something an outside service answers (Kisi): from the cache, or one try
 * without the loader's retries, so an outage shows inside the page at once instead of holding the
 * navigation for the 7 s of backoff. The page's hook keeps retrying in the background.
 */
export function loadQueryOnce<T>(key: string, fetcher: (key: string) => Promise<T>): T | Promise<T> {
  const hit = swrCache.get(key)?.data as T | undefined;
  touch(key);
  return hit !== undefined ? hit : prefetch(key, () => fetcher(key));
}

/**
 * `loadQueryOnce` for a page that shows an outside service's outage itself: the data, or the error
 * to show inside the page. 401 and 403 still go to the router (login, the 403 screen), and so does
 * a 404 when `notFound` says what to throw for it.
 */
export async function loadOrFailure<T>(key: string, fetcher: (key: string) => Promise<T>, { notFound }: { notFound?: (error: unknown) => unknown } = {}): Promise<{ data?: T; error?: unknown }> {
  try {
    return { data: await loadQueryOnce(key, fetcher) };
  } catch (error) {
    if (isApiError(error, 401) || isApiError(error, 403)) throw error;
    if (notFound && isApiError(error, 404)) throw notFound(error);
    return { error };
  }
}

/** What the cache holds for a key (undefined: nothing yet). */
export const cachedData = (key: Key): unknown => swrCache.get(keyOf(key))?.data;

/** Puts known data in the cache (after a login, say) so every hook of that key shows it. */
export async function setCacheData<T>(key: Key, data: T): Promise<void> {
  const k = keyOf(key);
  forgetPreload(key);
  touch(k);
  if (boundMutate) await boundMutate(key, data, { revalidate: false });
}

export const swrConfig: SWRConfiguration = {
  provider: () => swrCache,
  use: [trackObservers],
  onErrorRetry: (error, _key, _config, revalidate, { retryCount }) => {
    if (retryCount > MAX_RETRIES || !shouldRetry(error)) return;
    setTimeout(() => void revalidate({ retryCount }), retryDelay(retryCount - 1));
  },
};

/** For tests: forget everything. */
export function resetCache() {
  for (const k of preloadedAt.keys()) dropPreload(k);
  swrCache.clear();
  observers.clear();
  inactiveSince.clear();
  preloadedAt.clear();
}
