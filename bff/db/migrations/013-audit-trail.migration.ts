import type { Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  // The audit trail: one row per change a signed-in account made (or the command line), written in
  // the change's own transaction. Append-only: no endpoint updates or deletes a row. The actor's
  // email and name are copied, so the trail still says who after an account is gone.
  await db.schema
    .createTable('audit_entries')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_email', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('actor_role', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_entries_at_idx').on('audit_entries').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_entries_kind_idx').on('audit_entries').columns(['kind', 'id']).execute();
}
