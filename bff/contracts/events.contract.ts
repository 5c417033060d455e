import * as v from 'valibot';

/** Kinds of live events on `GET /api/events` (Server-Sent Events). */
export const LIVE_EVENT_TYPES = ['webhook', 'order'] as const;
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
