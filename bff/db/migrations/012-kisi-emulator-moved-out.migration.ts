import type { Kysely } from 'kysely';

/**
 * The Kisi emulator keeps its own store now (bff/kisi/emulator/emulator.database.ts): a database
 * whose 002 created the emulator's tables here loses them and the emulator's `app_meta` key. Their
 * rows were the emulator's demo organisation, which it seeds again in its own store on its next
 * start; nothing of the product's refers to them. A new database has none of them (002 creates
 * nothing now): each drop is `if exists`. Children first, so no foreign key is in the way.
 */
const EMULATOR_TABLES = [
  'kisi_emu_group_links',
  'kisi_emu_role_assignments',
  'kisi_emu_group_locks',
  'kisi_emu_users',
  'kisi_emu_groups',
  'kisi_emu_locks',
  'kisi_emu_places',
  'kisi_emu_events',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of EMULATOR_TABLES) await db.schema.dropTable(table).ifExists().execute();
  await db.deleteFrom('app_meta').where('key', '=', 'kisi_emulator_group_id').execute();
}
