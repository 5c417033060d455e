import type { Db } from './database';
import { nowIso } from './database';

export type Seeder = { name: string; run: (db: Db) => Promise<void> };

/**
 * Demo data goes only into a database that has never been seeded: a marker row records the first
 * seeding, so a restart (or an operator who deleted the demo rows) never gets them back twice.
 */
export async function seedIfEmpty(db: Db, seeders: readonly Seeder[]): Promise<boolean> {
  const marker = await db.selectFrom('app_meta').select('value').where('key', '=', 'seeded_at').executeTakeFirst();
  if (marker) return false;
  await db.transaction().execute(async (trx) => {
    for (const seeder of seeders) await seeder.run(trx);
    await trx.insertInto('app_meta').values({ key: 'seeded_at', value: nowIso() }).execute();
  });
  return true;
}
