import { sql, type Kysely } from 'kysely';

/**
 * Issue 53: door access follows membership until Kisi agrees. A membership change that needs Kisi
 * leaves one row here (one per member: a later change supersedes an earlier one not yet sent), in
 * the transaction of the change; a job sends due rows and removes each once Kisi has the wanted
 * state. `version` grows with every change, so a send finished after a newer change removes nothing.
 * The member keeps what Kisi last confirmed (`kisi_access_enabled`, `kisi_confirmed_at`).
 * Members whose last switch had failed (nothing tried again before this) are queued now.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('door_access_outbox')
    .addColumn('member_id', 'integer', (c) => c.primaryKey().references('gym_users.id').onDelete('cascade'))
    .addColumn('want_enabled', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_try_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('door_access_outbox_due_idx').on('door_access_outbox').columns(['next_try_at']).execute();
  await db.schema.alterTable('gym_users').addColumn('kisi_access_enabled', 'integer').execute();
  await db.schema.alterTable('gym_users').addColumn('kisi_confirmed_at', 'text').execute();

  const now = new Date().toISOString();
  await sql`insert into door_access_outbox (member_id, want_enabled, next_try_at, created_at)
    select id, case when membership = 'active' then 1 else 0 end, ${now}, ${now} from gym_users where access_sync_state = 'failed'`.execute(db);
  await db.updateTable('gym_users').set({ access_sync_state: 'pending' }).where('access_sync_state', '=', 'failed').execute();
}
