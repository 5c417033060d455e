import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import type { KisiEventsTable } from '../../db/schema';

/**
 * Reads Kisi's event webhook body tolerantly (docs/kisi-api.md §6): today's documented shape
 * (`uuid`, `type`, `actor_*`, `object_*`, `success`, …), the superset Event schema, and the 2017-era
 * shape (`action`, `references`, no `uuid`/`type`, `success` as a string). Only a non-object body is
 * refused.
 */
export type ParsedKisiEvent = Omit<Insertable<KisiEventsTable>, 'received_at' | 'id'>;

const MAX_TEXT = 500;

/** A NUL character is dropped: PostgreSQL cannot store one, and refusing the event would only have Kisi send it again. */
const withoutNul = (value: string) => value.replaceAll('\u0000', '');

const text = (value: unknown): string | null => {
  if (typeof value === 'string') {
    const trimmed = withoutNul(value).trim();
    return trimmed ? trimmed.slice(0, MAX_TEXT) : null;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
};

const integer = (value: unknown): number | null => {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return null;
};

const flag = (value: unknown): boolean | null => {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1 || value === '1') return true;
  if (value === 'false' || value === 0 || value === '0') return false;
  return null;
};

const timestamp = (value: unknown, fallback: string): string => {
  if (typeof value !== 'string' && typeof value !== 'number') return fallback;
  const ms = typeof value === 'number' ? value * (value < 1e12 ? 1000 : 1) : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : fallback;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseKisiEvent(body: unknown, raw: Buffer, now: string): ParsedKisiEvent | undefined {
  if (!isRecord(body)) return undefined;
  const references = Array.isArray(body.references) ? body.references.filter(isRecord) : [];
  const reference = (type: string) => integer(references.find((r) => r.type === type)?.id);

  const objectType = text(body.object_type);
  const action = text(body.action);
  const type = text(body.type) ?? (objectType && action ? `${objectType.toLowerCase()}.${action}` : (action ?? 'unknown'));
  const errorCode = text(body.error_code);
  const actorEmail = text(body.actor_email);

  return {
    // A body without a uuid (older payloads) is identified by its bytes, so a redelivery still dedupes.
    uuid: text(body.uuid)?.slice(0, 100) ?? `sha256:${crypto.createHash('sha256').update(raw).digest('hex')}`,
    type: type.slice(0, 100),
    actor_type: text(body.actor_type),
    actor_id: integer(body.actor_id),
    actor_name: text(body.actor_name),
    actor_email: actorEmail && actorEmail.includes('@') ? actorEmail.toLowerCase() : null,
    object_type: objectType,
    object_id: integer(body.object_id) ?? (objectType ? reference(objectType) : null),
    object_name: text(body.object_name),
    place_id: integer(body.place_id) ?? reference('Place'),
    success: (flag(body.success) ?? !errorCode) ? 1 : 0,
    error_code: errorCode,
    error_message: text(body.error_message),
    created_at: timestamp(body.created_at, now),
    payload: raw.toString('utf8'),
  };
}
