import { sql } from 'kysely';
import { ATTENDANCE_WEEKS, RECENT_VISIT_DAYS, type MemberAttendance } from '../../contracts/gym.contract';
import { UNLOCK_EVENT_TYPE } from '../../contracts/webhook.contract';
import type { Db } from '../../db/database';
import { addDays, zonedDay, zonedDayStart } from '../../lib/time-zone';

/**
 * Visits: a member's successful door unlocks, read straight from `kisi_events` (a shared table of
 * db/schema.ts, written only by the webhooks feature), which keeps each member's last visit on their
 * row as it stores them (bff/db/member-visits.ts). Only reads live here.
 */

/**
 * The newest successful unlock of this (lower-cased) email, as a subquery: off
 * `kisi_events_actor_idx` (actor_email, type, created_at), walked newest first, it stops at the first
 * successful unlock instead of reading the person's whole history. A new member's last visit starts
 * from it; from then on the stored unlocks move it (`recordVisitIn`, bff/db/member-visits.ts).
 */
export const newestVisitOf = (db: Db, email: string) =>
  db
    .selectFrom('kisi_events as visit')
    .select('visit.created_at')
    .where('visit.actor_email', '=', email)
    .where('visit.type', '=', UNLOCK_EVENT_TYPE)
    .where('visit.success', '=', 1)
    .orderBy('visit.created_at', 'desc')
    .limit(1);

/** The Monday (YYYY-MM-DD) of the week of `day`: the venue's weeks start on Monday. */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/**
 * `timeZone`: the venue's (`VENUE_TIME_ZONE`). A member's visits are kept as quarter hours
 * (`member_visits`, migration 036, decision 0104); the venue day of each is worked out here, as it is
 * read, so a day is counted once however many quarter hours of it they came in.
 */
export function visitsRepository(db: Db, timeZone: string) {
  /** The venue days of the members' visits from the start of `fromDay` up to the end of `toDay`, per member. */
  async function daysOf(memberIds: readonly number[], fromDay: string, toDay: string): Promise<Map<number, Set<string>>> {
    const days = new Map<number, Set<string>>(memberIds.map((id) => [id, new Set()]));
    if (memberIds.length === 0) return days;
    // One range of the primary key (member_id, at) per member: a page of members, at most its weeks.
    const rows = await db
      .selectFrom('member_visits')
      .select(['member_id', 'at'])
      .where('member_id', 'in', [...memberIds])
      .where('at', '>=', zonedDayStart(fromDay, timeZone).toISOString())
      .where('at', '<', zonedDayStart(addDays(toDay, 1), timeZone).toISOString())
      .execute();
    for (const row of rows) days.get(row.member_id)?.add(zonedDay(Date.parse(row.at), timeZone));
    return days;
  }

  return {
    /** A member's attendance at `now`: today, this week and the last ATTENDANCE_WEEKS weeks by their Mondays. */
    async attendanceOf(member: { id: number; lastVisitAt: string | null }, now: Date): Promise<MemberAttendance> {
      const today = zonedDay(now, timeZone);
      const firstMonday = addDays(mondayOf(today), -7 * (ATTENDANCE_WEEKS - 1));
      const days = (await daysOf([member.id], firstMonday, today)).get(member.id)!;
      const weeks = Array.from({ length: ATTENDANCE_WEEKS }, (_, i) => {
        const start = addDays(firstMonday, 7 * i);
        const end = addDays(start, 7);
        return { start, days: [...days].filter((day) => day >= start && day < end).length };
      });
      return { timeZone, today, cameToday: days.has(today), thisWeek: weeks.at(-1)!.days, lastVisitAt: member.lastVisitAt, weeks };
    },

    /** The venue days each member came in the last RECENT_VISIT_DAYS days (today included): the list's column, one read for the page. */
    async recentVisitDays(memberIds: readonly number[], now: Date): Promise<Map<number, number>> {
      const today = zonedDay(now, timeZone);
      const days = await daysOf(memberIds, addDays(today, -(RECENT_VISIT_DAYS - 1)), today);
      return new Map([...days].map(([id, set]) => [id, set.size]));
    },

    /** When the member last came in (their row keeps it, migration 034). */
    lastVisitOf: async (memberId: number): Promise<string | null | undefined> =>
      (await db.selectFrom('gym_users').select('last_visit_at').where('id', '=', memberId).executeTakeFirst())?.last_visit_at,

    /**
     * The people the doors let in (Kisi's clock) at or after `since`, each once however many doors
     * they opened: a range of `kisi_events_created_idx`. A person is their email; an unlock with none
     * (a remote unlock by the integration) is its actor, and failing that the event itself.
     */
    countVisitorsSince: async (since: string): Promise<number> =>
      Number(
        (
          await db
            .selectFrom('kisi_events')
            .select((eb) => eb.fn.count<number>(sql`coalesce(actor_email, actor_type || ':' || actor_id, uuid)`).distinct().as('n'))
            .where('created_at', '>=', since)
            .where('type', '=', UNLOCK_EVENT_TYPE)
            .where('success', '=', 1)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
export type VisitsRepository = ReturnType<typeof visitsRepository>;
