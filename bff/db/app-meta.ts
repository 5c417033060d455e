import type { Db } from './database';

/** `app_meta` keeps what an instance notes for all of them (leases, marks, a run's outcome): the value under `key`, if any. */
export const appMetaValue = async (db: Db, key: string): Promise<string | undefined> =>
  (await db.selectFrom('app_meta').select('value').where('key', '=', key).executeTakeFirst())?.value;

/**
 * Takes the lease kept under `key` in `app_meta` when nobody holds it or the holder's has run out:
 * its `value` begins with the ISO time it runs until, so one conditional upsert decides, and two
 * instances (or an instance and the command line) never both get it. A process that died holds it
 * no longer than that time. True when taken. Shared by the backups' lease and the door events'
 * catch-up.
 */
export async function claimAppMetaLease(db: Db, key: string, value: string, now: string): Promise<boolean> {
  const taken = await db
    .insertInto('app_meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }).where('app_meta.value', '<', now))
    .returning('key')
    .executeTakeFirst();
  return !!taken;
}
