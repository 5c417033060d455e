import { useEffect, useRef, useState } from 'react';
import { isApiError } from './api-client';
import { refusedRetryDelay, type LiveState } from './live-events';

export type ResourceStreamOptions = {
  /** The stream of one resource (`/api/…/:id/stream`); another URL opens another stream. */
  url: string;
  /** The SSE event name its messages come as. */
  eventName: string;
  /** Send cookies (a stream opened by a cookie, like the guest's). */
  withCredentials?: boolean;
  /** Each message's data, parsed from JSON (anything else, like a heartbeat, is skipped). Check it with a schema. */
  onMessage: (data: unknown) => void;
  /** The stream opened (first time and after every reconnect): read again what may have been missed. */
  onOpen?: () => void;
  /**
   * The server refused the stream (an HTTP error): ask the resource itself once. A 404 from it
   * means the resource is gone; anything else is tried again later. `signal` aborts when the
   * stream is no longer wanted (unmounted, another URL): an answer then is not news.
   */
  whenRefused: (signal: AbortSignal) => Promise<unknown>;
};

/**
 * Follows one resource through its own Server-Sent Events stream, for visitors without an
 * account (a diner's order, a guest's conversation): the shared `/api/events` stream
 * (`useLiveEvents`) is for signed-in staff.
 *
 * A dropped connection is retried by the browser. A refused one (EventSource gives up on HTTP
 * errors) is asked about once through `whenRefused`: a 404 means the resource is `gone` (the
 * stream is closed for good); anything else is tried again after `refusedRetryDelay`: longer each time, then every
 * 30 s for as long as it is refused. The latest callbacks are always used, so they may close over props.
 */
export function useResourceStream({ url, eventName, withCredentials = false, ...callbacks }: ResourceStreamOptions): { state: LiveState; gone: boolean } {
  const [state, setState] = useState<LiveState>('connecting');
  const [gone, setGone] = useState(false);
  const latest = useRef(callbacks);
  useEffect(() => {
    latest.current = callbacks;
  });

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      setState('closed');
      return;
    }
    const stop = new AbortController();
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;

    const receive = (message: Event) => {
      let data: unknown;
      try {
        data = JSON.parse((message as MessageEvent<string>).data);
      } catch {
        return; // not JSON: nothing to show
      }
      latest.current.onMessage(data);
    };

    const open = () => {
      const current = withCredentials ? new EventSource(url, { withCredentials: true }) : new EventSource(url);
      source = current;
      current.onopen = () => {
        failures = 0;
        setState('open');
        latest.current.onOpen?.();
      };
      current.addEventListener(eventName, receive);
      current.onerror = () => {
        if (current.readyState !== EventSource.CLOSED) return setState('reconnecting');
        current.close();
        void refused();
      };
    };

    const refused = async () => {
      try {
        await latest.current.whenRefused(stop.signal);
      } catch (error) {
        if (stop.signal.aborted) return;
        if (isApiError(error, 404)) {
          setGone(true);
          setState('closed');
          return;
        }
      }
      if (stop.signal.aborted) return;
      // A little later each time, then every 30 s for as long as it takes (a 503 while the database is away): it comes back by itself.
      setState('reconnecting');
      timer = setTimeout(open, refusedRetryDelay(failures++));
    };

    setGone(false);
    setState('connecting');
    open();
    return () => {
      stop.abort();
      clearTimeout(timer);
      source?.close();
    };
  }, [url, eventName, withCredentials]);

  return { state, gone };
}
