import * as v from 'valibot';
import { endpoint } from './endpoint.contract';

/** Kinds of live events on `GET /api/events` (Server-Sent Events). */
export const LIVE_EVENT_TYPES = ['webhook', 'order', 'chat', 'conversation'] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

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
    summary: 'Live events (Server-Sent Events) with Last-Event-ID resume and a heartbeat every 15 s',
    access: 'user',
    query: EventStreamQuerySchema,
    response: LiveEventSchema,
    stream: 'sse',
  }),
};
