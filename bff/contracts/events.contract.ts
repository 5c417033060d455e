import * as v from 'valibot';
import { endpoint, type Role } from './endpoint.contract';

/** Kinds of live events on `GET /api/events` (Server-Sent Events). */
export const LIVE_EVENT_TYPES = ['webhook', 'order', 'chat', 'conversation'] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/**
 * Who hears each kind of event (admins hear everything): door events and guest conversations are
 * the front desk's, orders the food court's, chat whoever may read the channel.
 */
export const LIVE_EVENT_AUDIENCE: Record<LiveEventType, readonly Role[]> = { webhook: ['staff'], order: ['runner', 'staff'], chat: ['runner', 'staff'], conversation: ['staff'] };

/**
 * An event may narrow its kind's audience further: `audience` in its data lists the only roles that
 * hear it (a staff-only channel's messages never reach a runner).
 */
export function mayHearLiveEvent(event: Pick<LiveEvent, 'type' | 'data'>, role: Role): boolean {
  if (role === 'admin') return true;
  if (!LIVE_EVENT_AUDIENCE[event.type].includes(role)) return false;
  const narrowed = (event.data as { audience?: unknown } | null)?.audience;
  return !Array.isArray(narrowed) || narrowed.includes(role);
}

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
