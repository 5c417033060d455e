import { sql, type Kysely } from 'kysely';

/**
 * Deleting a member switches their door access off (issue 50): the switch is owed to Kisi after the
 * member's row is gone, so the outbox row must outlive it. Its `member_id` no longer references
 * `gym_users` (whose delete took the row with it), and a row for a deleted member keeps the email Kisi
 * knows them by (`email`, null for a member still here: their record has it). SQLite cannot drop a
 * foreign key, so the table is made again, its rows and index with it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('door_access_outbox_next')
    .addColumn('member_id', 'integer', (c) => c.primaryKey())
    .addColumn('want_enabled', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_try_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('email', 'text')
    .execute();
  await sql`insert into door_access_outbox_next (member_id, want_enabled, version, attempts, next_try_at, last_error, created_at, claimed_until)
    select member_id, want_enabled, version, attempts, next_try_at, last_error, created_at, claimed_until from door_access_outbox`.execute(db);
  await db.schema.dropTable('door_access_outbox').execute();
  await db.schema.alterTable('door_access_outbox_next').renameTo('door_access_outbox').execute();
  await db.schema.createIndex('door_access_outbox_due_idx').on('door_access_outbox').columns(['next_try_at']).execute();
}
