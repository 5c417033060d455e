import * as v from 'valibot';
import { EmailSchema, IdParamSchema, PageQuerySchema, pageOf } from './common.contract';
import { endpoint, NoContentSchema } from './endpoint.contract';

/**
 * A Kisi event as the BFF stored it from a signed webhook (`kisi_events`), and as it is announced
 * on the live event stream (`webhook` events on GET /api/events).
 */
export const KisiEventSchema = v.object({
  id: v.number(),
  uuid: v.string(),
  /** e.g. `lock.unlock` */
  type: v.string(),
  actorType: v.nullable(v.string()),
  actorId: v.nullable(v.number()),
  actorName: v.nullable(v.string()),
  /** From the payload, or looked up from the actor's Kisi user when the payload lacks it. */
  actorEmail: v.nullable(v.string()),
  objectType: v.nullable(v.string()),
  /** For `lock.*` events: the lock (door). */
  objectId: v.nullable(v.number()),
  objectName: v.nullable(v.string()),
  placeId: v.nullable(v.number()),
  success: v.boolean(),
  errorCode: v.nullable(v.string()),
  errorMessage: v.nullable(v.string()),
  /** When it happened at Kisi (UTC ISO-8601). */
  createdAt: v.string(),
  /** When the BFF received it. */
  receivedAt: v.string(),
});
export type KisiEvent = v.InferOutput<typeof KisiEventSchema>;

/** `POST /api/webhooks/kisi` answer: 200 both for a new event and for a repeat (stored once). */
export const WebhookAckSchema = v.object({
  status: v.picklist(['stored', 'duplicate']),
  uuid: v.string(),
  id: v.optional(v.number()),
});
export type WebhookAck = v.InferOutput<typeof WebhookAckSchema>;

/** The Kisi event type of a door unlock (also a refused one: `success` false). */
export const UNLOCK_EVENT_TYPE = 'lock.unlock';

/** `GET /api/webhook?page=&pageSize=`: received events, newest first. */
export const KisiEventPageSchema = pageOf(KisiEventSchema);

/** `GET /api/webhooks/unlocks?email=&page=&pageSize=`: one person's unlocks (email compared case-insensitively). */
export const UnlocksQuerySchema = v.object({ ...PageQuerySchema.entries, email: EmailSchema });
export type UnlocksQuery = v.InferOutput<typeof UnlocksQuerySchema>;

/** The inbox's filters: one event type (`lock.unlock`), and events that happened at or after `since`. */
export const EventListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  type: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'An event type is at most 100 characters'))),
  since: v.optional(
    v.pipe(
      v.string(),
      v.isoTimestamp('Expected an ISO 8601 time such as 2026-03-02T00:00:00.000Z'),
      v.transform((s) => new Date(s).toISOString()),
    ),
  ),
});
export type EventListQuery = v.InferOutput<typeof EventListQuerySchema>;

/** A Kisi event delivery as the receiver reads it: Kisi's Event, every field optional but a uuid (tolerant of older shapes). */
export const KisiWebhookBodySchema = v.looseObject({
  uuid: v.optional(v.string()),
  type: v.optional(v.string()),
  actor_type: v.optional(v.nullable(v.string())),
  actor_id: v.optional(v.nullable(v.number())),
  actor_name: v.optional(v.nullable(v.string())),
  actor_email: v.optional(v.nullable(v.string())),
  object_type: v.optional(v.nullable(v.string())),
  object_id: v.optional(v.nullable(v.number())),
  object_name: v.optional(v.nullable(v.string())),
  success: v.optional(v.boolean()),
  created_at: v.optional(v.string()),
});

export const webhookApi = {
  receive: endpoint({
    method: 'POST',
    path: '/api/webhooks/kisi',
    summary: "Kisi's signed event webhook (X-Signature: HMAC-SHA256 of the raw body); each event stored once by uuid",
    access: 'public',
    rawBody: KisiWebhookBodySchema,
    response: WebhookAckSchema,
    errors: [401, 413],
  }),
  listEvents: endpoint({
    method: 'GET',
    path: '/api/webhook',
    summary: 'Received Kisi events, newest first; `type` and `since` narrow them (the total counts what matches)',
    access: ['staff'],
    query: EventListQuerySchema,
    response: KisiEventPageSchema,
  }),
  deleteEvent: endpoint({
    method: 'DELETE',
    path: '/api/webhook/:id',
    summary: "Delete the BFF's copy of a received event",
    access: ['staff'],
    params: IdParamSchema,
    response: NoContentSchema,
    status: 204,
    errors: [404],
  }),
  unlocksOf: endpoint({
    method: 'GET',
    path: '/api/webhooks/unlocks',
    summary: "One person's door unlocks (lock.unlock events by actor email), newest first",
    access: ['staff'],
    query: UnlocksQuerySchema,
    response: KisiEventPageSchema,
  }),
};
