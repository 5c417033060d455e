import type { Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  // The live-event log: every event sent on /api/events, so a client can resume with Last-Event-ID.
  await db.schema
    .createTable('live_events')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_events_created_idx').on('live_events').column('created_at').execute();
}
