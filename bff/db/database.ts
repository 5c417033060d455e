import { Migrator, type Kysely, type Migration } from 'kysely';
import { connect, createKysely, type Engine } from './engine';
import { MIGRATIONS } from './migrations/migrations';
import type { DB } from './schema';

export type Db = Kysely<DB>;

export interface Database {
  db: Db;
  engine: Engine;
  close: () => Promise<void>;
}

/** Opens the database named by DATABASE_URL and brings its schema up to date (idempotent). */
export async function openDatabase(url: string): Promise<Database> {
  const connection = connect(url);
  const db = createKysely<DB>(connection);
  const migrations: Record<string, Migration> = Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (kdb) => m.up(kdb, connection.ddl) }]),
  );
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${String(error)}`);
  }
  return { db, engine: connection.engine, close: () => db.destroy() };
}

export const nowIso = (): string => new Date().toISOString();
