import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { connect, createKysely, isPostgresUrl, type ConnectOptions, type Connection, type Engine } from './engine';
import { MIGRATIONS, type MigrationModule } from './migrations/migrations';
import type { DB } from './schema';

export type Db = Kysely<DB>;

/** The open database: Kysely for queries, and the engine's few extras (see `Connection`). */
export interface Database
  extends Pick<
    Connection,
    'transactionLock' | 'appendToLog' | 'notify' | 'listen' | 'serverNowMs' | 'exclusively' | 'textHits' | 'containsMatch' | 'refreshTextIndex' | 'optimize' | 'listenersConnected' | 'poolUse'
  > {
  db: Db;
  engine: Engine;
  /**
   * Answers whether every migration this code knows is applied (one query on the migrations table;
   * it fails as any query does when the database cannot be reached).
   */
  isMigrated: () => Promise<boolean>;
  close: () => Promise<void>;
}

/**
 * Opens the database named by DATABASE_URL (`file:` SQLite, `postgres://` PostgreSQL) and brings
 * its schema up to date. Several instances may start at once: one migrates, the others wait for
 * it and then find nothing left to do.
 */
export async function openDatabase(url: string, options: ConnectOptions = {}): Promise<Database> {
  const connection = connect(url, options);
  const db = createKysely<DB>(connection);
  const close = async () => {
    await connection.close();
    await db.destroy();
  };
  try {
    const applied = await connection.exclusively(() => migrateOnce(url, options, db, connection));
    // A migration's new indexes have no planner statistics yet: without them SQLite may take another
    // index until the periodic optimize (the chat messages list: 8 ms instead of 0.05).
    if (applied > 0) await connection.optimize();
  } catch (err) {
    await close();
    throw err;
  }
  const { engine, transactionLock, appendToLog, notify, listen, serverNowMs, exclusively, textHits, containsMatch, refreshTextIndex, optimize, listenersConnected, poolUse } = connection;
  const isMigrated = () => allApplied(db, Object.keys(MIGRATIONS));
  return { db, engine, transactionLock, appendToLog, notify, listen, serverNowMs, exclusively, textHits, containsMatch, refreshTextIndex, optimize, listenersConnected, poolUse, isMigrated, close };
}

/**
 * Migrates; answers how many migrations it applied. A migration may rightly run longer than any
 * request should (an index over a big table): with a statement timeout on PostgreSQL it runs on a
 * connection of its own without one.
 */
async function migrateOnce(url: string, options: ConnectOptions, db: Db, connection: Connection): Promise<number> {
  if (!isPostgresUrl(url) || !options.statementTimeoutMs) return migrateToLatest(db, connection, MIGRATIONS);
  const untimed = connect(url, { ...options, statementTimeoutMs: 0, poolSize: 1 });
  const untimedDb = createKysely<DB>(untimed);
  try {
    return await migrateToLatest(untimedDb, untimed, MIGRATIONS);
  } finally {
    await untimed.close();
    await untimedDb.destroy();
  }
}

/** Whether each of `names` is recorded in Kysely's migrations table (a newer instance may have applied more: that is fine). */
async function allApplied(db: Db, names: readonly string[]): Promise<boolean> {
  const { rows } = await sql<{ applied: number }>`select count(*) as applied from kysely_migration where name in (${sql.join(names)})`.execute(db);
  return Number(rows[0]?.applied ?? 0) === names.length;
}

/**
 * Brings a store's schema up to date with `migrations`, recorded in `tables` (Kysely's own names
 * unless given: a store of its own in the same database names its own). Call it in an `exclusively` turn.
 * Answers how many it applied.
 */
export async function migrateToLatest<T>(
  db: Kysely<T>,
  connection: Pick<Connection, 'ddl'>,
  migrations: Record<string, MigrationModule>,
  tables: { migrationTableName?: string; migrationLockTableName?: string } = {},
): Promise<number> {
  const withDdl: Record<string, Migration> = Object.fromEntries(
    Object.entries(migrations).map(([name, m]) => [name, { up: (kdb) => m.up(kdb, connection.ddl) }]),
  );
  const migrator = new Migrator({ db, provider: { getMigrations: async () => withDdl }, ...tables });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${String(error)}`);
  }
  return results?.filter((r) => r.status === 'Success').length ?? 0;
}

export const nowIso = (): string => new Date().toISOString();

/**
 * A signal without payload to every instance on the database, this one included (SQLite: this
 * process only, as there are no others). `on` (when given) runs for every signal, and after a lost
 * connection is back, since a signal sent meanwhile was missed.
 */
export function instanceSignal(database: Database, channel: string, on?: () => void): { send: () => Promise<void> } {
  const listening = on && database.listen ? database.listen(channel, { onNotify: on, onConnect: on }) : undefined;
  return {
    send: async () => {
      if (database.engine === 'postgres') await database.notify(database.db, channel, '');
      if (!listening) on?.();
    },
  };
}
