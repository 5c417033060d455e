import { Router } from 'express';
import type { EmulatorDb } from './emulator.database';
import { boolParam, intParam, kisiError, kisiTime, LIMITS, listParams, ORGANIZATION, pagedQuery, sendCollection, type ListParams } from './emulator.shared';

/** Door events: the `lock.unlock` shape, Kisi's refusal rules, and the record the emulator keeps and serves of them. */

/** The `lock.unlock` webhook body, shaped like Kisi's documented sample (no actor_email, as observed). */
export type EmulatorUnlockEvent = {
  uuid: string;
  actor_type: 'User';
  actor_id: number;
  actor_name: string;
  object_type: 'Lock';
  object_id: number;
  object_name: string;
  organization_id: number;
  place_id: number;
  success: boolean;
  type: 'lock.unlock';
  error_code: string | null;
  error_message: string | null;
  created_at: string;
};

/** Kisi's refusal codes and messages for an unlock (docs/kisi-api.md). */
export const UNLOCK_FAILURES = {
  accessDisabled: ['fcd8ff', 'Access disabled.'],
  accessDenied: ['afc496', 'Access denied.'],
  lockedDown: ['fad001', 'The door is currently locked down.'],
  offline: ['fad107', 'The wireless lock is offline.'],
} as const;
export type UnlockFailure = (typeof UNLOCK_FAILURES)[keyof typeof UNLOCK_FAILURES];

/** Why an unlock is refused, in Kisi's order (the door's state first, then the person's rights); undefined = it opens. */
export async function unlockFailure(state: {
  lockedDown: boolean;
  online: boolean;
  accessEnabled: boolean;
  canOpen: () => Promise<boolean>;
}): Promise<UnlockFailure | undefined> {
  if (state.lockedDown) return UNLOCK_FAILURES.lockedDown;
  if (!state.online) return UNLOCK_FAILURES.offline;
  if (!state.accessEnabled) return UNLOCK_FAILURES.accessDisabled;
  return (await state.canOpen()) ? undefined : UNLOCK_FAILURES.accessDenied;
}

/** The event Kisi records (and posts as a webhook) for one unlock attempt. */
export const unlockEvent = (
  uuid: string,
  user: { id: number; name: string },
  lock: { id: number; name: string; place_id: number },
  failure: UnlockFailure | undefined,
  at: string,
): EmulatorUnlockEvent => ({
  uuid,
  actor_type: 'User',
  actor_id: user.id,
  actor_name: user.name,
  object_type: 'Lock',
  object_id: lock.id,
  object_name: lock.name,
  organization_id: ORGANIZATION.id,
  place_id: lock.place_id,
  success: !failure,
  type: 'lock.unlock',
  error_code: failure?.[0] ?? null,
  error_message: failure?.[1] ?? null,
  created_at: at,
});

type RecordedEvent = { uuid: string; type: string; created_at: string };

/**
 * The filters of GET /events. Kisi's current spec reads history through event sets and no longer
 * documents the classic `GET /events` (what kisi-client's `get('events', params)` calls), so these
 * names are the emulator's choice: the event-set filters without their `event_` prefix.
 * - `type`, `uuid`: comma-separated lists (`type=lock.unlock`);
 * - `actor_type`, `actor_id`, `object_type`, `object_id`, `place_id`, `success` (`true`/`false`);
 * - `since` (at or after) and `until` (before): ISO-8601 date-times, compared to the second.
 * - `limit` 50 (the event sets' page) up to 250, `offset`; newest first.
 * `since` is inclusive so that a client catching up can ask from the newest `created_at` it holds
 * and drop the uuids it already has, without losing another event of that same second.
 * As in the emulator's other lists, an id that is not a whole number matches nothing and a
 * `success` that is neither true nor false is ignored; a time that cannot be read is refused (400),
 * since ignoring it would hand a catching-up client the whole history.
 */
export interface EventFilter {
  types?: string[];
  uuids?: string[];
  actorType?: string;
  actorId?: number;
  objectType?: string;
  objectId?: number;
  placeId?: number;
  success?: boolean;
  since?: string;
  until?: string;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;
const list = (text: string | undefined) => (text === undefined ? undefined : text.split(',').map((s) => s.trim()).filter(Boolean));

export function eventFilter(q: ListParams['q']): EventFilter | { error: string } {
  const time = (name: 'since' | 'until', round: (seconds: number) => number) => {
    const text = q[name];
    if (text === undefined) return undefined;
    const ms = DATE_TIME.test(text) ? Date.parse(text) : NaN;
    return Number.isNaN(ms) ? null : kisiTime(round(ms / 1000) * 1000);
  };
  // Stored times are whole seconds: `since` 10:00:00.5 still takes 10:00:00, `until` 10:00:00.5 too.
  const since = time('since', Math.floor);
  const until = time('until', Math.ceil);
  if (since === null) return { error: 'since must be an ISO-8601 date-time.' };
  if (until === null) return { error: 'until must be an ISO-8601 date-time.' };
  const id = (text: string | undefined) => (text === undefined ? undefined : (intParam(text) ?? 0));
  return {
    types: list(q.type),
    uuids: list(q.uuid),
    actorType: q.actor_type,
    actorId: id(q.actor_id),
    objectType: q.object_type,
    objectId: id(q.object_id),
    placeId: id(q.place_id),
    success: boolParam(q.success),
    since,
    until,
  };
}

type StoredEvent = Partial<EmulatorUnlockEvent> & RecordedEvent;

/**
 * An event as Kisi's Event schema has it, from what the emulator recorded: the webhook body plus
 * the actor's email, the action (the type's verb), and no credential or authorising role (the
 * emulator does not record them). The message follows the wording of Kisi's older webhook samples.
 */
function toKisiEvent(e: StoredEvent, actorEmail: string | null) {
  const actor = e.actor_name ?? 'Someone';
  const object = e.object_name ?? '';
  const message =
    e.type !== 'lock.unlock' ? null : e.success ? `${actor} unlocked lock ${object}` : `${actor} could not unlock lock ${object}: ${e.error_message ?? 'Access denied.'}`;
  return {
    uuid: e.uuid,
    type: e.type,
    actor_type: e.actor_type ?? null,
    actor_id: e.actor_id ?? null,
    actor_name: e.actor_name ?? null,
    actor_email: actorEmail,
    authenticated_by_type: null,
    authenticated_by_id: null,
    authorized_by_type: null,
    authorized_by_id: null,
    authorized_by_role_id: null,
    object_type: e.object_type ?? '',
    object_id: e.object_id ?? 0,
    object_name: object,
    action: e.type.split('.').pop()!,
    created_at: e.created_at,
    message,
    success: e.success ?? true,
    code: e.error_code ?? null,
    sequence: e.uuid,
    organization_id: e.organization_id ?? ORGANIZATION.id,
    place_id: e.place_id ?? null,
    error_code: e.error_code ?? null,
    error_message: e.error_message ?? null,
    details: {},
    via: {},
  };
}

export function eventsStore(db: EmulatorDb) {
  /** Records events in the given order (oldest first), a few hundred per statement. */
  async function recordEvents(events: RecordedEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 200) {
      const rows = events.slice(i, i + 200).map((event) => ({ uuid: event.uuid, type: event.type, payload: JSON.stringify(event), created_at: event.created_at }));
      await db.insertInto('kisi_emu_events').values(rows).execute();
    }
  }
  const recordEvent = (event: RecordedEvent) => recordEvents([event]);

  /**
   * Newest first. Type, uuid and time are columns and filter in SQL; the rest lives in the recorded
   * body, read here rather than with an engine's JSON functions so the schema stays engine-neutral.
   */
  async function listEvents(filter: EventFilter, params: ListParams) {
    let query = db.selectFrom('kisi_emu_events').select(['id', 'payload']);
    if (filter.types) query = query.where('type', 'in', filter.types.length ? filter.types : ['']);
    if (filter.uuids) query = query.where('uuid', 'in', filter.uuids.length ? filter.uuids : ['']);
    if (filter.since) query = query.where('created_at', '>=', filter.since);
    if (filter.until) query = query.where('created_at', '<', filter.until);
    const newestFirst = <Q extends typeof query>(qb: Q) => qb.orderBy('created_at', 'desc').orderBy('id', 'desc');

    const matches = (e: StoredEvent) =>
      (filter.actorType === undefined || e.actor_type === filter.actorType) &&
      (filter.actorId === undefined || e.actor_id === filter.actorId) &&
      (filter.objectType === undefined || e.object_type === filter.objectType) &&
      (filter.objectId === undefined || e.object_id === filter.objectId) &&
      (filter.placeId === undefined || e.place_id === filter.placeId) &&
      (filter.success === undefined || e.success === filter.success);
    const inBody = [filter.actorType, filter.actorId, filter.objectType, filter.objectId, filter.placeId, filter.success].some((f) => f !== undefined);

    let page: StoredEvent[];
    let total: number;
    if (inBody) {
      const all = (await newestFirst(query).execute()).map((r) => JSON.parse(r.payload) as StoredEvent).filter(matches);
      page = all.slice(params.offset, params.offset + params.limit);
      total = all.length;
    } else {
      const result = await pagedQuery(query as never, params, newestFirst as never);
      page = (result.rows as Array<{ payload: string }>).map((r) => JSON.parse(r.payload) as StoredEvent);
      total = result.total;
    }

    const actorIds = [...new Set(page.flatMap((e) => (e.actor_type === 'User' && e.actor_id ? [e.actor_id] : [])))];
    const users = actorIds.length ? await db.selectFrom('kisi_emu_users').select(['id', 'email']).where('id', 'in', actorIds).execute() : [];
    const emails = new Map(users.map((u) => [u.id, u.email]));
    return { items: page.map((e) => toKisiEvent(e, e.actor_type === 'User' && e.actor_id ? (emails.get(e.actor_id) ?? null) : null)), total };
  }

  return { recordEvent, recordEvents, listEvents };
}
export type EventsStore = ReturnType<typeof eventsStore>;

export function eventsRoutes(store: EventsStore) {
  const router = Router();

  router.get('/events', async (req, res) => {
    const params = listParams(req, LIMITS.events);
    const filter = eventFilter(params.q);
    if ('error' in filter) return void kisiError(res, 400, filter.error, '000400');
    sendCollection(res, params, await store.listEvents(filter, params));
  });

  return router;
}
