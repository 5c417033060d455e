import { sql, type Expression, type ExpressionBuilder, type Insertable, type Selectable, type SqlBool } from 'kysely';
import type { CursorPageQuery, Page } from '../../contracts/common.contract';
import { DOOR_OBJECT_TYPE, UNLOCK_EVENT_TYPE, type EventFilter, type EventFilterChoices, type EventListQuery, type KisiEvent } from '../../contracts/webhook.contract';
import { appMetaValue, claimAppMetaLease } from '../../db/app-meta';
import type { Database, Db } from '../../db/database';
import { containsText } from '../../db/engine';
import { countEvents } from '../../db/kisi-event-choices';
import { recordVisitIn } from '../../db/member-visits';
import { creditRemoteUnlock, withRequesters } from '../../db/remote-unlocks';
import type { DB, KisiEventsTable } from '../../db/schema';
import { keysetPaginate, type KeysetOrder } from '../../lib/paginate';

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
  requestedBy: null,
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

/** The inbox's order: when it happened at Kisi, newest first, the id breaking ties (every filter's index ends in these). */
const NEWEST_FIRST: KeysetOrder = {
  direction: 'desc',
  columns: [
    ['created_at', 'text'],
    ['id', 'integer'],
  ],
};

/**
 * A page and its count read at most this many matching events along an index ordered as the list
 * (the page and one more, and the count's 1,000).
 */
const PAGE_AND_COUNT_ROWS = 1_012;
/** The people of a person filter named in a list of bound values (two per person at most), within both engines' limits. */
const LISTED_PEOPLE = 5_000;

/**
 * Whether a person filter's events are read along the time order, filtered, rather than off the name
 * and email indexes and sorted. Along the time order a page and its count read about
 * PAGE_AND_COUNT_ROWS × all / theirs events; off the indexes, all of theirs. So the time order once
 * theirs are more than √(PAGE_AND_COUNT_ROWS × all): with 2,000,000 events, past about 45,000 of
 * them ("Member 17": 111,000, a page and its count within 19,000 rows; "Member 199": 11,100, sorted).
 */
const alongTheTimeOrder = (theirs: number, all: number, people: number) => theirs * theirs > PAGE_AND_COUNT_ROWS * all || people > LISTED_PEOPLE;

/**
 * Kisi events received by webhook, one row per uuid. `containsMatch` (the database's contains index)
 * finds the people of a person filter; without it (a write's repository) a plain contains does.
 */
export function kisiEventsRepository(db: Db, containsMatch: Database['containsMatch'] = (_table, columns, text) => containsText(columns, text)) {
  const recordVisit = recordVisitIn(db);
  /**
   * The events of the people whose name or email holds `text`: found in `kisi_event_people` (its
   * contains index), then their events off `kisi_events_actor_name_idx` / `_email_idx`, or, when they
   * have a great many ({@link alongTheTimeOrder}), along the time order with their names and emails as
   * a filter (written so that no index is taken for it: `actor_name || ''`).
   */
  type PersonCondition = (eb: ExpressionBuilder<DB, 'kisi_events'>) => Expression<SqlBool>;
  async function personCondition(text: string): Promise<{ page: PersonCondition; count: PersonCondition }> {
    const found = db.selectFrom('kisi_event_people').where(containsMatch('kisi_event_people', ['name', 'email'], text));
    const byName = containsText(['name'], text);
    const byEmail = containsText(['email'], text);
    const [{ people, theirs }, { all }] = await Promise.all([
      found.select((eb) => [eb.fn.countAll<number>().as('people'), eb.fn.coalesce(eb.fn.sum<number>('events'), eb.lit(0)).as('theirs')]).executeTakeFirstOrThrow(),
      db.selectFrom('kisi_event_types').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('events'), eb.lit(0)).as('all')).executeTakeFirstOrThrow(),
    ]);
    const walked: PersonCondition = (eb) =>
      eb.or([eb(sql<string>`${sql.ref('actor_name')} || ''`, 'in', found.select('name').where(byName)), eb(sql<string>`${sql.ref('actor_email')} || ''`, 'in', found.select('email').where(byEmail))]);
    if (Number(people) > LISTED_PEOPLE) return { page: walked, count: walked };
    const names = (await found.select('name').where(byName).where('name', '<>', '').execute()).map((p) => p.name);
    const emails = (await found.select('email').where(byEmail).where('email', '<>', '').execute()).map((p) => p.email);
    const indexed: PersonCondition = (eb) =>
      eb.or([
        ...(names.length > 0 ? [eb('actor_name', 'in', [...new Set(names)])] : []),
        ...(emails.length > 0 ? [eb('actor_email', 'in', [...new Set(emails)])] : []),
        ...(names.length + emails.length === 0 ? [sql<SqlBool>`1 = 0`] : []),
      ]);
    // Many events: the page walks the time order; the count (no further than 1,000 past the page) reads their indexes.
    return alongTheTimeOrder(Number(theirs), Number(all), Number(people)) ? { page: walked, count: indexed } : { page: indexed, count: indexed };
  }

  /** The events a filter lets through (the person's people looked up first), nothing selected yet: as the page reads them, and as the count does. */
  const matching = async (filter: EventFilter) => {
    const person = filter.person ? await personCondition(filter.person) : undefined;
    const built = (forCount: boolean) => {
      let q = db.selectFrom('kisi_events');
      if (person) q = q.where(forCount ? person.count : person.page);
      if (filter.doorId) q = q.where('object_type', '=', DOOR_OBJECT_TYPE).where('object_id', '=', filter.doorId);
      if (filter.result) q = q.where('success', '=', filter.result === 'granted' ? 1 : 0);
      if (filter.type) q = q.where('type', '=', filter.type);
      if (filter.since) q = q.where('created_at', '>=', filter.since);
      if (filter.before) q = q.where('created_at', '<', filter.before);
      return q;
    };
    return { rows: () => built(false), counted: () => built(true) };
  };
  const meta = (key: string) => appMetaValue(db, key);
  /** A page's events with who pressed each remote unlock among them (one read of `remote_unlock_requests` by event id). */
  const withRequestersOnPage = async (page: Page<KisiEvent>): Promise<Page<KisiEvent>> => ({ ...page, items: await withRequesters(db, page.items) });
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

    /**
     * Gives every event of Kisi user `actorId` stored without an email that email; answers the events
     * it filled. In a transaction: they move from the person without an email to the one with it.
     */
    async fillActorEmail(actorId: number, email: string): Promise<KisiEvent[]> {
      const rows = await db
        .updateTable('kisi_events')
        .set({ actor_email: email })
        .where('actor_id', '=', actorId)
        .where(userWithoutEmail)
        .returningAll()
        .execute();
      const events = await withRequesters(db, rows.map(toKisiEvent).sort((a, b) => a.id - b.id));
      // The member with that email came in when these unlocks happened. Members before the counts, as
      // every write of door events and an erasure take them: PostgreSQL never waits on them crosswise.
      for (const event of events) await recordVisit(event);
      // Only the person changes: from the one without an email to the one with it (type and door stay).
      await countEvents(db, rows.map((r) => ({ actor_name: r.actor_name, actor_email: null })), -1);
      await countEvents(db, rows.map((r) => ({ actor_name: r.actor_name, actor_email: r.actor_email })), 1);
      return events;
    },

    /**
     * Stores the event; undefined when that uuid is already stored (a repeat delivery, even a racing
     * one). Decided by the insert itself, not a failed one: PostgreSQL would end the caller's transaction.
     */
    async insertOnce(values: Insertable<KisiEventsTable>): Promise<KisiEvent | undefined> {
      const row = await db.insertInto('kisi_events').values(values).onConflict((oc) => oc.column('uuid').doNothing()).returningAll().executeTakeFirst();
      if (!row) return undefined;
      // A member's unlock moves their last visit (the member list's order), and its type, door and
      // person are counted (the filter choices, the person filter): in this transaction, members first.
      const event = toKisiEvent(row);
      await recordVisit(event);
      await countEvents(db, [row], 1);
      // A remote unlock pressed in Frontdesk: the account that asked for it (decision 0103).
      return { ...event, requestedBy: await creditRemoteUnlock(db, event) };
    },

    /**
     * Newest first (when it happened at Kisi; the id breaks ties), a page from its cursor along the
     * index of the narrowest filter, the count stopping at 1,000 past it.
     */
    async list({ page, pageSize, next, previous, ...filter }: EventListQuery): Promise<Page<KisiEvent>> {
      const { rows, counted } = await matching(filter);
      return withRequestersOnPage(
        await keysetPaginate(db, { page, pageSize, next, previous }, { matching: rows, counting: counted, order: NEWEST_FIRST, select: (q) => q.selectAll(), toItem: toKisiEvent }),
      );
    },

    /**
     * The next `limit` matching events after `last`, in the list's order (newest first, the id breaking
     * ties): a keyset read, so an export of every event never counts past the rows it has written.
     */
    matchingAfter: async (filter: EventFilter, last: KisiEvent | undefined, limit: number) => {
      let q = (await matching(filter)).rows();
      if (last) q = q.where(sql<SqlBool>`(created_at, id) < (${last.createdAt}, ${last.id})`);
      return withRequesters(db, (await q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()).map(toKisiEvent));
    },

    /**
     * Each door (lock) once, named as its newest event names it, and each event type: what the
     * inbox's filters offer. Read from the small tables the writes keep (migration 031); a door's name
     * is one step down `kisi_events_object_idx` from its newest end.
     */
    async filterChoices(): Promise<EventFilterChoices> {
      const [doors, types] = await Promise.all([
        db
          .selectFrom('kisi_event_doors as d')
          .select('d.id')
          .select((eb) =>
            eb
              .selectFrom('kisi_events as e')
              .select('e.object_name')
              .where('e.object_type', '=', DOOR_OBJECT_TYPE)
              .whereRef('e.object_id', '=', 'd.id')
              .orderBy('e.created_at', 'desc')
              .orderBy('e.id', 'desc')
              .limit(1)
              .as('name'),
          )
          .execute(),
        db.selectFrom('kisi_event_types').select('type').orderBy('type').execute(),
      ]);
      return {
        doors: doors.map((d) => ({ id: d.id, name: d.name ?? `Door #${d.id}` })).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
        types: types.map((t) => t.type),
      };
    },

    /**
     * One person's door unlocks, newest first, a page from its cursor. Emails are stored lower-cased
     * (the webhook parser and the Kisi lookup both do it), so an equality on the lower-cased email
     * uses `kisi_events_actor_idx` (actor_email, type, created_at) for filter and order.
     */
    unlocksOf: async (email: string, query: CursorPageQuery): Promise<Page<KisiEvent>> =>
      withRequestersOnPage(
        await keysetPaginate(db, query, {
          matching: () => db.selectFrom('kisi_events').where('actor_email', '=', email.toLowerCase()).where('type', '=', UNLOCK_EVENT_TYPE),
          order: NEWEST_FIRST,
          select: (q) => q.selectAll(),
          toItem: toKisiEvent,
        }),
      ),

    /**
     * True when a row was deleted. The uuid is remembered first (with when the event happened), so a
     * catch-up that reads Kisi's log over that time again does not bring the event back. In a
     * transaction: the event is counted out of the filter choices with it.
     */
    async remove(id: number): Promise<boolean> {
      const row = await db.selectFrom('kisi_events').select(['uuid', 'created_at']).where('id', '=', id).executeTakeFirst();
      if (!row) return false;
      await db
        .insertInto('app_meta')
        .values({ key: `${DELETED_PREFIX}${row.uuid}`, value: row.created_at })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const gone = await db.deleteFrom('kisi_events').where('id', '=', id).returning(['type', 'object_type', 'object_id', 'actor_name', 'actor_email']).execute();
      await countEvents(db, gone, -1);
      return gone.length > 0;
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
    claimCatchUp: (holder: string, now: string, until: string): Promise<boolean> => claimAppMetaLease(db, LEASE_KEY, `${until} ${holder}`, now),
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
