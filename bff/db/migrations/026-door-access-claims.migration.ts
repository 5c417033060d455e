import type { Kysely } from 'kysely';

/**
 * A claimed door switch says so until its lease ends: "Kisi answers again, everything waiting is due
 * now" moved claimed rows forward too, so a second instance sent a switch the first was sending.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('door_access_outbox').addColumn('claimed_until', 'text').execute();
}
