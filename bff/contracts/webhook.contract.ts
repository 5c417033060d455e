import * as v from 'valibot';
import { CURSOR_PAGE_ENTRIES, EmailSchema, IdParamSchema, NoContentSchema, atMost, idText, isoInstant, pageOf } from './common.contract';
import { endpoint } from './endpoint.contract';

/**
 * Who pressed a remote unlock that went through Frontdesk (issue 52 defect 4, decision 0103): Kisi
 * logs it as the integration's own Kisi user, so the BFF credits the account that asked for it. The
 * name and email as they were then; after an erasure "Erased person" and no email.
 */
export const RequestedBySchema = v.object({ name: v.string(), email: v.nullable(v.string()) });
export type RequestedBy = v.InferOutput<typeof RequestedBySchema>;

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
  /** A remote unlock pressed in Frontdesk: who pressed it (the actor is then the integration's Kisi user); null for every other event. */
  requestedBy: v.nullable(RequestedBySchema),
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

/**
 * `GET /api/webhook?page=&pageSize=&next=|previous=`: received events, newest first; paged by cursor
 * (`next` / `previous` of the answer), the total counted no further than 1,000 past the page.
 */
export const KisiEventPageSchema = pageOf(KisiEventSchema);

/** `GET /api/webhooks/unlocks?email=&page=&pageSize=&next=|previous=`: one person's unlocks (email compared case-insensitively), paged by cursor. */
export const UnlocksQuerySchema = v.object({ ...CURSOR_PAGE_ENTRIES, email: EmailSchema });
export type UnlocksQuery = v.InferOutput<typeof UnlocksQuerySchema>;

/** `?result=`: what Kisi answered the person (`granted`: `success` true; `denied`: refused). */
export const EVENT_RESULTS = ['granted', 'denied'] as const;
export type EventResult = (typeof EVENT_RESULTS)[number];

/** The `object_type` of a door: the door filter and the door choices name locks only (a `User` event's object id is a user's). */
export const DOOR_OBJECT_TYPE = 'Lock';

/**
 * The inbox's filters, shared by the list and its CSV export. Times are UTC instants: the page turns
 * the days a person picks into the venue's local midnights (the browser at the desk is at the venue),
 * so the API never guesses a time zone. `since` is inclusive, `before` exclusive: the days from
 * Monday to Friday are `since` Monday 00:00 and `before` Saturday 00:00, local time.
 */
const eventFilterEntries = {
  /** Part of the person's name or email, any case. */
  person: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(200, atMost(200)),
      v.transform((s) => s || undefined),
    ),
  ),
  /** One door: the lock's Kisi id (`objectId` of its events). */
  doorId: v.optional(idText('Expected a door (lock) id: a positive integer')),
  result: v.optional(v.picklist(EVENT_RESULTS, 'Expected granted or denied')),
  /** One event type (`lock.unlock`). */
  type: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'An event type is at most 100 characters'))),
  /** Events that happened at or after this time. */
  since: v.optional(isoInstant()),
  /** Events that happened before this time (not at it). */
  before: v.optional(isoInstant('Expected an ISO 8601 time such as 2026-03-07T00:00:00.000Z')),
};

/** A range that ends before it starts is a mistake to point out, not an empty list to show. */
const rangeInOrder = (q: { since?: string; before?: string }) => !q.since || !q.before || q.since < q.before;
const RANGE_OUT_OF_ORDER = 'The end of the time range (before) must be after its start (since)';

export const EventFilterSchema = v.pipe(v.object(eventFilterEntries), v.forward(v.check((q) => rangeInOrder(q), RANGE_OUT_OF_ORDER), ['before']));
export type EventFilter = v.InferOutput<typeof EventFilterSchema>;

/** `GET /api/webhook?page&pageSize&next|previous&person&doorId&result&type&since&before` (`before` is the time filter; the cursors are `next` and `previous`). */
export const EventListQuerySchema = v.pipe(
  v.object({ ...CURSOR_PAGE_ENTRIES, ...eventFilterEntries }),
  v.forward(v.check((q) => rangeInOrder(q), RANGE_OUT_OF_ORDER), ['before']),
);
export type EventListQuery = v.InferOutput<typeof EventListQuerySchema>;

/** What the inbox's filters can choose from: the doors and the event types seen in stored events. */
export const EventFilterChoicesSchema = v.object({
  /** Each lock once, by the name its newest event gave it, in name order. */
  doors: v.array(v.object({ id: v.number(), name: v.string() })),
  types: v.array(v.string()),
});
export type EventFilterChoices = v.InferOutput<typeof EventFilterChoicesSchema>;

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
    summary: 'Received Kisi events, newest first, a page from its cursor; person, door, result, type and a time range narrow them (the total stops at 1,000 past the page: totalIsLowerBound)',
    access: ['staff'],
    query: EventListQuerySchema,
    response: KisiEventPageSchema,
  }),
  exportEvents: endpoint({
    method: 'GET',
    path: '/api/webhook/export.csv',
    summary: 'Every received event the filters match (as the list, without paging), newest first, as a CSV attachment (UTF-8, RFC 4180)',
    access: ['staff'],
    query: EventFilterSchema,
    response: v.unknown(),
    stream: 'file',
  }),
  filterChoices: endpoint({
    method: 'GET',
    path: '/api/webhook/filters',
    summary: "What the inbox's filters offer: each door (lock) and each event type seen in the stored events",
    access: ['staff'],
    response: EventFilterChoicesSchema,
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
    summary: "One person's door unlocks (lock.unlock events by actor email), newest first, a page from its cursor (the total stops at 1,000 past the page)",
    access: ['staff'],
    query: UnlocksQuerySchema,
    response: KisiEventPageSchema,
  }),
};
