import { useEffect, useRef } from 'react';
import type { SWRResponse } from 'swr';
import type { Endpoint, EndpointOutput, Read } from '@contracts/endpoint.contract';
import type { LiveEventType } from '@contracts/events.contract';
import { useLiveEvents, useWhenLiveOpens, type LiveEventOf } from './live-events';
import { cachedData, invalidate, setQueryData, useRead, type ReadFilter } from './reads';
import { queryOf } from './route-reads';

/** How a list follows its live events (`useLiveList`). */
export type LiveListOptions<T, N, K extends LiveEventType> = {
  /** The kinds of live event that may change the list. */
  events: readonly K[];
  /** What an event says, checked; undefined: nothing for this list. Default: the event's data as it came. */
  news?: (event: LiveEventOf<K>) => N | undefined;
  /** Whether news changes the list as it is now (default: all news does). */
  concerns?: (news: N, list: T) => boolean;
  /** Opt-in: the list with the news in it, and `readAgain` when it must be read all the same (a page of a longer list). */
  merge?: (list: T, news: N) => { list: T; readAgain?: boolean };
  /** Each news the stream brings that concerns the list, with the list before it (a "New" mark, an announcement). */
  onNews?: (news: N, list: T) => void;
};

export type LiveList<T, N> = SWRResponse<T, unknown, { fallbackData: T }> & {
  /** News in hand (a write's own answer), taken in as the stream's would be. */
  take: (news: N) => void;
  /** Reads the list again (a call during a read asks for one more after it). */
  readAgain: () => void;
};

/**
 * A list on screen that follows its live events (docs/live-events.md "In the browser"): `useRead` of
 * its read (a page's declared one, pages/<area>.reads.ts, with the loader's answer) that hears
 * `options.events`. By default news reads the list again; `merge` (opt-in) folds it in at once
 * instead, for a list that must move without a round trip (the runner board, a kitchen screen).
 * Every time the stream opens for the page, after a drop too, the list is read again: nothing that
 * happened while it was down goes missing. One read at a time, and one more when news came during
 * it (a read under way when news is merged is older than the news: SWR drops its answer). A read
 * again is `invalidate`'s, so a hover's preload left unused is never taken for the new answer.
 */
export function useLiveList<E extends Endpoint, N = unknown, K extends LiveEventType = LiveEventType>(
  read: Read<E>,
  loaded: EndpointOutput<E>,
  options: LiveListOptions<EndpointOutput<E>, N, K>,
): LiveList<EndpointOutput<E>, N> {
  type T = EndpointOutput<E>;
  const list = queryOf(read);
  const shown = useRead(list, loaded);
  // What news is folded into: the cache's list (several can come between two renders), else the one shown.
  const current = () => (cachedData(list.key) as T | undefined) ?? shown.data;
  // Read while rendering, so the page renders again when a read starts or ends (SWR renders for what is read).
  const validating = shown.isValidating;

  const reading = useRef<'idle' | 'reading' | 'again'>('idle');
  const readAgain = () => {
    if (reading.current !== 'idle') return void (reading.current = 'again');
    reading.current = 'reading';
    void invalidate(read.endpoint, read.input as ReadFilter<E>).finally(() => {
      const again = reading.current === 'again';
      reading.current = 'idle';
      // The latest: the page may show another list of the endpoint by now (another kitchen).
      if (again) latestReadAgain.current();
    });
  };
  const latestReadAgain = useRef(readAgain);
  useEffect(() => {
    latestReadAgain.current = readAgain;
  });

  const apply = (news: N, fromStream: boolean) => {
    const before = current();
    if (options.concerns && !options.concerns(news, before)) return;
    if (fromStream) options.onNews?.(news, before);
    if (!options.merge) return readAgain();
    const merged = options.merge(before, news);
    setQueryData(list.key, merged.list);
    if (merged.readAgain || reading.current !== 'idle' || validating) readAgain();
  };

  useLiveEvents(options.events, (event) => {
    const news = options.news ? options.news(event) : (event.data as N);
    if (news !== undefined) apply(news, true);
  });
  useWhenLiveOpens(readAgain);

  return Object.assign(shown, { take: (news: N) => apply(news, false), readAgain });
}
