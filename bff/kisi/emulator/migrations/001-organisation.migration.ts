import type { Kysely } from 'kysely';
import type { EngineDdl } from '../../../db/engine';

/**
 * The emulated organisation (docs/kisi-api.md): places, locks, groups, users, role assignments,
 * group links, the events it recorded, and its own settings. In the emulator's own store; the
 * `kisi_emu_` prefix stays so that nothing mistakes the stand-in's data for the BFF's own
 * (`kisi_events` holds what the BFF received by webhook).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await db.schema
    .createTable('kisi_emu_places')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('time_zone', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('kisi_emu_locks')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('place_id', 'integer', (c) => c.notNull().references('kisi_emu_places.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('online', 'integer', (c) => c.notNull())
    .addColumn('locked_down', 'integer', (c) => c.notNull())
    .addColumn('locked_down_since', 'text')
    .addColumn('order_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('kisi_emu_groups')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('place_id', 'integer', (c) => c.references('kisi_emu_places.id').onDelete('cascade'))
    .addColumn('login_enabled', 'integer', (c) => c.notNull())
    .addColumn('geofence_restriction_enabled', 'integer', (c) => c.notNull())
    .addColumn('primary_device_restriction_enabled', 'integer', (c) => c.notNull())
    .addColumn('managed_device_restriction_enabled', 'integer', (c) => c.notNull())
    .addColumn('reader_restriction_enabled', 'integer', (c) => c.notNull())
    .addColumn('time_restriction_enabled', 'integer', (c) => c.notNull())
    .addColumn('tap_to_access_restriction_enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('kisi_emu_groups_name_idx').on('kisi_emu_groups').column('name').execute();

  await db.schema
    .createTable('kisi_emu_group_locks')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('kisi_emu_groups.id').onDelete('cascade'))
    .addColumn('lock_id', 'integer', (c) => c.notNull().references('kisi_emu_locks.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('kisi_emu_group_locks_pk', ['group_id', 'lock_id'])
    .execute();

  await db.schema
    .createTable('kisi_emu_users')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('member_id', 'integer', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('image', 'text')
    .addColumn('notes', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('access_enabled', 'integer', (c) => c.notNull())
    .addColumn('scim_access_enabled', 'integer', (c) => c.notNull())
    .addColumn('password_flow_enabled', 'integer', (c) => c.notNull())
    .addColumn('otp_required_for_login', 'integer', (c) => c.notNull())
    .addColumn('confirmed', 'integer', (c) => c.notNull())
    .addColumn('last_accessed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('kisi_emu_users_name_idx').on('kisi_emu_users').columns(['name', 'id']).execute();

  await db.schema
    .createTable('kisi_emu_role_assignments')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('kisi_emu_users.id').onDelete('cascade'))
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('applies_to_type', 'text', (c) => c.notNull())
    .addColumn('applies_to_id', 'integer', (c) => c.notNull())
    .addColumn('notify', 'integer', (c) => c.notNull())
    .addColumn('valid_from', 'text')
    .addColumn('valid_until', 'text')
    .addColumn('created_by_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('kisi_emu_role_assignments_user_idx').on('kisi_emu_role_assignments').column('user_id').execute();
  await db.schema
    .createIndex('kisi_emu_role_assignments_target_idx')
    .on('kisi_emu_role_assignments')
    .columns(['applies_to_type', 'applies_to_id'])
    .execute();

  await db.schema
    .createTable('kisi_emu_group_links')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('group_id', 'integer', (c) => c.notNull().references('kisi_emu_groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('link_enabled', 'integer', (c) => c.notNull())
    .addColumn('quick_response_code_type', 'text')
    .addColumn('valid_from', 'text')
    .addColumn('valid_until', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_by_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('kisi_emu_group_links_group_idx').on('kisi_emu_group_links').column('group_id').execute();

  await db.schema
    .createTable('kisi_emu_events')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('kisi_emu_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
