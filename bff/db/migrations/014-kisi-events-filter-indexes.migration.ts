import type { Kysely } from 'kysely';

/**
 * Indexes for the door-events inbox's filters: one door's events newest first (object type and id,
 * then the time), and one type's (the type, then the time). The first also answers the door choices
 * (each lock's newest event) and the second the type choices, without reading the table.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('kisi_events_object_idx').on('kisi_events').columns(['object_type', 'object_id', 'created_at']).execute();
  await db.schema.createIndex('kisi_events_type_idx').on('kisi_events').columns(['type', 'created_at']).execute();
}
