import * as v from 'valibot';
import { EmailSchema } from './auth.contract';
import { PageQuerySchema, pageOf } from './common.contract';

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
