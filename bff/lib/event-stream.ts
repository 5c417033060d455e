import type { Request, Response } from 'express';
import type { Role } from '../contracts/endpoint.contract';
import { SESSION_ENDED_EVENT, type LiveEvent } from '../contracts/events.contract';
import { mayHearLiveEvent } from './live-audience';

/** One Server-Sent Event; an `id` lets the browser resume after it with Last-Event-ID. */
export interface StreamFrame {
  id?: string;
  type: string;
  data: unknown;
}

export interface EventStreamSettings {
  heartbeatMs: number;
  /** A client whose unsent backlog passes this many bytes is let go (it resumes, or reads the state again, on reconnect). */
  maxBacklogBytes: number;
  /**
   * How many stored events one resume replays at most. A client further behind gets that many, then
   * the stream ends with the last id, and the browser's reconnect resumes from there.
   */
  maxReplay: number;
}

export const DEFAULT_STREAM_SETTINGS: EventStreamSettings = { heartbeatMs: 15_000, maxBacklogBytes: 1_000_000, maxReplay: 1000 };

/** What one stream sends, and to whom it belongs. */
export interface StreamSpec {
  /** Only the events this role may hear (`mayHearLiveEvent`); without it, every event reaches `pick`. */
  audience?: Role;
  /**
   * What the stream sends of an event: a frame, or nothing. Default: the event itself, whose text is
   * then made once for every stream that sends it.
   */
  pick?: (event: LiveEvent) => StreamFrame | undefined;
  /**
   * Last-Event-ID: the stored events after it come first (through `audience` and `pick`). Default:
   * the request's own (the header EventSource sends on a reconnect), so every stream resumes.
   */
  resumeAfter?: number;
  /**
   * false: the stream starts at now whatever Last-Event-ID says, and replays nothing. For a client that
   * reads the state again each time its stream opens (a replay would be work for nothing), and a public
   * stream, whose reconnect loop with `Last-Event-ID: 0` would otherwise read the log at each connect.
   */
  resume?: boolean;
  /**
   * The frames that open the stream (the state as it is now), read once the stream hears live events
   * and before its answer starts, so a throw is the request's answer (a 404) and an event heard
   * meanwhile follows them (`pick` sees it after `first` has run).
   */
  first?: () => Promise<StreamFrame[]>;
  /** The session the stream was opened with: it ends when that session does (logout, expiry), with a `session-ended` frame last. */
  session?: string;
  /** At most `max` streams share `key` (an order's, a conversation's devices); the oldest gives way. */
  group?: { key: string; max: number };
  maxBacklogBytes?: number;
}

export interface EventStreamDeps {
  /** Hears every live event this instance hands out, in id order. */
  subscribe: (listener: (event: LiveEvent) => void) => () => void;
  /** Stored events after an id, oldest first (the live-event log). */
  replay: (after: number, limit: number) => Promise<LiveEvent[]>;
  /**
   * The id of the last event `subscribe` has handed out: every later one reaches a listener
   * subscribed now. A new stream starts there, and says so in its first message.
   */
  position: () => Promise<number>;
  /**
   * Whether the session may still hear this stream: alive, and (given the role the stream was opened
   * for) still of that role. A demoted person's stream must not go on hearing the old role's events.
   */
  isSessionAlive: (token: string, audience?: Role) => Promise<boolean>;
  settings?: Partial<EventStreamSettings>;
}

const sseFrame = (frame: StreamFrame): string =>
  `${frame.id === undefined ? '' : `id: ${frame.id}\n`}event: ${frame.type}\ndata: ${JSON.stringify(frame.data)}\n\n`;

/** Every stream that sends the same frame object sends the same text: made once, not once per stream. */
const frames = new WeakMap<StreamFrame, string>();
const textOf = (frame: StreamFrame) => {
  let text = frames.get(frame);
  if (text === undefined) frames.set(frame, (text = sseFrame(frame)));
  return text;
};

/** The Last-Event-ID a client resumes after (the header, which EventSource sends on a reconnect, or `?lastEventId=`). */
export function lastEventIdOf(req: Request, fromQuery?: number): number | undefined {
  const id = Number(req.get('Last-Event-ID') ?? fromQuery ?? NaN);
  return Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}

/**
 * The last words of a stream whose session ended: the browser is told not to reconnect (it would be
 * refused) rather than left to find out through a 401 it cannot read. No id: the resume point stays.
 */
const SESSION_ENDED_FRAME = sseFrame({ type: SESSION_ENDED_EVENT, data: {} });

/** Ends an answer; frames written this tick are still corked, and `end` would drop them. */
const endStream = (res: Response, last?: string) => {
  if (res.writableEnded) return;
  if (res.writableCorked) res.uncork();
  res.end(last);
};

interface OpenStream {
  res: Response;
  session?: string;
  audience?: Role;
}

/**
 * Every Server-Sent Events answer of the app: headers no proxy caches or buffers, the opening
 * frames, Last-Event-ID resume from the log, the audience filter, a heartbeat (which also ends a
 * stream whose session ended), a cap on what a slow reader may leave unsent, a cap on streams per
 * group, and one place that ends them (a logout, shutdown).
 */
export function eventStreams(deps: EventStreamDeps) {
  const settings = { ...DEFAULT_STREAM_SETTINGS, ...deps.settings };
  const open = new Set<OpenStream>();
  const groups = new Map<string, Set<Response>>();
  /** Set at shutdown: a stream asked for after it ends at once, and the browser reconnects elsewhere. */
  let closing = false;

  async function stream(req: Request, res: Response, spec: StreamSpec): Promise<void> {
    // The client left while the request was read: its 'close' has fired already and would never free this stream.
    if (res.closed || res.destroyed) return;

    const pick = spec.pick ?? ((event: LiveEvent) => event);
    const maxBacklogBytes = spec.maxBacklogBytes ?? settings.maxBacklogBytes;
    const resumeAfter = spec.resume === false ? undefined : (spec.resumeAfter ?? lastEventIdOf(req));
    let lastSent = resumeAfter ?? -1;

    const write = (frame: StreamFrame) => {
      if (res.writableEnded) return;
      // Frames handed out in the same tick leave in one socket write.
      if (!res.writableCorked) {
        res.cork();
        process.nextTick(() => res.uncork());
      }
      res.write(textOf(frame));
      // Never let one slow reader hold memory for everyone: let it go; it comes back where it was.
      if (res.writableLength > maxBacklogBytes) endStream(res);
    };
    const send = (event: LiveEvent) => {
      // The bus hands out events in id order; one also in a replay is sent once.
      if (Number(event.id) <= lastSent) return;
      lastSent = Number(event.id);
      if (spec.audience && !mayHearLiveEvent(event, spec.audience)) return;
      const frame = pick(event);
      // Each frame carries its event's id, so the browser's Last-Event-ID is always where it is.
      if (frame) write(frame.id === undefined ? { ...frame, id: event.id } : frame);
    };

    // Listen before reading, so nothing handed out meanwhile is lost.
    const heard: LiveEvent[] = [];
    let live = false;
    const unsubscribe = deps.subscribe((event) => (live ? send(event) : heard.push(event)));
    let first: StreamFrame[];
    let replayed: LiveEvent[];
    try {
      // A new stream starts at the events handed out so far: what it sends first is state read after that.
      if (resumeAfter === undefined) lastSent = await deps.position();
      first = spec.first ? await spec.first() : [];
      replayed = resumeAfter === undefined ? [] : await deps.replay(resumeAfter, settings.maxReplay);
    } catch (err) {
      unsubscribe();
      throw err;
    }
    if (res.closed || res.destroyed) return void unsubscribe();
    if (closing) {
      // Shutdown: a stream that opens and ends. EventSource tries again in 3 s, with its Last-Event-ID,
      // through the balancer to an instance that stays.
      unsubscribe();
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' });
      return void res.end(`retry: 3000\nid: ${lastSent}\n\n`);
    }

    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    // The first message carries the stream's position as its id: a browser that loses the connection
    // before any event reconnects with it as Last-Event-ID and hears what it missed, not "from now".
    res.write(`retry: 3000\nid: ${lastSent}\n\n`);
    const entry: OpenStream = { res, session: spec.session, audience: spec.audience };
    open.add(entry);
    let group: Set<Response> | undefined;
    if (spec.group) {
      group = groups.get(spec.group.key);
      if (!group) groups.set(spec.group.key, (group = new Set()));
      group.add(res);
      // An ended stream stays in its group until its socket closes: only the live ones count, so a
      // burst of arrivals cannot each "evict" the same ended one and pass the cap.
      const live = [...group].filter((r) => !r.writableEnded);
      if (live.length > spec.group.max) endStream(live[0]!);
    }
    const heartbeat = setInterval(async () => {
      if (spec.session !== undefined && !(await deps.isSessionAlive(spec.session, spec.audience).catch(() => true))) return endStream(res, SESSION_ENDED_FRAME);
      if (!res.writableEnded) res.write(`: heartbeat ${new Date().toISOString()}\n\n`);
    }, settings.heartbeatMs);
    res.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(entry);
      if (group?.delete(res) && group.size === 0) groups.delete(spec.group!.key);
    });

    first.forEach(write);
    replayed.forEach(send);
    if (replayed.length === settings.maxReplay) {
      // More stored events than one replay: an id-only frame moves the browser's Last-Event-ID past
      // those it was not to hear, and its reconnect goes on from there.
      return endStream(res, `id: ${lastSent}\n\n`);
    }
    live = true;
    heard.splice(0).forEach(send);
  }

  return {
    stream,
    /**
     * Ends every open stream, and from now on every new one at once (shutdown: the server can then
     * finish the requests in flight; each browser reconnects, with its Last-Event-ID, to an instance that stays).
     */
    endAll: () => {
      closing = true;
      open.forEach(({ res }) => endStream(res));
    },
    /** Streams open now (the metrics). */
    openCount: () => open.size,
    /** Sessions were ended somewhere: ends the streams whose session is no longer alive, each saying so last. */
    endStreamsOfEndedSessions: async () => {
      const alive = new Map<string, Promise<boolean>>();
      for (const { res, session, audience } of open) {
        if (session === undefined) continue;
        const key = `${session} ${audience ?? ''}`;
        if (!alive.has(key)) alive.set(key, deps.isSessionAlive(session, audience).catch(() => true));
        if (!(await alive.get(key))) endStream(res, SESSION_ENDED_FRAME);
      }
    },
  };
}
export type EventStreams = ReturnType<typeof eventStreams>;
