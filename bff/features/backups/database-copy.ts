import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import pg from 'pg';

/**
 * The engine side of backups and restores, kept out of the story in backups.service.ts and
 * restore.service.ts: SQLite's online backup API and its checks; PostgreSQL's pg_dump, pg_restore and
 * psql, and who is connected. Everything here works on a file or a URL, never through the app's pool.
 */

/** What a database copy holds: its migrations (in order) and rows per table. */
export interface CopiedStore {
  migrations: string[];
  tables: Record<string, number>;
}

/** The tables Kysely records migrations in: the product's, and the Kisi emulator's own (emulator.database.ts). */
export const MIGRATION_TABLES = { app: 'kysely_migration', 'kisi-emulator': 'kisi_emu_migration' } as const;

/** A refusal or failure whose words are for the operator (no stack, no code): the command line prints it as it is. */
export class OperatorError extends Error {
  override name = 'OperatorError';
}

// ---- SQLite ---------------------------------------------------------------------------------

/**
 * Runs in a worker thread (plain CommonJS, so that it needs no TypeScript loader): copies the database
 * with SQLite's online backup API in one step, so the copy is one consistent snapshot while the app
 * goes on writing (WAL: a reader never blocks the writer, and one step cannot be restarted by a write
 * in between); switches the copy to a rollback journal (one self-contained file, readable read-only),
 * and reads its migrations and row counts.
 */
const SQLITE_COPY_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const { from, to, migrationTable } = workerData;
(async () => {
  const source = new Database(from, { fileMustExist: true, timeout: 5000 });
  try {
    await source.backup(to, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new Database(to);
  try {
    copy.pragma('journal_mode = DELETE');
    const tables = {};
    for (const t of copy.pragma('table_list')) {
      if (t.schema !== 'main' || t.type !== 'table' || t.name.startsWith('sqlite_')) continue;
      tables[t.name] = copy.prepare('select count(*) as n from "' + t.name.replace(/"/g, '""') + '"').get().n;
    }
    const migrations = tables[migrationTable] === undefined ? [] : copy.prepare('select name from "' + migrationTable + '" order by name').all().map((r) => r.name);
    parentPort.postMessage({ ok: true, migrations, tables });
  } finally {
    copy.close();
  }
})().catch((err) => parentPort.postMessage({ ok: false, message: err && err.message ? err.message : String(err) }));
`;

type WorkerAnswer = ({ ok: true } & CopiedStore) | { ok: false; message: string };

/**
 * Copies the SQLite database `from` to the new file `to` while it is in use, in a worker thread so the
 * server's event loop goes on serving meanwhile. `signal` stops it (the copy is then incomplete, and
 * its folder is thrown away by the caller).
 */
export async function copySqlite(from: string, to: string, store: keyof typeof MIGRATION_TABLES, signal?: AbortSignal): Promise<CopiedStore> {
  signal?.throwIfAborted();
  const worker = new Worker(SQLITE_COPY_WORKER, { eval: true, workerData: { from, to, migrationTable: MIGRATION_TABLES[store] } });
  const stop = () => void worker.terminate();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const answer = await new Promise<WorkerAnswer>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(signal?.aborted ? signal.reason : new Error(`The SQLite copy stopped (exit ${code}).`)));
    });
    if (!answer.ok) throw new Error(`Copying ${from} failed: ${answer.message}`);
    return { migrations: answer.migrations, tables: answer.tables };
  } finally {
    signal?.removeEventListener('abort', stop);
    await worker.terminate();
  }
}

const isBusy = (err: unknown) => typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('SQLITE_BUSY');

/**
 * Whether a process has the SQLite database `file` open (a server, `npm run backup`). The app opens
 * its databases in WAL mode, where every open connection holds a shared lock on the file for as long
 * as it is open; a connection in exclusive locking mode must take the file's exclusive lock to read
 * it, which it gets only when no one else has the file open. Nothing is written: a database no one
 * has open is left as it was (a crashed server's WAL is folded into the file, as any open would).
 */
export function sqliteInUse(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const probe = new SQLite(file, { timeout: 200 });
  try {
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.prepare('select count(*) from sqlite_master').get();
    return false;
  } catch (err) {
    if (isBusy(err)) return true;
    throw err;
  } finally {
    probe.close();
  }
}

/**
 * Checks a SQLite copy in a backup (opened read-only: the backup is never changed): SQLite's
 * `integrity_check`, then its migrations and row counts. Throws an OperatorError naming what is wrong.
 */
export function checkSqliteCopy(file: string, store: keyof typeof MIGRATION_TABLES): CopiedStore {
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new OperatorError(`${file} cannot be opened as a SQLite database: ${(err as Error).message}.`);
  }
  try {
    const problems = (db.pragma('integrity_check(20)') as Array<{ integrity_check: string }>).map((row) => row.integrity_check);
    if (problems.join() !== 'ok') throw new OperatorError(`${file} fails SQLite's integrity check: ${problems.slice(0, 3).join('; ')}.`);
    const tables: Record<string, number> = {};
    for (const t of db.pragma('table_list') as Array<{ schema: string; name: string; type: string }>) {
      if (t.schema !== 'main' || t.type !== 'table' || t.name.startsWith('sqlite_')) continue;
      tables[t.name] = (db.prepare(`select count(*) as n from "${t.name.replace(/"/g, '""')}"`).get() as { n: number }).n;
    }
    const table = MIGRATION_TABLES[store];
    const migrations = tables[table] === undefined ? [] : (db.prepare(`select name from "${table}" order by name`).all() as Array<{ name: string }>).map((r) => r.name);
    return { migrations, tables };
  } catch (err) {
    if (err instanceof OperatorError) throw err;
    // A file whose header is damaged opens, then fails its first read: SQLITE_NOTADB, SQLITE_CORRUPT.
    throw new OperatorError(`${file} is not a readable SQLite database: ${(err as Error).message}.`);
  } finally {
    db.close();
  }
}

// ---- PostgreSQL -----------------------------------------------------------------------------

/** The Kisi emulator's schema (emulator.database.ts), dumped and restored with the product's tables. */
const EMULATOR_SCHEMA = 'kisi_emulator';

/** libpq takes the URL without its password (which would show in `ps`), and the password from the environment. */
function toolConnection(url: string, appName: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, PGAPPNAME: appName, ...(password ? { PGPASSWORD: password } : {}) } };
}

interface ToolRun {
  code: number | null;
  stderr: string;
}

const lastLines = (text: string) => text.trim().split('\n').slice(-3).join(' ').trim();

/** How each PostgreSQL program is installed, for the message when one is missing. */
const installHint = (tool: string) =>
  `${tool} is not installed here: install postgresql-client (Debian and Ubuntu: apt-get install postgresql-client; macOS: brew install libpq) in the version of the PostgreSQL server or newer, then try again.`;

/** Answers when `tool` ends; an OperatorError when it is not installed. */
function waitFor(child: ReturnType<typeof spawn>, tool: string, signal?: AbortSignal): Promise<ToolRun> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-8000)));
  const stop = () => child.kill('SIGTERM');
  signal?.addEventListener('abort', stop, { once: true });
  return new Promise<ToolRun>((resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new OperatorError(installHint(tool)) : err));
    child.once('close', (code) => {
      signal?.removeEventListener('abort', stop);
      if (signal?.aborted) reject(signal.reason);
      else resolve({ code, stderr });
    });
  });
}

/** Fails with the install hint unless each of `tools` answers `--version`. */
export async function requireTools(...tools: string[]): Promise<void> {
  for (const tool of tools) {
    const run = await waitFor(spawn(tool, ['--version'], { stdio: ['ignore', 'ignore', 'pipe'] }), tool);
    if (run.code !== 0) throw new OperatorError(`${tool} --version failed: ${lastLines(run.stderr) || `exit ${run.code}`}. ${installHint(tool)}`);
  }
}

async function withClient<T>(url: string, appName: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: appName });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Rows per table of the product's schema and the emulator's (`kisi_emulator.<table>`), and each store's migrations. */
async function describePostgres(client: pg.Client): Promise<{ app: CopiedStore; emulator: CopiedStore | undefined }> {
  const { rows } = await client.query<{ table_schema: string; table_name: string }>(
    `select table_schema, table_name from information_schema.tables where table_schema in ('public', $1) and table_type = 'BASE TABLE' order by 1, 2`,
    [EMULATOR_SCHEMA],
  );
  const app: CopiedStore = { migrations: [], tables: {} };
  let emulator: CopiedStore | undefined;
  for (const { table_schema: schema, table_name: table } of rows) {
    const { rows: counted } = await client.query<{ n: string }>(`select count(*) as n from ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)}`);
    const n = Number(counted[0]?.n ?? 0);
    if (schema === 'public') app.tables[table] = n;
    else (emulator ??= { migrations: [], tables: {} }).tables[`${EMULATOR_SCHEMA}.${table}`] = n;
  }
  const names = async (schema: string, table: string) =>
    (await client.query<{ name: string }>(`select name from ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)} order by name`)).rows.map((r) => r.name);
  if (app.tables[MIGRATION_TABLES.app] !== undefined) app.migrations = await names('public', MIGRATION_TABLES.app);
  if (emulator && emulator.tables[`${EMULATOR_SCHEMA}.${MIGRATION_TABLES['kisi-emulator']}`] !== undefined) emulator.migrations = await names(EMULATOR_SCHEMA, MIGRATION_TABLES['kisi-emulator']);
  return { app, emulator };
}

/**
 * Dumps the PostgreSQL database at `url` (the product's tables and the emulator's schema) to `to` with
 * `pg_dump --format=custom`. The row counts and migrations are read in the very snapshot pg_dump dumps
 * (exported by a transaction held open until it is done), so the manifest says what the dump holds.
 */
export async function dumpPostgres(url: string, to: string, signal?: AbortSignal): Promise<{ app: CopiedStore; emulator: CopiedStore | undefined }> {
  await requireTools('pg_dump');
  return withClient(url, 'frontdesk-backup', async (client) => {
    await client.query('begin isolation level repeatable read, read only');
    try {
      const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
      const described = await describePostgres(client);
      const { dbname, env } = toolConnection(url, 'frontdesk-backup');
      const dump = spawn('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${to}`, `--dbname=${dbname}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      const run = await waitFor(dump, 'pg_dump', signal);
      if (run.code !== 0) throw new OperatorError(`pg_dump failed: ${lastLines(run.stderr) || `exit ${run.code}`}`);
      return described;
    } finally {
      await client.query('commit').catch(() => {});
    }
  });
}

/** Checks that `dump` is a pg_dump archive pg_restore can read (its table of contents). */
export async function checkPostgresDump(dump: string): Promise<void> {
  const list = await waitFor(spawn('pg_restore', ['--list', dump], { stdio: ['ignore', 'ignore', 'pipe'] }), 'pg_restore');
  if (list.code !== 0) throw new OperatorError(`${dump} is not a dump pg_restore can read: ${lastLines(list.stderr) || `exit ${list.code}`}.`);
}

/** The Frontdesk processes connected to the database at `url` now (servers, a backup), by where they connect from. */
export async function postgresClients(url: string): Promise<Array<{ application: string; from: string; count: number }>> {
  return withClient(url, 'restore', async (client) => {
    const { rows } = await client.query<{ application: string; from: string; count: string }>(
      `select application_name as application, coalesce(host(client_addr), 'this machine') as "from", count(*) as count
         from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and application_name like 'frontdesk%'
        group by 1, 2 order by 1, 2`,
    );
    return rows.map((r) => ({ ...r, count: Number(r.count) }));
  });
}

/** Whether the database at `url` holds any table of the product or the emulator. */
export async function postgresHasTables(url: string): Promise<boolean> {
  return withClient(url, 'restore', async (client) => {
    const { rows } = await client.query(`select 1 from information_schema.tables where table_schema in ('public', $1) limit 1`, [EMULATOR_SCHEMA]);
    return rows.length > 0;
  });
}

/**
 * Replaces the database at `url` with the dump, in one transaction: every table of the product and
 * the emulator's schema are dropped (so tables a newer migration added do not stay behind), then the
 * dump is replayed (`pg_restore` writes it as SQL into `psql`). The transaction is committed only when
 * all of the dump was read and replayed without an error: otherwise it is rolled back and the database
 * is as it was. Objects belong to the user of `url`.
 */
export async function restorePostgres(url: string, dump: string): Promise<void> {
  await requireTools('pg_restore', 'psql');
  const { dbname, env } = toolConnection(url, 'restore');
  const begin = `\\set ON_ERROR_STOP 1
begin;
drop schema if exists ${EMULATOR_SCHEMA} cascade;
do $$ declare t record; begin
  for t in select tablename from pg_tables where schemaname = 'public' loop
    execute format('drop table if exists public.%I cascade', t.tablename);
  end loop;
end $$;
`;
  const psql = spawn('psql', ['--no-psqlrc', '--quiet', `--dbname=${dbname}`, '--file=-'], { env, stdio: ['pipe', 'ignore', 'pipe'] });
  const replayed = waitFor(psql, 'psql');
  psql.stdin!.on('error', () => {}); // psql stopping at an error closes its input: its own words say why, below
  psql.stdin!.write(begin);
  const script = spawn('pg_restore', ['--no-owner', '--no-privileges', '--file=-', dump], { stdio: ['ignore', 'pipe', 'pipe'] });
  script.stdout!.pipe(psql.stdin!, { end: false });
  // psql stopped at an error: nobody reads pg_restore's output any more, which would hold it for ever.
  psql.once('close', () => script.exitCode === null && script.kill('SIGTERM'));
  const written = await waitFor(script, 'pg_restore').catch(async (err: unknown) => {
    psql.stdin!.end();
    await replayed.catch(() => undefined);
    throw err;
  });
  // Only a whole script is committed; without the commit, psql's end rolls the transaction back.
  psql.stdin!.end(written.code === 0 ? 'commit;\n' : '');
  const run = await replayed;
  if (run.code !== 0) throw new OperatorError(`Restoring the database failed, and nothing of it was kept (the database is as it was): ${lastLines(run.stderr) || `psql exit ${run.code}`}`);
  if (written.code !== 0) throw new OperatorError(`pg_restore could not read the dump, and nothing was changed: ${lastLines(written.stderr) || `exit ${written.code}`}`);
}
