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
  /** The person with this (lower-cased) email came in at `at`, if that is newer than their last visit. */
  return async (event: { type: string; success: boolean | number; actorEmail: string | null; createdAt: string }): Promise<void> => {
    if (event.type !== UNLOCK_EVENT_TYPE || !event.success || !event.actorEmail) return;
    await db
      .updateTable('gym_users')
      .set({ last_visit_at: event.createdAt })
      .where('email', '=', event.actorEmail)
      .where((eb) => eb.or([eb('last_visit_at', 'is', null), eb('last_visit_at', '<', event.createdAt)]))
      .execute();
  };
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
