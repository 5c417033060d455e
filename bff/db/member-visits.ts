import { sql, type Kysely } from 'kysely';
import { UNLOCK_EVENT_TYPE } from '../contracts/webhook.contract';
// The schema's own type rather than database.ts's `Db`: migration 034 uses this file, and database.ts
// reads the migrations (an import circle otherwise).
import type { DB } from './schema';

type Db = Kysely<DB>;

/**
 * A member's last visit (`gym_users.last_visit_at`, migration 034): the door events are the webhooks
 * feature's, the member list the gym's; the write that stores a successful unlock moves the visit
 * forward here, in its own transaction, so the list sorted by last visit reads one index.
 */
export function recordVisitIn(db: Db) {
  /**
   * The person with this (lower-cased) email came in at `at`: their last visit moves if that is newer,
   * and the quarter hour is marked as one they came in (`member_visits`, once: their attendance).
   */
  return async (event: { type: string; success: boolean | number; actorEmail: string | null; createdAt: string }): Promise<void> => {
    if (event.type !== UNLOCK_EVENT_TYPE || !event.success || !event.actorEmail) return;
    await db
      .updateTable('gym_users')
      .set({ last_visit_at: event.createdAt })
      .where('email', '=', event.actorEmail)
      .where((eb) => eb.or([eb('last_visit_at', 'is', null), eb('last_visit_at', '<', event.createdAt)]))
      .execute();
    const at = quarterHourOf(event.createdAt);
    if (!at) return;
    await db
      .insertInto('member_visits')
      .columns(['member_id', 'at'])
      .expression(db.selectFrom('gym_users').select((eb) => ['id', eb.val(at).as('at')]).where('email', '=', event.actorEmail))
      .onConflict((oc) => oc.columns(['member_id', 'at']).doNothing())
      .execute();
  };
}

const QUARTER_MS = 15 * 60_000;

/**
 * The quarter hour (UTC ISO, minutes 00/15/30/45) an instant falls in: what `member_visits` keeps of
 * a visit (decision 0104). Every time zone's offset is a whole number of quarter hours, so the venue
 * day of a quarter hour is the day of every instant in it. Undefined for a time that is not one.
 */
export function quarterHourOf(iso: string): string | undefined {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? new Date(Math.floor(ms / QUARTER_MS) * QUARTER_MS).toISOString() : undefined;
}

/** A quarter hour (see {@link quarterHourOf}) of a stored ISO time column, in SQL both engines run. */
const quarterHourSql = (column: string) => {
  const minutes = sql`substr(${sql.ref(column)}, 15, 2)`;
  return sql<string>`substr(${sql.ref(column)}, 1, 14) || case when ${minutes} < '15' then '00' when ${minutes} < '30' then '15' when ${minutes} < '45' then '30' else '45' end || ':00.000Z'`;
};

/** Every member's visits from the unlocks already stored: members written in bulk (the demo's seeding, the history bench). */
export async function fillMemberVisits(db: Db): Promise<void> {
  await db
    .insertInto('member_visits')
    .columns(['member_id', 'at'])
    .expression(
      db
        .selectFrom('kisi_events as e')
        .innerJoin('gym_users as u', 'u.email', 'e.actor_email')
        .select(['u.id', quarterHourSql('e.created_at').as('at')])
        .distinct()
        .where('e.type', '=', UNLOCK_EVENT_TYPE)
        .where('e.success', '=', 1),
    )
    .onConflict((oc) => oc.columns(['member_id', 'at']).doNothing())
    .execute();
}

/**
 * Members' visits from the unlocks of their emails already stored (a returning member, a Kisi user
 * before they were a member), as migration 036 fills everyone's: off `kisi_events_actor_idx`, a few
 * hundred members a statement.
 */
export async function fillVisitsOf(db: Db, memberIds: readonly number[]): Promise<void> {
  for (let i = 0; i < memberIds.length; i += 200) {
    await db
      .insertInto('member_visits')
      .columns(['member_id', 'at'])
      .expression(
        db
          .selectFrom('gym_users as u')
          .innerJoin('kisi_events as e', 'e.actor_email', 'u.email')
          .select(['u.id', quarterHourSql('e.created_at').as('at')])
          .distinct()
          .where('u.id', 'in', memberIds.slice(i, i + 200))
          .where('e.type', '=', UNLOCK_EVENT_TYPE)
          .where('e.success', '=', 1),
      )
      .onConflict((oc) => oc.columns(['member_id', 'at']).doNothing())
      .execute();
  }
}

/**
 * Every member's last visit from the unlocks already stored (emails are stored lower-cased on both
 * sides): migration 034, members written in bulk (the demo's seeding, the history bench).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- also run by the migration, on an untyped database
export async function fillLastVisits(db: Kysely<any>): Promise<void> {
  await sql`update gym_users set last_visit_at = (
      select visit.created_at from kisi_events as visit
      where visit.actor_email = gym_users.email and visit.type = 'lock.unlock' and visit.success = 1
      order by visit.created_at desc limit 1)`.execute(db);
}
