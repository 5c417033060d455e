import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import { openDatabase } from '../../db/database';
import { isPostgresUrl, sqliteFileOf } from '../../db/engine';
import { MIGRATIONS } from '../../db/migrations/migrations';
import { EMULATOR_MIGRATIONS, emulatorStoreBeside, openEmulatorDatabase } from '../../kisi/emulator/emulator.database';
import { copyFile, formatBytes, fromManifestPath, hashFile, moveAside } from './backup-files';
import { FILE_FOLDERS, readManifest, type FileFolder, type Manifest, type ManifestStore } from './backup-folder';
import { backupStateRepository } from './backup-state.repository';
import { OperatorError, checkPostgresDump, checkSqliteCopy, dumpPostgres, postgresClients, postgresHasTables, requireTools, restorePostgres, sqliteInUse } from './database-copy';

/**
 * `npm run restore <backup>` (docs/operations.md "Backups and restore", decision 0096). A backup is
 * checked whole before anything else is done: its manifest, every file's size and SHA-256, the
 * SQLite copies' integrity (or the dump's table of contents), and that this code knows every
 * migration it holds. Then nothing is restored while a server uses the database. What is restored
 * is prepared beside the live data (and an older backup moved forward through the migrations there);
 * only then is the live data moved aside, into `replaced-<time>/`, and the backup's put in its place.
 */

/** Where a restore puts the backup: the running configuration's database and folders. */
export interface RestoreTarget {
  databaseUrl: string;
  files: Record<FileFolder, string>;
}

export const restoreTargetOf = (config: Config): RestoreTarget => ({
  databaseUrl: config.DATABASE_URL,
  files: { uploads: config.UPLOADS_DIR, 'catalogue-images': config.CATALOGUE_IMAGE_DIR, 'sample-images': config.SAMPLES_IMAGE_DIR },
});

export interface CheckedBackup {
  folder: string;
  manifest: Manifest;
  /** One line on what was checked, for the operator. */
  summary: string;
}

const FOLDER_NAMES: Record<FileFolder, string> = { uploads: 'uploaded file(s)', 'catalogue-images': 'catalogue picture(s)', 'sample-images': 'sample picture(s)' };
const KNOWN: Record<ManifestStore['store'], readonly string[]> = { app: Object.keys(MIGRATIONS), 'kisi-emulator': Object.keys(EMULATOR_MIGRATIONS) };
const STORE_NAMES: Record<ManifestStore['store'], string> = { app: 'its database', 'kisi-emulator': 'its Kisi emulator store' };

/** Refuses a store holding a migration this code does not know: the backup was taken by a newer Frontdesk. */
function requireKnownMigrations(manifest: Manifest, store: ManifestStore, migrations: readonly string[]): void {
  const unknown = migrations.filter((name) => !KNOWN[store.store].includes(name));
  if (unknown.length === 0) return;
  throw new OperatorError(
    `The backup is from a newer Frontdesk (${manifest.appVersion}): ${STORE_NAMES[store.store]} has migration ${unknown.join(', ')}, which this version does not know. ` +
      'Restore it with the version that took it, or a newer one.',
  );
}

/** Checks every part of the backup at `folder` without changing anything; throws an OperatorError naming the first fault. */
export async function checkBackup(folder: string): Promise<CheckedBackup> {
  const manifest = await readManifest(folder).catch((err: unknown) => {
    throw new OperatorError((err as Error).message);
  });
  for (const file of manifest.files) {
    const where = fromManifestPath(folder, file.path);
    if (file.path.split('/').includes('..') || path.isAbsolute(file.path)) throw new OperatorError(`The manifest names a file outside the backup (${file.path}): it is not a backup to trust.`);
    const found = await hashFile(where).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') throw new OperatorError(`The backup is incomplete: ${file.path} is missing.`);
      throw err;
    });
    if (found.size !== file.size) throw new OperatorError(`The backup is damaged: ${file.path} has ${found.size} bytes, its manifest says ${file.size} (truncated or changed since it was taken).`);
    if (found.sha256 !== file.sha256) throw new OperatorError(`The backup is damaged: ${file.path} does not match its SHA-256 in the manifest (changed since it was taken).`);
  }
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const store of manifest.stores) {
    if (!listed.has(store.file)) throw new OperatorError(`The manifest names ${store.file} as ${STORE_NAMES[store.store]} but lists no such file.`);
    requireKnownMigrations(manifest, store, store.migrations);
    if (manifest.engine === 'sqlite') {
      const found = checkSqliteCopy(fromManifestPath(folder, store.file), store.store);
      // The copy itself says which migrations it has: the manifest's word is not taken for it.
      requireKnownMigrations(manifest, store, found.migrations);
      for (const [table, rows] of Object.entries(store.tables)) {
        if (found.tables[table] !== rows) throw new OperatorError(`The backup is damaged: ${store.file} holds ${found.tables[table] ?? 'no'} rows in ${table}, its manifest says ${rows}.`);
      }
    }
  }
  if (manifest.engine === 'postgres') {
    await requireTools('pg_restore');
    await checkPostgresDump(fromManifestPath(folder, manifest.stores[0]!.file));
  }
  const app = manifest.stores.find((s) => s.store === 'app');
  if (!app) throw new OperatorError('The manifest names no database: it is not a backup restore can use.');
  const rows = Object.values(app.tables).reduce((sum, n) => sum + n, 0);
  const summary =
    `${path.basename(folder)}: taken ${manifest.createdAt} by ${manifest.by} (Frontdesk ${manifest.appVersion}, ${manifest.engine}); ` +
    `${manifest.files.length} ${manifest.files.length === 1 ? 'file' : 'files'}, ${formatBytes(manifest.sizeBytes)}, every SHA-256 matches; ` +
    `${manifest.engine === 'sqlite' ? 'SQLite integrity check ok' : 'the dump reads'}; ${rows} rows; migration ${app.migrations.at(-1) ?? '(none)'}.`;
  return { folder, manifest, summary };
}

/** Where and what is being restored, step by step, for the operator. */
export type Say = (line: string) => void;

const stampOf = (at: Date) => at.toISOString().replace(/[:.]/g, '-');

/** The files a SQLite database may have beside it. */
const sqliteFamily = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];

/** Copies the backup's files of `folder` into `to`, each checked again as it is written (the backup could change between the check and now). */
async function stageFolder(backup: CheckedBackup, folder: FileFolder, to: string): Promise<number> {
  await fs.promises.mkdir(to, { recursive: true });
  const prefix = `files/${folder}/`;
  let count = 0;
  for (const file of backup.manifest.files.filter((f) => f.path.startsWith(prefix))) {
    const copied = await copyFile(fromManifestPath(backup.folder, file.path), path.join(to, ...file.path.slice(prefix.length).split('/')));
    if (copied.sha256 !== file.sha256) throw new OperatorError(`${file.path} changed after the backup was checked: nothing was restored.`);
    count++;
  }
  return count;
}

/** Refuses while a server (or a backup) has the database open. */
async function requireNoServer(target: RestoreTarget): Promise<void> {
  if (isPostgresUrl(target.databaseUrl)) {
    const clients = await postgresClients(target.databaseUrl);
    if (clients.length === 0) return;
    const who = clients.map((c) => `${c.count} × ${c.application} from ${c.from}`).join(', ');
    throw new OperatorError(`Frontdesk is connected to this database (${who}): stop every instance (and any npm run backup) first, then restore.`);
  }
  for (const file of [sqliteFileOf(target.databaseUrl), sqliteFileOf(emulatorStoreBeside(target.databaseUrl))]) {
    if (sqliteInUse(file)) throw new OperatorError(`A Frontdesk server (or npm run backup) has ${path.resolve(file)} open: stop it first, then restore.`);
  }
}

/**
 * Restores the backup at `folder` into `target`. Checks it first (nothing is touched when it fails),
 * refuses while a server uses the database, and answers where the data it replaced now is.
 */
export async function restoreBackup(folder: string, target: RestoreTarget, say: Say, now: () => Date = () => new Date()): Promise<{ replaced: string | null }> {
  const postgres = isPostgresUrl(target.databaseUrl);
  if (!postgres && sqliteFileOf(target.databaseUrl) === ':memory:') throw new OperatorError('DATABASE_URL is :memory:: there is no database file to restore into.');
  await requireNoServer(target);
  say(`Checking ${folder}…`);
  const backup = await checkBackup(folder);
  say(`Checked ${backup.summary}`);
  const { manifest } = backup;
  if ((manifest.engine === 'postgres') !== postgres) {
    throw new OperatorError(`The backup is of a ${manifest.engine === 'postgres' ? 'PostgreSQL' : 'SQLite'} database and DATABASE_URL names a ${postgres ? 'PostgreSQL' : 'SQLite'} one: restore it into the engine it was taken from.`);
  }

  const stamp = stampOf(now());
  const liveFile = sqliteFileOf(target.databaseUrl);
  const liveEmulator = sqliteFileOf(emulatorStoreBeside(target.databaseUrl));
  // The data replaced goes beside the database (SQLite) or the uploads (PostgreSQL): `data/replaced-<time>/` by default.
  const replaced = path.join(path.dirname(path.resolve(postgres ? target.files.uploads : liveFile)), `replaced-${stamp}`);
  const staged = new Map<FileFolder, string>(FILE_FOLDERS.map((f) => [f, `${path.resolve(target.files[f])}.restoring-${stamp}`]));
  const stagedDb = { app: `${path.resolve(liveFile)}.restoring-${stamp}`, emulator: `${path.resolve(liveEmulator)}.restoring-${stamp}` };
  const discardStaged = () => Promise.all([...staged.values(), stagedDb.app, stagedDb.emulator].flatMap((p) => sqliteFamily(p).map((f) => fs.promises.rm(f, { recursive: true, force: true }))));

  // ---- prepared beside the live data: nothing live is touched until all of it is ready
  try {
    const copied: string[] = [];
    for (const [name, to] of staged) copied.push(`${await stageFolder(backup, name, to)} ${FOLDER_NAMES[name]}`);
    say(`Copied the files beside the live ones: ${copied.join(', ')}.`);
    if (!postgres) {
      for (const store of manifest.stores) {
        const to = store.store === 'app' ? stagedDb.app : stagedDb.emulator;
        await fs.promises.mkdir(path.dirname(to), { recursive: true });
        const copied = await copyFile(fromManifestPath(folder, store.file), to);
        if (copied.sha256 !== manifest.files.find((f) => f.path === store.file)?.sha256) throw new OperatorError(`${store.file} changed after the backup was checked: nothing was restored.`);
      }
      await moveForward(manifest, `file:${stagedDb.app}`, manifest.stores.some((s) => s.store === 'kisi-emulator') ? `file:${stagedDb.emulator}` : undefined, say);
    }
    // A server started while the files were copied? (On either engine: the swap below must not happen under it.)
    await requireNoServer(target);
    // What is set aside holds what the database holds: readable by this user alone, as a backup is.
    await fs.promises.mkdir(replaced, { recursive: true, mode: 0o700 });
  } catch (err) {
    await discardStaged();
    throw err;
  }

  // ---- the live data aside, the backup's in its place
  if (postgres) {
    try {
      if (await postgresHasTables(target.databaseUrl)) {
        await fs.promises.mkdir(path.join(replaced, 'database'), { recursive: true });
        await dumpPostgres(target.databaseUrl, path.join(replaced, 'database', 'frontdesk.pgdump'));
        say(`Dumped the database it replaces to ${path.join(replaced, 'database', 'frontdesk.pgdump')}.`);
      }
      await restorePostgres(target.databaseUrl, fromManifestPath(folder, manifest.stores[0]!.file));
    } catch (err) {
      // The database is as it was (the restore is one transaction): nothing was replaced.
      await Promise.all([discardStaged(), fs.promises.rm(replaced, { recursive: true, force: true })]);
      throw err;
    }
    say('Restored the database.');
  } else {
    for (const [live, ready] of [
      [liveFile, stagedDb.app],
      [liveEmulator, manifest.stores.some((s) => s.store === 'kisi-emulator') ? stagedDb.emulator : undefined],
    ] as const) {
      for (const file of sqliteFamily(live)) await moveAside(file, path.join(replaced, 'database', path.basename(file)));
      if (ready) for (const [from, to] of sqliteFamily(ready).map((f, i) => [f, sqliteFamily(live)[i]!] as const)) if (fs.existsSync(from)) await fs.promises.rename(from, to);
    }
    say(`Restored the database${manifest.stores.length > 1 ? ' and the Kisi emulator’s store' : ''}.`);
  }
  for (const [name, ready] of staged) {
    const live = path.resolve(target.files[name]);
    await moveAside(live, path.join(replaced, 'files', name));
    await fs.promises.mkdir(path.dirname(live), { recursive: true });
    await fs.promises.rename(ready, live);
  }
  say(`Restored the files (${FILE_FOLDERS.map((f) => target.files[f]).join(', ')}).`);
  if (postgres) {
    // Last: should a migration fail, what is restored stays whole and the next start tries it again.
    await moveForward(manifest, target.databaseUrl, manifest.stores.some((s) => s.store === 'kisi-emulator') ? target.databaseUrl : undefined, say).catch((err: unknown) => {
      throw new OperatorError(`The backup is restored, but moving it forward through the migrations failed (the server's start will try again): ${(err as Error).message}`);
    });
  }
  // Made ahead (owner only): left only when something was set aside in it.
  const keptAside = fs.existsSync(replaced) && fs.readdirSync(replaced).length > 0;
  if (!keptAside) await fs.promises.rm(replaced, { recursive: true, force: true });
  return { replaced: keptAside ? replaced : null };
}

/**
 * Brings a restored store up to this code's migrations (a backup from an older Frontdesk) and clears
 * the backup lease its copy carries: the same migrations a server start runs.
 */
async function moveForward(manifest: Manifest, appUrl: string, emulatorUrl: string | undefined, say: Say): Promise<void> {
  const app = manifest.stores.find((s) => s.store === 'app')!;
  const missing = Object.keys(MIGRATIONS).filter((name) => !app.migrations.includes(name));
  const database = await openDatabase(appUrl);
  try {
    await backupStateRepository(database.db).forgetLease();
  } finally {
    await database.close();
  }
  if (missing.length > 0) say(`Moved the database forward through ${missing.length} migration(s): ${missing.join(', ')}.`);
  if (emulatorUrl) await (await openEmulatorDatabase(emulatorUrl)).close();
}
