import type { Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

/** Kisi events the BFF received by signed webhook (docs/ARCHITECTURE.md "Kisi"): stored once per uuid. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await db.schema
    .createTable('kisi_events')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text')
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('object_type', 'text')
    .addColumn('object_id', 'integer')
    .addColumn('object_name', 'text')
    .addColumn('place_id', 'integer')
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('kisi_events_created_idx').on('kisi_events').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('kisi_events_actor_email_idx').on('kisi_events').columns(['actor_email', 'created_at']).execute();
}
