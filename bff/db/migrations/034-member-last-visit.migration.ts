import type { Kysely } from 'kysely';
import { fillLastVisits } from '../member-visits';

/**
 * A member's last visit is kept on their row (issue 51), moved forward as each successful unlock of
 * their email is stored (`recordVisitIn`, bff/db/member-visits.ts, in the event's own transaction):
 * the list sorted by last visit then reads one index instead of looking up the newest unlock of every
 * member and sorting them all (117 ms a page with two years of door events, 2.3 s at 8 connections).
 * Filled here from the unlocks already stored, one index walk per member (as the demo's seeding does).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('gym_users').addColumn('last_visit_at', 'text').execute();
  await fillLastVisits(db);
  await db.schema.createIndex('gym_users_last_visit_idx').on('gym_users').columns(['last_visit_at', 'id']).execute();
}
