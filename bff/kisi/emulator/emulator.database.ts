import path from 'node:path';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../db/database';
import { connect, createKysely, isPostgresUrl, sqliteFileOf, type Connection, type Engine } from '../../db/engine';
import type { MigrationModule } from '../../db/migrations/migrations';
import type { EmulatorTables } from './emulator.schema';
import * as m001 from './migrations/001-organisation.migration';

export type EmulatorDb = Kysely<EmulatorTables>;

/** The emulator's own store, open and up to date. */
export interface EmulatorDatabase extends Pick<Connection, 'exclusively'> {
  db: EmulatorDb;
  engine: Engine;
  close: () => Promise<void>;
}

/** Where the emulator's tables live on PostgreSQL. */
export const EMULATOR_SCHEMA = 'kisi_emulator';

/** The emulator's migrations, in order; like the product's, names are permanent (a restore checks a backup's against them). */
export const EMULATOR_MIGRATIONS: Record<string, MigrationModule> = {
  '001-organisation': m001,
};

/**
 * Where the emulator keeps its store beside a BFF's database (DATABASE_URL). It stands in for an
 * outside service, so its data never sits among the product's tables:
 * - SQLite: a file of its own in the same directory, named after the product's
 *   (`data/frontdesk.db` → `data/frontdesk.kisi-emulator.db`) so that two databases in one directory
 *   never share one; `:memory:` for `:memory:`.
 * - PostgreSQL: the same database, in the schema `kisi_emulator`. A database of its own would need
 *   the right to create databases, which a deployment's login rarely has; a schema needs only CREATE
 *   on this database (its owner has it), goes with the database (a test's throw-away one included),
 *   and every instance of the BFF finds the same store, as they would find the same Kisi.
 */
export function emulatorStoreBeside(databaseUrl: string): string {
  if (isPostgresUrl(databaseUrl)) return databaseUrl;
  const file = sqliteFileOf(databaseUrl);
  if (file === ':memory:') return file;
  const { dir, name } = path.parse(file);
  return `file:${path.join(dir, `${name}.kisi-emulator.db`)}`;
}

/**
 * Opens the store at `url` (`file:` or `:memory:` SQLite: that database; `postgres://`: the schema
 * `kisi_emulator` of that database, created when missing) and brings it up to date. Its migrations
 * are recorded in tables of its own (`kisi_emu_migration*`): Kysely's default names would meet the
 * product's own bookkeeping when both stores are in one PostgreSQL database.
 */
export async function openEmulatorDatabase(url: string): Promise<EmulatorDatabase> {
  // Kisi takes 5 requests a second per key: a few connections serve that.
  const connection = connect(url, { poolSize: 4, schema: EMULATOR_SCHEMA });
  const db = createKysely<EmulatorTables>(connection);
  const close = async () => {
    await connection.close();
    await db.destroy();
  };
  try {
    await connection.exclusively(() =>
      migrateToLatest(db, connection, EMULATOR_MIGRATIONS, { migrationTableName: 'kisi_emu_migration', migrationLockTableName: 'kisi_emu_migration_lock' }),
    );
  } catch (err) {
    await close();
    throw err;
  }
  return { db, engine: connection.engine, exclusively: connection.exclusively, close };
}
