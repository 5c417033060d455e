import type { Kysely } from 'kysely';

/**
 * A stall's weekly opening hours (issue 52), in the venue's zone: JSON text of seven days, Monday
 * first, each a list of `{ opens, closes }` spans ("11:30", "14:30"; a day's last span may close at
 * "24:00"). Null, as every stall has today: no hours set, so the stall is open whenever it is not
 * paused (existing venues do not close overnight). Read and checked by the contract's schema.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stalls').addColumn('hours', 'text').execute();
}
