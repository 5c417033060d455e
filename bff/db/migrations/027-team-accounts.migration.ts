import { sql, type Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

/**
 * The team in the app (issue 49): an account can be deactivated and says when it last signed in; a
 * session remembers the browser and address it came from and when it was last seen; invitation and
 * reset links (stored as the hash of their secret, one use, expiring); passkeys and the WebAuthn
 * challenges they answer (in the database, so any instance checks what another handed out).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sql`status in ('active', 'deactivated')`))
    .execute();
  await db.schema.alterTable('accounts').addColumn('last_sign_in_at', 'text').execute();
  // WebAuthn's user handle: random, so a passkey names no email or id of ours.
  await db.schema.alterTable('accounts').addColumn('webauthn_user_id', 'text').execute();

  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('address', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'text').execute();

  await db.schema
    .createTable('account_links')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('invitation', 'reset')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    // An invitation's role; null for a reset.
    .addColumn('role', 'text', (c) => c.check(sql`role in ('admin', 'staff', 'runner')`))
    // A reset's account; null for an invitation.
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('withdrawn_at', 'text')
    .execute();
  await db.schema.createIndex('account_links_kind_email_idx').on('account_links').columns(['kind', 'email']).execute();
  await db.schema.createIndex('account_links_account_idx').on('account_links').column('account_id').execute();

  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_account_idx').on('passkeys').column('account_id').execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('challenge', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('register', 'sign-in')`))
    // Whose registration it is; null for a sign-in.
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
