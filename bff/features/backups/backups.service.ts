import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import type { BackupRun, BackupsOverview } from '../../contracts/operations.contract';
import type { Database } from '../../db/database';
import { sqliteFileOf } from '../../db/engine';
import { emulatorStoreBeside } from '../../kisi/emulator/emulator.database';
import type { Logger } from '../../lib/logger';
import { copyFolder, formatBytes, hashFile, type BackupFile } from './backup-files';
import { FILE_FOLDERS, backupNameFor, incompleteFolderOf, keptBackups, rotate, writeManifest, type FileFolder, type Manifest, type ManifestStore } from './backup-folder';
import { backupStateRepository, type BackupLease } from './backup-state.repository';
import { OperatorError, copySqlite, dumpPostgres } from './database-copy';

/**
 * Taking a backup (docs/operations.md "Backups and restore", decision 0096). One at a time across
 * every instance and the command line (a lease in `app_meta`); the database is copied first, as one
 * consistent snapshot taken while the app goes on serving, then the files, then the manifest; the
 * folder is named as a backup only once it is whole; the oldest beyond BACKUP_KEEP go; and what
 * happened is recorded where every instance reads it.
 */

export interface BackupSettings {
  databaseUrl: string;
  /** BACKUP_DIR, resolved. */
  folder: string;
  everyHours: number;
  keep: number;
  /** Where each folder of files lives (UPLOADS_DIR, CATALOGUE_IMAGE_DIR, SAMPLES_IMAGE_DIR). */
  files: Record<FileFolder, string>;
  appVersion: string;
}

export const backupSettingsOf = (config: Config, appVersion: string): BackupSettings => ({
  databaseUrl: config.DATABASE_URL,
  folder: path.resolve(config.BACKUP_DIR),
  everyHours: config.BACKUP_EVERY_HOURS,
  keep: config.BACKUP_KEEP,
  files: { uploads: config.UPLOADS_DIR, 'catalogue-images': config.CATALOGUE_IMAGE_DIR, 'sample-images': config.SAMPLES_IMAGE_DIR },
  appVersion,
});

/** Another backup is being taken (by an instance, or the command line). */
export class BackupBusy extends OperatorError {}

/**
 * How long a backup holds the lease before it must renew it: a process that died (kill -9) keeps
 * every other from backing up no longer than this.
 */
export const LEASE_MS = 2 * 60_000;
const RENEW_EVERY_MS = 30_000;
/** A failed scheduled backup is tried again after this long (or the schedule's interval, if shorter). */
const RETRY_FAILED_MS = 60 * 60_000;

/**
 * What a backup leaves out on purpose: uploads under way (tus's `parts/`: an unfinished upload is
 * started again by its page, and its reservation expires), and pictures still being downloaded.
 */
const SKIP: Record<FileFolder, (relative: string) => boolean> = {
  uploads: (relative) => relative === 'parts' || relative.startsWith('parts/'),
  'catalogue-images': (relative) => relative.endsWith('.tmp'),
  'sample-images': (relative) => relative.endsWith('.tmp'),
};

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();

export interface BackupsServiceDeps {
  /** The app's database, for the lease and the record (the copy is taken from DATABASE_URL, apart from its connections). */
  database: Pick<Database, 'db' | 'engine'>;
  settings: BackupSettings;
  logger?: Logger;
  now?: () => Date;
}

export function backupsService({ database, settings, logger, now = () => new Date() }: BackupsServiceDeps) {
  const state = backupStateRepository(database.db);
  /** The backup this process is taking, so a stop can end it. */
  let current: { stop: AbortController; done: Promise<unknown> } | undefined;
  /** The server is stopping: no backup starts any more. */
  let stopping = false;

  /** The databases into `into/database/`, one snapshot each; answers what the manifest says of them. */
  async function copyDatabases(into: string, signal: AbortSignal): Promise<ManifestStore[]> {
    await fs.promises.mkdir(path.join(into, 'database'));
    if (database.engine === 'postgres') {
      const file = 'database/frontdesk.pgdump';
      const { app, emulator } = await dumpPostgres(settings.databaseUrl, path.join(into, file), signal);
      return [{ store: 'app', file, ...app }, ...(emulator ? [{ store: 'kisi-emulator' as const, file, ...emulator }] : [])];
    }
    const live = sqliteFileOf(settings.databaseUrl);
    if (live === ':memory:') throw new OperatorError('An in-memory database (DATABASE_URL=:memory:) cannot be backed up: it is gone when the process ends.');
    const stores: ManifestStore[] = [{ store: 'app', file: 'database/frontdesk.db', ...(await copySqlite(live, path.join(into, 'database', 'frontdesk.db'), 'app', signal)) }];
    // The emulator's store is a file beside the database, there once it has been used.
    const emulator = sqliteFileOf(emulatorStoreBeside(settings.databaseUrl));
    if (fs.existsSync(emulator)) {
      stores.push({ store: 'kisi-emulator', file: 'database/kisi-emulator.db', ...(await copySqlite(emulator, path.join(into, 'database', 'kisi-emulator.db'), 'kisi-emulator', signal)) });
    }
    return stores;
  }

  /** Builds the backup in its incomplete folder and renames it when whole. */
  async function build(name: string, by: string, signal: AbortSignal): Promise<Manifest> {
    const building = incompleteFolderOf(settings.folder, name);
    // Only this user may read them: a backup holds what the database holds (password hashes among it).
    await fs.promises.mkdir(building, { recursive: true, mode: 0o700 }).catch((err: unknown) => {
      throw new OperatorError(`BACKUP_DIR (${settings.folder}) cannot be written to: ${messageOf(err)}`);
    });
    try {
      // Every write acknowledged before this moment is in the copy.
      const createdAt = now().toISOString();
      const stores = await copyDatabases(building, signal);
      const files: BackupFile[] = [];
      for (const file of new Set(stores.map((s) => s.file))) files.push({ path: file, ...(await hashFile(path.join(building, file))) });
      // Then the files: a file the copy names was stored before it (files are written before their rows).
      const notes: string[] = [];
      const folders: Manifest['folders'] = [];
      for (const folder of FILE_FOLDERS) {
        const from = path.resolve(settings.files[folder]);
        const copied = await copyFolder(from, path.join(building, 'files', folder), `files/${folder}`, SKIP[folder], signal);
        files.push(...copied.files);
        folders.push({ name: folder, from, files: copied.files.length, bytes: copied.files.reduce((sum, f) => sum + f.size, 0) });
        if (copied.vanished > 0) notes.push(`${copied.vanished} file(s) of ${from} were removed while it was being copied (pictures pruned, files deleted after the database copy): left out.`);
      }
      if (fs.existsSync(path.join(settings.files.uploads, 'parts'))) {
        notes.push('Uploads under way (the parts/ folder of UPLOADS_DIR) are not kept: after a restore their pages start them again.');
      }
      const manifest: Manifest = {
        format: 1,
        app: 'frontdesk',
        appVersion: settings.appVersion,
        engine: database.engine,
        createdAt,
        finishedAt: now().toISOString(),
        by,
        stores,
        folders,
        files,
        sizeBytes: files.reduce((sum, f) => sum + f.size, 0),
        notes,
      };
      signal.throwIfAborted();
      // The manifest last, then the name: a folder named as a backup is a whole one.
      await writeManifest(building, manifest);
      await fs.promises.rename(building, path.join(settings.folder, name));
      await syncFolder(settings.folder);
      return manifest;
    } catch (err) {
      await fs.promises.rm(building, { recursive: true, force: true });
      throw err;
    }
  }

  /** A name no backup has yet (two in one millisecond are not possible under the lease, but a clock can step back). */
  function freshName(at: Date): string {
    const base = backupNameFor(at);
    let name = base;
    for (let n = 2; fs.existsSync(path.join(settings.folder, name)); n++) name = `${base}-${n}`;
    return name;
  }

  /** Runs `work` holding the lease, renewed while it runs; a lease lost to another process stops it. */
  async function underLease<T>(lease: BackupLease, signal: AbortController, work: () => Promise<T>): Promise<T> {
    const renew = setInterval(() => {
      state.renew(lease, new Date(now().getTime() + LEASE_MS).toISOString()).then(
        (still) => still || signal.abort(new Error('Another process took the backup over (this one had not renewed its lease in time).')),
        (err: unknown) => logger?.warn({ err }, 'backup: renewing the lease failed'),
      );
    }, RENEW_EVERY_MS);
    renew.unref();
    try {
      return await work();
    } finally {
      clearInterval(renew);
      await state.release(lease.holder).catch((err: unknown) => logger?.warn({ err }, 'backup: releasing the lease failed'));
    }
  }

  /**
   * Takes a backup now, as `by` (the schedule, the command line, an admin's email), and answers how it
   * went; it is recorded either way. Throws BackupBusy when another is being taken.
   */
  async function take(by: string): Promise<BackupRun> {
    if (stopping) throw new BackupBusy('This server is stopping: take the backup after it has started again, or on another instance.');
    const started = now();
    const lease: BackupLease = { holder: crypto.randomUUID(), by, startedAt: started.toISOString() };
    if (!(await state.claim(lease, lease.startedAt, new Date(started.getTime() + LEASE_MS).toISOString()))) {
      const running = await state.running(now().toISOString());
      throw new BackupBusy(running ? `A backup is being taken already (by ${running.by}, since ${running.startedAt}): try again when it is done.` : 'A backup is being taken already: try again when it is done.');
    }
    const stop = new AbortController();
    const run = underLease(lease, stop, async (): Promise<BackupRun> => {
      const name = freshName(started);
      let result: BackupRun;
      try {
        const manifest = await build(name, by, stop.signal);
        result = { name, startedAt: lease.startedAt, finishedAt: now().toISOString(), ok: true, sizeBytes: manifest.sizeBytes, files: manifest.files.length, message: null, by };
        const removed = await rotate(settings.folder, settings.keep).catch((err: unknown) => {
          logger?.warn({ err }, 'backup: removing old backups failed');
          return [];
        });
        logger?.info({ backup: name, bytes: manifest.sizeBytes, files: manifest.files.length, ms: Date.parse(result.finishedAt) - started.getTime(), removed }, `backup ${name} taken (${formatBytes(manifest.sizeBytes)})`);
      } catch (err) {
        const message = stop.signal.aborted ? messageOf(stop.signal.reason) : messageOf(err);
        result = { name: null, startedAt: lease.startedAt, finishedAt: now().toISOString(), ok: false, sizeBytes: null, files: null, message, by };
        logger?.error({ err }, `backup failed: ${message}`);
      }
      await state.record(result);
      return result;
    });
    current = { stop, done: run };
    try {
      return await run;
    } finally {
      if (current?.done === run) current = undefined;
    }
  }

  /** When the next scheduled backup is due: an interval after the last one tried (a failed one sooner), or after the schedule began. */
  async function nextDue(): Promise<Date | null> {
    if (settings.everyHours === 0) return null;
    const everyMs = settings.everyHours * 3_600_000;
    const last = await state.last();
    if (!last) return new Date(Date.parse(await state.scheduleSince(now().toISOString())) + everyMs);
    return new Date(Date.parse(last.finishedAt) + (last.ok ? everyMs : Math.min(everyMs, RETRY_FAILED_MS)));
  }

  return {
    take,
    nextDue,

    /** The schedule's turn: takes a backup when one is due and no other is being taken. */
    async takeIfDue(): Promise<BackupRun | undefined> {
      if (stopping) return undefined;
      const due = await nextDue();
      if (!due || due > now()) return undefined;
      return take('schedule').catch((err: unknown) => {
        if (err instanceof BackupBusy) return undefined; // another instance has it
        throw err;
      });
    },

    async overview(): Promise<BackupsOverview> {
      const at = now().toISOString();
      const [last, lastSuccess, running, kept, due] = await Promise.all([state.last(), state.lastSuccess(), state.running(at), keptBackups(settings.folder), nextDue()]);
      return {
        last,
        lastSuccess,
        running: running && { startedAt: running.startedAt, by: running.by },
        kept,
        schedule: { everyHours: settings.everyHours, keep: settings.keep, nextAt: due?.toISOString() ?? null },
        folder: settings.folder,
        engine: database.engine,
      };
    },

    /** Ends the backup this process is taking, if any (the server is stopping): it is recorded as failed. */
    async stop(): Promise<void> {
      stopping = true;
      const running = current;
      if (!running) return;
      running.stop.abort(new Error('The server stopped while the backup was being taken.'));
      await running.done.catch(() => undefined);
    },
  };
}
export type BackupsService = ReturnType<typeof backupsService>;

/** Makes a rename in `folder` durable (the folder's own entry list flushed to the disk). */
async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.promises.open(folder, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems do not sync a directory: the rename stands, only its durability is the system's.
  } finally {
    await handle.close();
  }
}
