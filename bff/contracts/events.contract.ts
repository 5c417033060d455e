import * as v from 'valibot';
import { endpoint } from './endpoint.contract';

/** Kinds of live events on `GET /api/events` (Server-Sent Events). */
/** `member`: a gym member the server changed by itself (a pause that ended, a door switch Kisi took), see `MemberNewsSchema`. */
/** `menu`: a change to what diners can order (a dish sold out, a stall paused), see `MenuChangeSchema`. */
export const LIVE_EVENT_TYPES = ['webhook', 'order', 'chat', 'conversation', 'member', 'menu'] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/**
 * The last frame of a stream opened with a session, when that session ends under it (a logout, a
 * deactivation, every session of an account ended, the expiry the heartbeat finds): `event:
 * session-ended` with `data: {}` and no id. It is no live event (never stored, never replayed): it
 * tells the tab not to reconnect, since the stream would be refused, and to say it is signed out.
 */
export const SESSION_ENDED_EVENT = 'session-ended';

/**
 * One live event. `id` is the stream position used for `Last-Event-ID` resume; `data` is the
 * stored record the event announces (for `webhook`, the stored Kisi event).
 */
export const LiveEventSchema = v.object({
  id: v.string(),
  type: v.picklist(LIVE_EVENT_TYPES),
  data: v.unknown(),
});
export type LiveEvent<T = unknown> = { id: string; type: LiveEventType; data: T };

/** `?lastEventId=` resumes like the `Last-Event-ID` header (which EventSource sends on a reconnect). */
export const EventStreamQuerySchema = v.object({
  lastEventId: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'Expected an event id'), v.transform(Number))),
});

export const eventsApi = {
  stream: endpoint({
    method: 'GET',
    path: '/api/events',
    summary: `Live events (Server-Sent Events) with Last-Event-ID resume and a heartbeat every 15 s; ends with a \`${SESSION_ENDED_EVENT}\` event when the session does`,
    access: 'user',
    query: EventStreamQuerySchema,
    response: LiveEventSchema,
    stream: 'sse',
  }),
};
