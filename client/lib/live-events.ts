import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { LIVE_EVENT_TYPES, eventsApi, type LiveEvent } from '@contracts/events.contract';
import { keyFor } from './api-client';

/**
 * The one client of `GET /api/events` (Server-Sent Events): a small store around `EventSource`
 * that every live page uses through `useLiveEvents`. It reports the connection state, counts
 * reconnects, remembers the last event id, and resumes from it when it has to reconnect itself.
 */
export const EVENTS_URL = keyFor(eventsApi.stream);

export type LiveState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export type LiveStatus = {
  state: LiveState;
  /** Connection losses since the page connected (each one the stream recovered from, or is trying to). */
  reconnects: number;
  /** The id of the last event received (the `Last-Event-ID` a resume starts after). */
  lastEventId: string | null;
  /** Set when the stream gave up reconnecting (the server kept refusing it). */
  error: string | null;
};

/** Waits between our own reconnects when the server refuses the stream (EventSource gives up on HTTP errors). */
export const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000, 30000];

type EventListener = (event: LiveEvent) => void;

export class LiveEventStream {
  private source: EventSource | undefined;
  private status: LiveStatus = { state: 'closed', reconnects: 0, lastEventId: null, error: null };
  private readonly statusListeners = new Set<() => void>();
  private readonly eventListeners = new Set<EventListener>();
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;

  constructor(private readonly url: string = EVENTS_URL) {}

  getStatus = (): LiveStatus => this.status;

  subscribeStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  onEvent(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Opens the stream. With `resume`, it starts after the last event seen (nothing missed while away). */
  connect({ resume = true }: { resume?: boolean } = {}): void {
    if (this.source) return;
    clearTimeout(this.retryTimer);
    const last = resume ? this.status.lastEventId : null;
    // A new EventSource cannot set the Last-Event-ID header; the BFF reads the same position from the query.
    const url = last ? `${this.url}?${new URLSearchParams({ lastEventId: last }).toString()}` : this.url;
    this.update({ state: this.status.state === 'reconnecting' ? 'reconnecting' : 'connecting', error: null });
    const source = new EventSource(url, { withCredentials: true });
    this.source = source;
    source.onopen = () => {
      this.failures = 0;
      this.update({ state: 'open' });
    };
    source.onerror = () => {
      if (this.source !== source) return;
      // Still CONNECTING: the browser reconnects by itself and sends Last-Event-ID.
      if (source.readyState !== EventSource.CLOSED) return this.update({ state: 'reconnecting', reconnects: this.status.reconnects + 1 });
      // CLOSED: the server answered with an error status; try again ourselves, a little later each time.
      source.close();
      this.source = undefined;
      if (this.failures >= RETRY_DELAYS_MS.length) {
        return this.update({ state: 'closed', error: 'The live stream keeps being refused. Reload the page or sign in again.' });
      }
      const delay = RETRY_DELAYS_MS[this.failures++]!;
      this.update({ state: 'reconnecting', reconnects: this.status.reconnects + 1 });
      this.retryTimer = setTimeout(() => this.connect(), delay);
    };
    for (const type of LIVE_EVENT_TYPES) {
      source.addEventListener(type, (message) => {
        if (this.source === source) this.receive(type, message as MessageEvent<string>);
      });
    }
  }

  /** Closes the stream and stops any reconnecting; the last event id is kept for a later resume. */
  disconnect(): void {
    clearTimeout(this.retryTimer);
    this.failures = 0;
    this.source?.close();
    this.source = undefined;
    if (this.status.state !== 'closed' || this.status.error) this.update({ state: 'closed', error: null });
  }

  private receive(type: LiveEvent['type'], message: MessageEvent<string>) {
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      data = message.data;
    }
    const id = message.lastEventId || '';
    if (id) this.update({ lastEventId: id });
    for (const listener of this.eventListeners) listener({ id, type, data });
  }

  private update(patch: Partial<LiveStatus>) {
    this.status = { ...this.status, ...patch };
    for (const listener of this.statusListeners) listener();
  }
}

export type LiveConnection = LiveStatus & {
  /** Reopens a closed stream, resuming after the last event received. */
  connect: () => void;
  disconnect: () => void;
};

/**
 * Connects to the live event stream while the component is mounted (and `enabled`), calling
 * `onEvent` for every event. The latest `onEvent` is always used, so it may close over state.
 */
export function useLiveEvents(onEvent?: (event: LiveEvent) => void, { enabled = true }: { enabled?: boolean } = {}): LiveConnection {
  const [stream] = useState(() => new LiveEventStream());
  const status = useSyncExternalStore(stream.subscribeStatus, stream.getStatus, stream.getStatus);
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => stream.onEvent((event) => handler.current?.(event)), [stream]);
  useEffect(() => {
    if (!enabled) return;
    // A page shows what happens from now on; its own list came from the API.
    stream.connect({ resume: false });
    return () => stream.disconnect();
  }, [stream, enabled]);
  const connect = useCallback(() => stream.connect(), [stream]);
  const disconnect = useCallback(() => stream.disconnect(), [stream]);
  return { ...status, connect, disconnect };
}

/**
 * Calls `readAgain` each time a live stream becomes open, after connecting or after being away:
 * what the page read before it opened, or what happened while it was down, is read again (nothing
 * goes missing). The latest `readAgain` is always used, so it may close over state.
 */
export function useWhenLiveOpens(state: LiveState, readAgain: () => void): void {
  const handler = useRef(readAgain);
  useEffect(() => {
    handler.current = readAgain;
  });
  const lastState = useRef(state);
  useEffect(() => {
    if (lastState.current !== 'open' && state === 'open') handler.current();
    lastState.current = state;
  }, [state]);
}
