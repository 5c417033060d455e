import { sql, type Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

/**
 * Who pressed a remote unlock (issue 52, defect 4; decision 0103): Kisi logs a remote unlock as the
 * integration's own Kisi user ("Frontdesk Integration"), so the proxy records each request before it
 * forwards it (the door, the API account's Kisi user, the signed-in account and its name and email,
 * when), and the door event of that account at that door that arrives within a short window is
 * credited to the request: `event_id`, unique, so each request names one event and each event one
 * request. A request Kisi never answered is removed; one Kisi refused matches only a refused event.
 * The row goes with its event (cascade), or by retention's door-events cut-off when it matched none.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await db.schema
    .createTable('remote_unlock_requests')
    .addColumn('id', 'integer', ddl.id)
    // Kisi's lock id (the `object_id` of its door events) and the Kisi user the API key belongs to (their `actor_id`).
    .addColumn('lock_id', 'integer', (c) => c.notNull())
    .addColumn('kisi_user_id', 'integer', (c) => c.notNull())
    // Who pressed it, as they were named then; an erasure sets the name to "Erased person" and the email to null.
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('requested_by_name', 'text', (c) => c.notNull())
    .addColumn('requested_by_email', 'text')
    .addColumn('requested_at', 'text', (c) => c.notNull())
    // sent: on its way to Kisi; accepted: Kisi answered 2xx; refused: Kisi answered with a refusal.
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('sent', 'accepted', 'refused')`))
    .addColumn('event_id', 'integer', (c) => c.references('kisi_events.id').onDelete('cascade').unique())
    .execute();
  // The match: the requests at one door by one Kisi user, in the order they were made.
  await db.schema.createIndex('remote_unlock_requests_lock_idx').on('remote_unlock_requests').columns(['lock_id', 'kisi_user_id', 'requested_at', 'id']).execute();
  // Retention (by age), and an erasure (by account, and by email for an account already deleted).
  await db.schema.createIndex('remote_unlock_requests_at_idx').on('remote_unlock_requests').columns(['requested_at', 'id']).execute();
  await db.schema.createIndex('remote_unlock_requests_account_idx').on('remote_unlock_requests').column('account_id').execute();
  await db.schema.createIndex('remote_unlock_requests_email_idx').on('remote_unlock_requests').column('requested_by_email').execute();
}
