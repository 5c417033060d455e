import { sql, type Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await db.schema
    .createTable('gym_owners')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('phone', 'text')
    .addColumn('gym_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gym_owners_name_idx').on('gym_owners').column('name').execute();

  await db.schema
    .createTable('gym_users')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('gym_owners.id').onDelete('restrict'))
    .addColumn('membership', 'text', (c) => c.notNull().check(sql`membership in ('active', 'paused', 'cancelled')`))
    .addColumn('access_sync_state', 'text', (c) => c.notNull().defaultTo('not_needed'))
    .addColumn('access_sync_error', 'text')
    .addColumn('access_sync_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gym_users_name_idx').on('gym_users').columns(['name', 'id']).execute();
  await db.schema.createIndex('gym_users_owner_idx').on('gym_users').columns(['owner_id', 'name']).execute();
  await db.schema.createIndex('gym_users_membership_idx').on('gym_users').columns(['membership', 'name']).execute();
}
