import { sql, type Kysely } from 'kysely';
// The schema's own type rather than database.ts's `Db`: migration 031 fills these tables with this
// file, and database.ts reads the migrations (an import circle otherwise).
import type { DB } from './schema';

type Db = Kysely<DB>;

/**
 * The door events' small tables (migration 031, decision 0100): each event type, each door (lock)
 * and each person (a name and email pair, `''` for one Kisi left out) with how many stored events
 * are theirs. The inbox's filter choices read them, and its person filter finds the people whose
 * name or email holds the text here (a contains index over 20,000 people, not 2,000,000 events),
 * then their events by index. Every write of `kisi_events` counts what it adds and takes away here,
 * in its own transaction: the webhook and the catch-up (`insertOnce`), the email filled in later, a
 * delete from the inbox, the retention purge and an erasure. A row whose count reaches 0 goes, so a
 * door, a type or an erased person with no events left is no longer offered or found.
 */

/** Kisi's `object_type` of a door (as the contract's DOOR_OBJECT_TYPE). */
const DOOR = 'Lock';

/**
 * What of an event the tables count: its type, its door and its person (`n` events alike: 1 unless
 * said). A write that changes only who it was (an erasure, an email filled in) gives only the person.
 */
export interface CountedEvent {
  type?: string;
  object_type?: string | null;
  object_id?: number | null;
  actor_name: string | null;
  actor_email: string | null;
  n?: number;
}

/** The people table's key of an event's person (undefined: no person named at all). */
export const personOf = (e: Pick<CountedEvent, 'actor_name' | 'actor_email'>) =>
  e.actor_name === null && e.actor_email === null ? undefined : { name: e.actor_name ?? '', email: e.actor_email ?? '' };

const tally = <K>(into: Map<string, { key: K; n: number }>, id: string, key: K, n: number) => {
  const seen = into.get(id);
  if (seen) seen.n += n;
  else into.set(id, { key, n });
};

/** Keys in one order for every writer, so two transactions lock the rows they share in the same order. */
const sorted = <K>(counts: Map<string, { key: K; n: number }>) =>
  [...counts.entries()]
    .filter(([, c]) => c.n !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, c]) => c);

/** Rows per statement: a retention batch's people stay well under either engine's limit of bound values. */
const CHUNK = 500;
const chunks = <T>(items: readonly T[]) => Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * Counts `events` in (`by` 1: they were stored) or out (`by` -1: deleted, or about to be rewritten),
 * in the transaction `db` of that write. Each row's count moves in one upsert (a row locked by a
 * concurrent writer is waited for, on PostgreSQL), and a row left at 0 is deleted.
 */
export async function countEvents(db: Db, events: readonly CountedEvent[], by: 1 | -1): Promise<void> {
  if (events.length === 0) return;
  const types = new Map<string, { key: string; n: number }>();
  const doors = new Map<string, { key: number; n: number }>();
  const people = new Map<string, { key: { name: string; email: string }; n: number }>();
  for (const e of events) {
    const n = by * (e.n ?? 1);
    if (e.type !== undefined) tally(types, e.type, e.type, n);
    if (e.object_type === DOOR && typeof e.object_id === 'number') tally(doors, String(e.object_id).padStart(16, '0'), e.object_id, n);
    const person = personOf(e);
    if (person) tally(people, JSON.stringify([person.name, person.email]), person, n);
  }
  for (const part of chunks(sorted(types))) {
    await db
      .insertInto('kisi_event_types')
      .values(part.map((c) => ({ type: c.key, events: c.n })))
      .onConflict((oc) => oc.column('type').doUpdateSet({ events: (eb) => eb('kisi_event_types.events', '+', eb.ref('excluded.events')) }))
      .execute();
  }
  for (const part of chunks(sorted(doors))) {
    await db
      .insertInto('kisi_event_doors')
      .values(part.map((c) => ({ id: c.key, events: c.n })))
      .onConflict((oc) => oc.column('id').doUpdateSet({ events: (eb) => eb('kisi_event_doors.events', '+', eb.ref('excluded.events')) }))
      .execute();
  }
  for (const part of chunks(sorted(people))) {
    await db
      .insertInto('kisi_event_people')
      .values(part.map((c) => ({ name: c.key.name, email: c.key.email, events: c.n })))
      .onConflict((oc) => oc.columns(['name', 'email']).doUpdateSet({ events: (eb) => eb('kisi_event_people.events', '+', eb.ref('excluded.events')) }))
      .execute();
  }
  if (by > 0) return;
  // What has no events left goes (looked up by the keys just counted down).
  for (const part of chunks([...types.values()])) {
    await db.deleteFrom('kisi_event_types').where('events', '<=', 0).where('type', 'in', part.map((c) => c.key)).execute();
  }
  for (const part of chunks([...doors.values()])) {
    await db.deleteFrom('kisi_event_doors').where('events', '<=', 0).where('id', 'in', part.map((c) => c.key)).execute();
  }
  for (const part of chunks([...people.values()])) {
    await db.deleteFrom('kisi_event_people').where('events', '<=', 0).where('name', 'in', [...new Set(part.map((c) => c.key.name))]).execute();
  }
}

/**
 * Counts every stored event into the three tables again, from nothing: migration 031's backfill (a
 * venue upgrading with years of events), and the history bench's after it writes its raw rows. Three
 * grouped reads of `kisi_events`, each written in one statement.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- also run by migrations, on an untyped database
export async function fillKisiEventChoices(db: Kysely<any>): Promise<void> {
  for (const table of ['kisi_event_types', 'kisi_event_doors', 'kisi_event_people']) await db.deleteFrom(table).execute();
  await sql`insert into kisi_event_types (type, events) select type, count(*) from kisi_events group by type`.execute(db);
  await sql`insert into kisi_event_doors (id, events)
    select object_id, count(*) from kisi_events where object_type = ${DOOR} and object_id is not null group by object_id`.execute(db);
  await sql`insert into kisi_event_people (name, email, events)
    select coalesce(actor_name, ''), coalesce(actor_email, ''), count(*) from kisi_events
    where actor_name is not null or actor_email is not null
    group by coalesce(actor_name, ''), coalesce(actor_email, '')`.execute(db);
}
