import type { Response } from 'express';
import { eventsApi, mayHearLiveEvent, type LiveEvent } from '../../contracts/events.contract';
import { route } from '../../lib/endpoint-router';
import { openEventStream, sseFrame, sseHeartbeat } from '../../lib/sse';
import type { EventBus } from '../../lib/event-bus';
import type { LiveEventsRepository } from './live-events.repository';

export interface EventStreamOptions {
  heartbeatMs: number;
  /** A client whose unsent backlog passes this many bytes is disconnected (it resumes on reconnect). */
  maxBacklogBytes: number;
  /** How many stored events one resume replays at most. */
  maxReplay: number;
}

/** The bus hands every stream the same event object: its frame is written once, not once per listener. */
const frames = new WeakMap<LiveEvent, string>();
const frameOf = (event: LiveEvent) => {
  let frame = frames.get(event);
  if (frame === undefined) frames.set(event, (frame = sseFrame(event)));
  return frame;
};

export const DEFAULT_STREAM_OPTIONS: EventStreamOptions = { heartbeatMs: 15_000, maxBacklogBytes: 1_000_000, maxReplay: 1000 };

/** `GET /api/events`: Server-Sent Events for signed-in users, with Last-Event-ID resume and heartbeats. */
export function eventsRouter(deps: {
  bus: EventBus;
  events: LiveEventsRepository;
  isSessionAlive: (token: string) => Promise<boolean>;
  options?: Partial<EventStreamOptions>;
}) {
  const options = { ...DEFAULT_STREAM_OPTIONS, ...deps.options };
  /** Open streams and the session each was opened with. */
  const open = new Map<Response, string>();

  const stream = route(eventsApi.stream, async ({ query }, { req, res }) => {
    // The client left while its session was being read: 'close' has fired already and would never free this stream.
    if (res.closed || res.destroyed) return;
    const lastEventId = Number(req.get('Last-Event-ID') ?? query.lastEventId ?? NaN);
    const token = req.sessionToken ?? '';
    const role = req.user!.role; // the access guard let only a signed-in request through
    const mayHear = (event: LiveEvent) => mayHearLiveEvent(event, role);
    openEventStream(res);
    open.set(res, token);

    let closed = false;
    let lastSent = Number.isSafeInteger(lastEventId) && lastEventId >= 0 ? lastEventId : -1;
    const send = (event: LiveEvent) => {
      if (closed || Number(event.id) <= lastSent) return;
      lastSent = Number(event.id);
      if (!mayHear(event)) return;
      // Frames delivered in the same tick leave in one socket write.
      if (!res.writableCorked) {
        res.cork();
        process.nextTick(() => res.uncork());
      }
      res.write(frameOf(event));
      // Never let one slow reader hold memory for everyone: drop it; it resumes with Last-Event-ID.
      if (res.writableLength > options.maxBacklogBytes) res.end();
    };

    // Subscribe before replaying so nothing published meanwhile is lost; `send` skips duplicates.
    const pending: LiveEvent[] = [];
    let replaying = lastSent >= 0;
    const unsubscribe = deps.bus.subscribe((event) => (replaying ? pending.push(event) : send(event)));
    const heartbeat = setInterval(async () => {
      if (!(await deps.isSessionAlive(token).catch(() => true))) return res.end();
      res.write(sseHeartbeat());
    }, options.heartbeatMs);

    const cleanUp = () => {
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
    };
    res.on('close', cleanUp);

    if (replaying) {
      try {
        for (const event of await deps.events.after(lastSent, options.maxReplay)) send(event);
      } finally {
        replaying = false;
        pending.splice(0).forEach(send);
      }
    }
  });

  return {
    route: stream,
    endAll: () => open.forEach((_token, res) => res.end()),
    /** Sessions were ended somewhere: close the streams whose session is no longer alive. */
    endStreamsOfEndedSessions: async () => {
      const alive = new Map<string, Promise<boolean>>();
      for (const [res, token] of open) {
        if (!alive.has(token)) alive.set(token, deps.isSessionAlive(token).catch(() => true));
        if (!(await alive.get(token))) res.end();
      }
    },
  };
}
