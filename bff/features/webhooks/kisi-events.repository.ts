import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import type { PageQuery } from '../../contracts/common.contract';
import { DOOR_OBJECT_TYPE, UNLOCK_EVENT_TYPE, type EventFilter, type EventFilterChoices, type EventListQuery, type KisiEvent } from '../../contracts/webhook.contract';
import type { Db } from '../../db/database';
import { containsText } from '../../db/engine';
import type { DB, KisiEventsTable } from '../../db/schema';
import { paginate } from '../../lib/paginate';

export const toKisiEvent = (row: Selectable<KisiEventsTable>): KisiEvent => ({
  id: row.id,
  uuid: row.uuid,
  type: row.type,
  actorType: row.actor_type,
  actorId: row.actor_id,
  actorName: row.actor_name,
  actorEmail: row.actor_email,
  objectType: row.object_type,
  objectId: row.object_id,
  objectName: row.object_name,
  placeId: row.place_id,
  success: row.success === 1,
  errorCode: row.error_code,
  errorMessage: row.error_message,
  createdAt: row.created_at,
  receivedAt: row.received_at,
});

/** Kisi's actor type of a person (the only actors with an email). */
export const KISI_USER_ACTOR = 'User';

/** An event of a Kisi user (or of an actor Kisi gave no type) stored without the actor's email. */
const userWithoutEmail = (eb: ExpressionBuilder<DB, 'kisi_events'>) =>
  eb.and([eb('actor_email', 'is', null), eb.or([eb('actor_type', 'is', null), eb('actor_type', '=', KISI_USER_ACTOR)])]);

/** `app_meta` keys of the catch-up with Kisi's event log (kisi-events.catch-up.ts). */
const CAUGHT_UP_KEY = 'kisi_events.caught_up_to';
const LEASE_KEY = 'kisi_events.catch_up_lease';
const DELETED_PREFIX = 'kisi_events.deleted:';
/** Written by db/seed.ts when this database was first started. */
const FIRST_START_KEY = 'seeded_at';

/** Kisi events received by webhook, one row per uuid. */
export function kisiEventsRepository(db: Db) {
  /**
   * The events a filter lets through. The person is a contains over name and email (no index helps a
   * match in the middle of a word; the other conditions and the time order narrow the walk first).
   */
  const matching = (filter: EventFilter) => {
    let q = db.selectFrom('kisi_events');
    if (filter.person) q = q.where(containsText(['actor_name', 'actor_email'], filter.person));
    if (filter.doorId) q = q.where('object_type', '=', DOOR_OBJECT_TYPE).where('object_id', '=', filter.doorId);
    if (filter.result) q = q.where('success', '=', filter.result === 'granted' ? 1 : 0);
    if (filter.type) q = q.where('type', '=', filter.type);
    if (filter.since) q = q.where('created_at', '>=', filter.since);
    if (filter.before) q = q.where('created_at', '<', filter.before);
    return q;
  };
  const meta = async (key: string) => (await db.selectFrom('app_meta').select('value').where('key', '=', key).executeTakeFirst())?.value;
  return {
    exists: async (uuid: string) => !!(await db.selectFrom('kisi_events').select('id').where('uuid', '=', uuid).executeTakeFirst()),

    /**
     * Kisi user ids with events stored without the actor's email (a lookup at Kisi's rate limit that
     * had to wait), at most `limit`, leaving out `skip` (ids Kisi has no email for). Read off
     * `kisi_events_actor_idx` (the email null).
     */
    async actorsWithoutEmail(limit: number, skip: readonly number[] = []): Promise<number[]> {
      let q = db
        .selectFrom('kisi_events')
        .select('actor_id')
        .distinct()
        .where(userWithoutEmail)
        .where('actor_id', 'is not', null);
      if (skip.length > 0) q = q.where('actor_id', 'not in', skip);
      return (await q.limit(limit).execute()).map((row) => Number(row.actor_id));
    },

    /** Gives every event of Kisi user `actorId` stored without an email that email; answers the events it filled. */
    async fillActorEmail(actorId: number, email: string): Promise<KisiEvent[]> {
      const rows = await db
        .updateTable('kisi_events')
        .set({ actor_email: email })
        .where('actor_id', '=', actorId)
        .where(userWithoutEmail)
        .returningAll()
        .execute();
      return rows.map(toKisiEvent).sort((a, b) => a.id - b.id);
    },

    /**
     * Stores the event; undefined when that uuid is already stored (a repeat delivery, even a racing
     * one). Decided by the insert itself, not a failed one: PostgreSQL would end the caller's transaction.
     */
    async insertOnce(values: Insertable<KisiEventsTable>): Promise<KisiEvent | undefined> {
      const row = await db.insertInto('kisi_events').values(values).onConflict((oc) => oc.column('uuid').doNothing()).returningAll().executeTakeFirst();
      return row && toKisiEvent(row);
    },

    /** Newest first (when it happened at Kisi; the id breaks ties), off `kisi_events_created_idx`. */
    list: (query: EventListQuery) =>
      paginate<KisiEvent>(
        query,
        async () => Number((await matching(query).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
        async (limit, offset) => (await matching(query).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()).map(toKisiEvent),
      ),

    /**
     * The next `limit` matching events after `last`, in the list's order (newest first, the id breaking
     * ties): a keyset read, so an export of every event never counts past the rows it has written.
     */
    matchingAfter: async (filter: EventFilter, last: KisiEvent | undefined, limit: number) => {
      let q = matching(filter);
      if (last) q = q.where((eb) => eb.or([eb('created_at', '<', last.createdAt), eb.and([eb('created_at', '=', last.createdAt), eb('id', '<', last.id)])]));
      return (await q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()).map(toKisiEvent);
    },

    /**
     * Each door (lock) once, named as its newest event names it, and each event type: what the
     * inbox's filters offer. Both reads walk an index of migration 013, not the table.
     */
    async filterChoices(): Promise<EventFilterChoices> {
      const newest = db
        .selectFrom('kisi_events')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('object_type', '=', DOOR_OBJECT_TYPE)
        .where('object_id', 'is not', null)
        .groupBy('object_id');
      const [doors, types] = await Promise.all([
        db.selectFrom('kisi_events').select(['object_id', 'object_name']).where('id', 'in', newest).execute(),
        db.selectFrom('kisi_events').select('type').distinct().orderBy('type').execute(),
      ]);
      return {
        doors: doors
          .map((d) => ({ id: d.object_id!, name: d.object_name ?? `Door #${d.object_id}` }))
          .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
        types: types.map((t) => t.type),
      };
    },

    /**
     * One person's door unlocks, newest first. Emails are stored lower-cased (the webhook parser
     * and the Kisi lookup both do it), so an equality on the lower-cased email uses
     * `kisi_events_actor_idx` (actor_email, type, created_at, and the rowid id) for filter and order.
     */
    unlocksOf: (email: string, page: PageQuery) => {
      const unlocks = () => db.selectFrom('kisi_events').where('actor_email', '=', email.toLowerCase()).where('type', '=', UNLOCK_EVENT_TYPE);
      return paginate<KisiEvent>(
        page,
        async () => Number((await unlocks().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
        async (limit, offset) => (await unlocks().selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()).map(toKisiEvent),
      );
    },

    /**
     * True when a row was deleted. The uuid is remembered first (with when the event happened), so a
     * catch-up that reads Kisi's log over that time again does not bring the event back.
     */
    async remove(id: number): Promise<boolean> {
      const row = await db.selectFrom('kisi_events').select(['uuid', 'created_at']).where('id', '=', id).executeTakeFirst();
      if (!row) return false;
      await db
        .insertInto('app_meta')
        .values({ key: `${DELETED_PREFIX}${row.uuid}`, value: row.created_at })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      return Number((await db.deleteFrom('kisi_events').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
    },

    // ---- the catch-up's bookkeeping (app_meta) ----

    /** When the newest stored event happened (Kisi's clock), undefined when none is stored. */
    newestCreatedAt: async () => (await db.selectFrom('kisi_events').select('created_at').orderBy('created_at', 'desc').limit(1).executeTakeFirst())?.created_at,
    /** When this database was first started (its seeding), undefined before that. */
    firstStart: () => meta(FIRST_START_KEY),
    /** Up to when (Kisi's clock) the event log has been read through and stored. */
    caughtUpTo: () => meta(CAUGHT_UP_KEY),
    /** Moves that mark forward, never back (two instances finishing in either order). */
    async setCaughtUpTo(at: string): Promise<void> {
      await db
        .insertInto('app_meta')
        .values({ key: CAUGHT_UP_KEY, value: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: at }).where('app_meta.value', '<', at))
        .execute();
    },
    /**
     * Takes the catch-up lease until `until` when nobody holds it or the holder's has run out (an
     * instance that died keeps it no longer than that); true when taken. Times are ISO strings.
     */
    async claimCatchUp(holder: string, now: string, until: string): Promise<boolean> {
      const value = `${until} ${holder}`;
      const taken = await db
        .insertInto('app_meta')
        .values({ key: LEASE_KEY, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }).where('app_meta.value', '<', now))
        .returning('key')
        .executeTakeFirst();
      return !!taken;
    },
    async releaseCatchUp(holder: string): Promise<void> {
      await db.deleteFrom('app_meta').where('key', '=', LEASE_KEY).where('value', 'like', `% ${holder}`).execute();
    },
    /** Which of these uuids were deleted from the inbox. */
    async deletedAmong(uuids: readonly string[]): Promise<Set<string>> {
      const deleted = new Set<string>();
      for (let i = 0; i < uuids.length; i += 500) {
        const keys = uuids.slice(i, i + 500).map((uuid) => `${DELETED_PREFIX}${uuid}`);
        const rows = await db.selectFrom('app_meta').select('key').where('key', 'in', keys).execute();
        for (const row of rows) deleted.add(row.key.slice(DELETED_PREFIX.length));
      }
      return deleted;
    },
    /** Forgets deletions of events older than `before`: no catch-up reads that far back any more. */
    async forgetDeletedBefore(before: string): Promise<void> {
      await db.deleteFrom('app_meta').where('key', 'like', `${DELETED_PREFIX}%`).where('value', '<', before).execute();
    },
  };
}
export type KisiEventsRepository = ReturnType<typeof kisiEventsRepository>;
