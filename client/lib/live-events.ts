import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { urlOf } from '@contracts/endpoint.contract';
import { LIVE_EVENT_TYPES, SESSION_ENDED_EVENT, eventsApi, type LiveEvent, type LiveEventType } from '@contracts/events.contract';
import { afterPaint, firstContentfulPaintShown } from './after-paint';
import { positionOfReads } from './api-client';
import { isSessionEnded, markSessionEnded, stillSignedIn, subscribeSessionEnded } from './session';

/**
 * The one client of `GET /api/events` (Server-Sent Events) in a tab: a single `EventSource` shared
 * by every live view through `useLiveEvents` (docs/ARCHITECTURE.md "Live events"). The stream opens
 * when the first view subscribes and closes when the last one leaves; each view hears only the
 * event types it asked for. It reports the connection state, counts reconnects, remembers the last
 * event id, and resumes from it when it has to reconnect itself. It never runs while the page's
 * session has ended (lib/session.ts): the server's `session-ended` frame, or a refusal with nobody
 * signed in, closes it until the person signs in again, and then it resumes.
 */
export const EVENTS_URL = urlOf(eventsApi.stream);

/** `signed-out`: closed because the page's session ended; it opens again when the person signs in. */
export type LiveState = 'connecting' | 'open' | 'reconnecting' | 'closed' | 'signed-out';

export type LiveStatus = {
  state: LiveState;
  /** Connection losses since the stream opened (each one it recovered from, or is trying to). */
  reconnects: number;
  /** The id of the last event received (the `Last-Event-ID` a resume starts after). */
  lastEventId: string | null;
  /** Set when the server kept refusing the stream past the quick retries (it goes on trying every 30 s). */
  error: string | null;
  /**
   * The stream started where the tab's reads ended (decision 0089): everything since they answered
   * comes as events, so the views that showed those reads need not read again when it opens. False
   * once it has had to reconnect.
   */
  fromReads: boolean;
};

/** One live event of a kind a view asked for (its `type` narrowed to those kinds). */
export type LiveEventOf<T extends LiveEventType> = LiveEvent & { type: T };

/** Waits between our own reconnects when the server refuses the stream (EventSource gives up on HTTP errors). */
export const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000, 30000];
/** The wait before trying a refused stream again after `failures` refusals: longer each time, then the last for as long as it lasts. */
export const refusedRetryDelay = (failures: number): number => RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length - 1)]!;

const INITIAL_STATUS: LiveStatus = { state: 'closed', reconnects: 0, lastEventId: null, error: null, fromReads: false };

type Subscriber = { types: ReadonlySet<LiveEventType>; listener: (event: LiveEvent) => void };

export class LiveEventStream {
  private source: EventSource | undefined;
  private status: LiveStatus = INITIAL_STATUS;
  private readonly statusListeners = new Set<() => void>();
  private readonly subscribers = new Set<Subscriber>();
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Cancels an opening that waits for the page's paint. */
  private cancelOpening: (() => void) | undefined;
  private failures = 0;
  /** Asking whether anyone is signed in after a `session-ended` frame: nothing opens meanwhile. */
  private asking = false;
  /** The number of the latest ask; a later one, a hold or a disconnect makes an earlier answer old news. */
  private asks = 0;

  constructor(private readonly url: string = EVENTS_URL) {
    // The tab's one stream lives as long as the tab: it never lets go of this.
    subscribeSessionEnded(() => (isSessionEnded() ? this.holdUntilSignIn() : this.resumeAfterSignIn()));
  }

  getStatus = (): LiveStatus => this.status;

  subscribeStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  /**
   * A view starts listening to `types`; the stream opens if it is not running. Returns the leave
   * function: when the last view has left, the stream closes.
   */
  subscribe(types: readonly LiveEventType[], listener: (event: LiveEvent) => void): () => void {
    const subscriber: Subscriber = { types: new Set(types), listener };
    this.subscribers.add(subscriber);
    // A view shows what happens from now on (its own data came from the API), so a stream it starts
    // does not replay what happened while nobody listened. On the app's first page it opens once that
    // page has painted: a connection that stays open takes one of the six a phone has for the page's
    // files and data, and starts where that page's reads ended when they have all answered; otherwise a
    // view reads its data again when the stream opens (useWhenLiveOpens): nothing is missed.
    if (isSessionEnded()) this.holdUntilSignIn();
    else if (!this.running) this.openAfterFirstPaint();
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size > 0) return;
      // Closed at the end of the task, not at once: a navigation from one live page to another (and
      // React's StrictMode) unmounts the old view just before the new one subscribes, and the
      // connection should carry over rather than be dropped and opened again. (A promise rather than
      // queueMicrotask, which fake timers hold back.)
      void Promise.resolve().then(() => {
        if (this.subscribers.size === 0) this.stop();
      });
    };
  }

  /**
   * Opens the stream once the first page has painted (at once on any later page), or at once when
   * the page is hidden before it has: a tab opened in the background paints nothing (and runs no
   * animation frame) until it is shown, and its chat should still bring notifications.
   */
  private openAfterFirstPaint(): void {
    // connect() cancels what is left of any waiting (clearRetry).
    const open = () => this.connect({ resume: false });
    if (firstContentfulPaintShown() || document.hidden) return open();
    this.update({ state: 'connecting', error: null });
    // Every read so far was the first page's: the stream starts where they ended (decision 0089). On a
    // later page the lowest position can be an earlier page's, far older than this one's data: its
    // replay would bring old news (an order long served announced as new). That page opens from now.
    const openFromReads = () => this.connect({ resume: false, from: positionOfReads() });
    const onHidden = () => {
      if (document.hidden) openFromReads();
    };
    const cancelPaint = afterPaint(openFromReads);
    document.addEventListener('visibilitychange', onHidden);
    this.cancelOpening = () => {
      cancelPaint();
      document.removeEventListener('visibilitychange', onHidden);
    };
  }

  /** Connected, connecting, waiting for the page's paint, asking about the session, or waiting to retry. */
  private get running(): boolean {
    return this.source !== undefined || this.retryTimer !== undefined || this.cancelOpening !== undefined || this.asking;
  }

  /**
   * The page's session ended: closed, no retry (every one would be refused), and the views say
   * "Signed out" rather than "Reconnecting…" for ever. What was typed on the page stays.
   */
  private holdUntilSignIn(): void {
    this.clearRetry();
    this.failures = 0;
    this.source?.close();
    this.source = undefined;
    if (this.subscribers.size > 0 && (this.status.state !== 'signed-out' || this.status.error)) this.update({ state: 'signed-out', error: null, fromReads: false });
  }

  /** Signed in again: the views still here hear again, after the last event they heard (and read again what they show). */
  private resumeAfterSignIn(): void {
    if (this.subscribers.size === 0 || this.running) return;
    this.connect();
  }

  /**
   * Asks once whether anyone is signed in (`stillSignedIn`). Nobody: the page's session is marked
   * ended, which holds the stream. Otherwise `then` hears the answer: true (signed in, perhaps again
   * in another tab), or undefined when the server could not say (the database away).
   */
  private askSession(then: (signedIn: true | undefined) => void): void {
    const ask = ++this.asks;
    const settle = (signedIn: true | undefined) => {
      if (ask !== this.asks) return;
      this.asking = false;
      if (isSessionEnded()) this.holdUntilSignIn();
      else then(signedIn);
    };
    stillSignedIn().then(
      (signedIn) => settle(signedIn || undefined),
      () => settle(undefined),
    );
  }

  /**
   * Opens the stream. With `resume`, it starts after the last event seen (nothing missed while away);
   * `from`, after that position of the tab's reads (the first open). `retrying`: our own retry after
   * a refusal, which leaves a "keeps being refused" message up until it opens.
   */
  connect({ resume = true, retrying = false, from }: { resume?: boolean; retrying?: boolean; from?: string } = {}): void {
    if (this.source || this.asking) return;
    this.clearRetry();
    const last = from ?? (resume ? this.status.lastEventId : null);
    // A new EventSource cannot set the Last-Event-ID header; the BFF reads the same position from the query.
    const url = last ? `${this.url}?${new URLSearchParams({ lastEventId: last }).toString()}` : this.url;
    this.update({ state: this.status.state === 'reconnecting' ? 'reconnecting' : 'connecting', error: retrying ? this.status.error : null, fromReads: from !== undefined });
    const source = new EventSource(url, { withCredentials: true });
    this.source = source;
    source.onopen = () => {
      this.failures = 0;
      this.update({ state: 'open', error: null });
    };
    source.onerror = () => {
      if (this.source !== source) return;
      // Still CONNECTING: the browser reconnects by itself and sends Last-Event-ID.
      if (source.readyState !== EventSource.CLOSED) return this.update({ state: 'reconnecting', reconnects: this.status.reconnects + 1, fromReads: false });
      // CLOSED: the server answered with an error status (a 401 when the session ended unseen, a 503
      // while its database is away, a proxy's 502 while it restarts). Nobody signed in: it stops
      // there. Otherwise try again ourselves, a little later each time, then every 30 s for as long
      // as it takes: the page comes back by itself. Past the list, it says so.
      source.close();
      this.source = undefined;
      const delay = refusedRetryDelay(this.failures);
      const error = this.failures >= RETRY_DELAYS_MS.length ? 'The live stream keeps being refused. It tries again every 30 seconds; reload the page or sign in again if this lasts.' : this.status.error;
      this.failures++;
      this.update({ state: 'reconnecting', reconnects: this.status.reconnects + 1, error, fromReads: false });
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.connect({ retrying: true });
      }, delay);
      // A 401 reads like any refusal here: asked, nobody signed in holds the stream (no retry would be let in).
      this.askSession(() => {});
    };
    // The server's last word when the session ended (a sign-out, a deactivation): a reconnect would be refused.
    source.addEventListener(SESSION_ENDED_EVENT, () => {
      if (this.source !== source) return;
      source.close();
      this.source = undefined;
      this.asking = true;
      // Someone signed in meanwhile (the cookie holds a new session): it goes on at once. The server
      // could not be asked: it said the session ended, and that stands.
      this.askSession((signedIn) => (signedIn ? this.resumeAfterSignIn() : markSessionEnded()));
    });
    // Every kind is read, wanted by a view or not, so the last event id stays the true resume point.
    for (const type of LIVE_EVENT_TYPES) {
      source.addEventListener(type, (message) => {
        if (this.source === source) this.receive(type, message as MessageEvent<string>);
      });
    }
  }

  /**
   * Closes the stream for every view and stops any reconnecting; the last event id is kept for a
   * later `connect()`, which resumes after it.
   */
  disconnect(): void {
    this.clearRetry();
    this.failures = 0;
    this.source?.close();
    this.source = undefined;
    if (this.status.state !== 'closed' || this.status.error) this.update({ state: 'closed', error: null });
  }

  /** The last view left: closed, and the next view starts from a clean slate. */
  private stop(): void {
    this.disconnect();
    if (this.status !== INITIAL_STATUS) this.replaceStatus(INITIAL_STATUS);
  }

  private clearRetry() {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.asks++;
    this.asking = false;
    this.cancelOpening?.();
    this.cancelOpening = undefined;
  }

  private receive(type: LiveEventType, message: MessageEvent<string>) {
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      data = message.data;
    }
    const id = message.lastEventId || '';
    if (id) this.update({ lastEventId: id });
    const event: LiveEvent = { id, type, data };
    for (const subscriber of [...this.subscribers]) if (subscriber.types.has(type)) subscriber.listener(event);
  }

  private update(patch: Partial<LiveStatus>) {
    this.replaceStatus({ ...this.status, ...patch });
  }

  private replaceStatus(status: LiveStatus) {
    this.status = status;
    for (const listener of this.statusListeners) listener();
  }
}

let tabStream: LiveEventStream | undefined;

/** The tab's one stream (created on first use; it connects only while a view listens). */
export function liveEventStream(): LiveEventStream {
  return (tabStream ??= new LiveEventStream());
}

export type LiveConnection = LiveStatus & {
  /** Reopens the tab's stream after a disconnect or a refusal, resuming after the last event received. */
  connect: () => void;
  /** Closes the tab's stream (for every live view) until `connect` or until every view has left. */
  disconnect: () => void;
};

/**
 * Listens to the tab's live stream while the component is mounted, calling `onEvent` for each
 * event of the given `types` (and no other). The latest `onEvent` is always used, so it may close
 * over state. The component does not render again when the stream's state changes (it changes as
 * the page first paints, and with every event): what shows it reads it itself
 * (`useLiveStatus`, `useLiveConnection`, the `LiveConnection*` components).
 */
export function useLiveEvents<T extends LiveEventType>(types: readonly T[], onEvent?: (event: LiveEventOf<T>) => void): void {
  const stream = liveEventStream();
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  // A list written inline is a new array each render: subscribe again only when the kinds change.
  const wanted = [...new Set(types)].sort().join(' ');
  useEffect(() => {
    const kinds = (wanted ? wanted.split(' ') : []) as T[];
    return stream.subscribe(kinds, (event) => handler.current?.(event as LiveEventOf<T>));
  }, [stream, wanted]);
}

/** One part of the tab's stream status, picked as a plain value: the component renders again only when that value changes. */
export function useLiveStatus<T extends string | number | boolean | null>(pick: (status: LiveStatus) => T): T {
  const stream = liveEventStream();
  const picked = () => pick(stream.getStatus());
  return useSyncExternalStore(stream.subscribeStatus, picked, picked);
}

/** The tab's stream as a whole, and its controls (the stream viewer shows every field). */
export function useLiveConnection(): LiveConnection {
  const stream = liveEventStream();
  const status = useSyncExternalStore(stream.subscribeStatus, stream.getStatus, stream.getStatus);
  const connect = useCallback(() => stream.connect(), [stream]);
  const disconnect = useCallback(() => stream.disconnect(), [stream]);
  return { ...status, connect, disconnect };
}

/**
 * Calls `onOpen` each time the tab's stream becomes open while the component is mounted, or at once
 * when it mounts on a stream already open; `first` is true for the first it sees, and `caughtUp`
 * when the component was there before that open and the stream started where the tab's reads ended
 * (decision 0089). Heard from the stream itself: nothing renders again.
 */
function useOpens(onOpen: (open: { first: boolean; caughtUp: boolean }) => void): void {
  const handler = useRef(onOpen);
  useEffect(() => {
    handler.current = onOpen;
  });
  const lastState = useRef<LiveState | null>(null);
  const seenOpen = useRef(false);
  useEffect(() => {
    const stream = liveEventStream();
    const check = () => {
      const { state, fromReads } = stream.getStatus();
      const opened = lastState.current !== 'open' && state === 'open';
      const caughtUp = lastState.current !== null && fromReads;
      lastState.current = state;
      if (!opened) return;
      const first = !seenOpen.current;
      seenOpen.current = true;
      handler.current({ first, caughtUp });
    };
    check();
    return stream.subscribeStatus(check);
  }, []);
}

/**
 * Calls `readAgain` each time a live stream becomes open for this view: after connecting, after
 * being away, or at once when the view mounts on a stream another view already opened. What the
 * page read before that, or what happened while the stream was down, is read again (nothing goes
 * missing). One open is left alone: the first, for a view that was there before it, when the stream
 * started where the tab's reads ended (they are its data, and what came after arrives as events).
 * The latest `readAgain` is always used, so it may close over state.
 */
export function useWhenLiveOpens(readAgain: () => void): void {
  useOpens(({ caughtUp }) => {
    if (!caughtUp) readAgain();
  });
}

/**
 * Calls `readAgain` each time the live stream opens again after it was open for this view (a drop,
 * a refusal, a disconnect): what was stored while it was down is read again. The first open is left
 * alone: for a page whose list was just loaded and which announces news rather than inserting it
 * (the door-event inbox), a read at that moment would insert rows the person did not ask for.
 */
export function useWhenLiveReopens(readAgain: () => void): void {
  useOpens(({ first }) => {
    if (!first) readAgain();
  });
}
