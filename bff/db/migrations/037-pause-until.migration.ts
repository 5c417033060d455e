import type { Kysely } from 'kysely';

/**
 * A pause may end on a day (issue 52): `paused_until` is the venue's calendar day (YYYY-MM-DD) on
 * which the membership comes back to active; null while not paused or paused with no end. Kept on
 * the member's row, so the job that resumes pauses needs no state of its own: a server restarted, or
 * one that was down at midnight, finds the due ones on its next run. The index keeps that run to
 * the few members with a date (both engines leave nulls out of the range `paused_until <= today`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('gym_users').addColumn('paused_until', 'text').execute();
  await db.schema.createIndex('gym_users_paused_until_idx').on('gym_users').column('paused_until').execute();
}
