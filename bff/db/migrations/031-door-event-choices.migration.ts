import type { Kysely } from 'kysely';
import { fillKisiEventChoices } from '../kisi-event-choices';
import type { EngineDdl } from '../engine';

/**
 * Door events read the page, not the years behind it (issue 51, decision 0100):
 * - Small tables of what the inbox's filters offer and find (bff/db/kisi-event-choices.ts): each
 *   event type, each door and each person (name and email, `''` for one left out), with how many
 *   events are theirs, counted from the stored events here and kept by every write from then on.
 *   The people have a contains index of their name and email: the person filter finds them there.
 * - Indexes for each filter, ending in the list's order (when it happened, the id breaking ties) so
 *   a page is one range read from its cursor, and a count stops after 1,000: the result, the door and
 *   the type (the last two replace migration 014's, which lacked the id), and the actor's name and
 *   email (the events of the people the person filter found).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await db.schema
    .createTable('kisi_event_types')
    .addColumn('type', 'text', (c) => c.primaryKey())
    .addColumn('events', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('kisi_event_doors')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('events', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('kisi_event_people')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('events', 'integer', (c) => c.notNull())
    .addUniqueConstraint('kisi_event_people_key', ['name', 'email'])
    .execute();
  await fillKisiEventChoices(db);
  await ddl.containsIndex(db, 'kisi_event_people', ['name', 'email']);

  const index = (name: string, columns: string[]) => db.schema.createIndex(name).on('kisi_events').columns([...columns, 'created_at', 'id']).execute();
  await index('kisi_events_result_idx', ['success']);
  await db.schema.dropIndex('kisi_events_object_idx').execute();
  await index('kisi_events_object_idx', ['object_type', 'object_id']);
  await db.schema.dropIndex('kisi_events_type_idx').execute();
  await index('kisi_events_type_idx', ['type']);
  await index('kisi_events_actor_name_idx', ['actor_name']);
  await index('kisi_events_actor_email_idx', ['actor_email']);
}
