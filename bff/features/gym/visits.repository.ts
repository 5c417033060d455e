import { sql } from 'kysely';
import { UNLOCK_EVENT_TYPE } from '../../contracts/webhook.contract';
import type { Db } from '../../db/database';

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

export function visitsRepository(db: Db) {
  return {
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
