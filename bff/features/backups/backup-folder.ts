import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import type { KeptBackup } from '../../contracts/operations.contract';

/**
 * BACKUP_DIR and the backups in it. A backup is a folder `frontdesk-<UTC time>` holding
 * `database/` (the database copies, or PostgreSQL's dump), `files/<folder>/` (the uploads and
 * picture folders) and `manifest.json`, which is written last: a folder is a backup once its manifest
 * is there. It is built in `.incomplete-<name>` beside it and renamed when whole, so a crash leaves
 * nothing named as a good backup.
 */

export const MANIFEST = 'manifest.json';
const NAME = /^frontdesk-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z(-\d+)?$/;
const INCOMPLETE_PREFIX = '.incomplete-';

/** The folders a backup holds besides the databases, each under `files/<name>/`. */
export const FILE_FOLDERS = ['uploads', 'catalogue-images', 'sample-images'] as const;
export type FileFolder = (typeof FILE_FOLDERS)[number];

const BackupFileSchema = v.object({ path: v.string(), size: v.number(), sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)) });

/** A database store in the backup: the product's, or the Kisi emulator's (on PostgreSQL both are in one dump). */
const StoreSchema = v.object({
  store: v.picklist(['app', 'kisi-emulator']),
  /** Its copy in the backup (the dump on PostgreSQL). */
  file: v.string(),
  /** Every migration applied to it, in order: the last is its version. */
  migrations: v.array(v.string()),
  /** Rows per table when the copy was taken (PostgreSQL: the emulator's as `kisi_emulator.<table>`). */
  tables: v.record(v.string(), v.number()),
});

export const ManifestSchema = v.object({
  format: v.literal(1),
  app: v.literal('frontdesk'),
  appVersion: v.string(),
  engine: v.picklist(['sqlite', 'postgres']),
  /** When the database copy was taken: every write acknowledged before it is in the backup. */
  createdAt: v.string(),
  finishedAt: v.string(),
  by: v.string(),
  stores: v.array(StoreSchema),
  folders: v.array(v.object({ name: v.picklist(FILE_FOLDERS), from: v.string(), files: v.number(), bytes: v.number() })),
  /** Every file of the backup but the manifest, with its size and SHA-256. */
  files: v.array(BackupFileSchema),
  sizeBytes: v.number(),
  /** What was left out on purpose, and what changed while the folders were read, in words. */
  notes: v.array(v.string()),
});
export type Manifest = v.InferOutput<typeof ManifestSchema>;
export type ManifestStore = Manifest['stores'][number];

/** `frontdesk-2026-12-01T03-00-00-000Z`: sorts as it was taken. */
export const backupNameFor = (at: Date) => `frontdesk-${at.toISOString().replace(/[:.]/g, '-')}`;

export const isBackupName = (name: string) => NAME.test(name);

/** The folder a backup is built in until it is whole. */
export const incompleteFolderOf = (folder: string, name: string) => path.join(folder, `${INCOMPLETE_PREFIX}${name}`);

/** Reads and checks a backup's manifest; throws an Error in words when it is missing or not one. */
export async function readManifest(backup: string): Promise<Manifest> {
  let text: string;
  try {
    text = await fs.promises.readFile(path.join(backup, MANIFEST), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${backup} has no ${MANIFEST}: it is not a backup, or one that never finished.`);
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path.join(backup, MANIFEST)} is not valid JSON: the backup is damaged.`);
  }
  const parsed = v.safeParse(ManifestSchema, json);
  if (!parsed.success) throw new Error(`${path.join(backup, MANIFEST)} is not a Frontdesk backup manifest (${v.getDotPath(parsed.issues[0]) ?? 'its shape'}: ${parsed.issues[0].message}).`);
  return parsed.output;
}

/** Writes the manifest, flushed to the disk: the last file of a backup. */
export async function writeManifest(backup: string, manifest: Manifest): Promise<void> {
  const file = await fs.promises.open(path.join(backup, MANIFEST), 'wx');
  try {
    await file.writeFile(`${JSON.stringify(manifest, null, 1)}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
}

/** The backups in `folder`, newest first, with what their manifests say. */
export async function keptBackups(folder: string): Promise<KeptBackup[]> {
  let names: string[];
  try {
    names = (await fs.promises.readdir(folder, { withFileTypes: true })).filter((e) => e.isDirectory() && isBackupName(e.name)).map((e) => e.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  names.sort().reverse();
  return Promise.all(
    names.map(async (name): Promise<KeptBackup> => {
      try {
        const manifest = await readManifest(path.join(folder, name));
        const stores = manifest.stores.find((s) => s.store === 'app');
        return { name, createdAt: manifest.createdAt, sizeBytes: manifest.sizeBytes, ok: true, engine: manifest.engine, migration: stores?.migrations.at(-1) ?? null, appVersion: manifest.appVersion };
      } catch {
        return { name, createdAt: null, sizeBytes: 0, ok: false, engine: null, migration: null, appVersion: null };
      }
    }),
  );
}

/**
 * Keeps the newest `keep` whole backups in `folder` (0: all) and deletes the older ones, and the
 * folders of backups that never finished (a process that died midway). Call it while holding the
 * backup lease: then no other backup is being built there. Answers the names deleted.
 */
export async function rotate(folder: string, keep: number): Promise<string[]> {
  const removed: string[] = [];
  const entries = await fs.promises.readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory() && entry.name.startsWith(INCOMPLETE_PREFIX)) {
      await fs.promises.rm(path.join(folder, entry.name), { recursive: true, force: true });
      removed.push(entry.name);
    }
  }
  if (keep === 0) return removed;
  // Only whole backups count and go: a folder without its manifest is someone's to look at.
  const whole = (await keptBackups(folder)).filter((b) => b.ok);
  for (const old of whole.slice(keep)) {
    await fs.promises.rm(path.join(folder, old.name), { recursive: true, force: true });
    removed.push(old.name);
  }
  return removed;
}
