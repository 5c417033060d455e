import type { Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

/**
 * The member list after years (issue 51): its search finds a name or an email containing the typed
 * text through a trigram index (SQLite FTS5, PostgreSQL pg_trgm) instead of reading every member, and
 * its pages follow the name from a cursor. The owner and membership filters page by name too: their
 * indexes end with the id, so the cursor's `(name, id)` is one range of them on both engines.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await ddl.containsIndex(db, 'gym_users', ['name', 'email']);
  await db.schema.dropIndex('gym_users_owner_idx').execute();
  await db.schema.createIndex('gym_users_owner_idx').on('gym_users').columns(['owner_id', 'name', 'id']).execute();
  await db.schema.dropIndex('gym_users_membership_idx').execute();
  await db.schema.createIndex('gym_users_membership_idx').on('gym_users').columns(['membership', 'name', 'id']).execute();
}
