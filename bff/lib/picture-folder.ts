import fs from 'node:fs/promises';
import path from 'node:path';
import { periodicJob, type Job } from './jobs';
import type { Logger } from './logger';

/**
 * A folder of pictures kept by the picture proxy (`picture-proxy.ts`), held under a size: when it has
 * outgrown its limit, the pictures used least recently are removed until it is back under 90 % of it
 * (so one more picture does not start another pruning at once). A picture's last use is the newest
 * modification time of its files; the proxy records a use by touching its description, at most once
 * an hour (a write per request would cost more than the order it keeps).
 *
 * Pruning is started after a picture is stored, once the folder may be over its limit (its size as
 * last counted plus what this process stored since), and by a job every hour and at start (other
 * instances sharing the folder, a lowered limit). It runs in the background, one at a time, reading
 * the folder one file at a time so it never holds the event loop or the file system's threads.
 */

/** The share of the limit a pruning brings the folder down to. */
const PRUNE_TO = 0.9;
/** A use is recorded on a picture at most this often. */
export const USE_RECORDED_EVERY_MS = 60 * 60_000;
/** A temporary file this old is what a stopped process left half-written, not a download under way. */
const LEFTOVER_AFTER_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;
/** The files of one picture: `<sha256>` (its bytes), `<sha256>.json` (its description), `<sha256>….tmp` while written. */
const PICTURE_FILE = /^([0-9a-f]{64})(\..+)?$/;

export interface PictureFolderOptions {
  directory: string;
  maxBytes: number;
  logger: Logger;
  /** What the pictures are, for the log and the job's name ("catalogue pictures"). */
  name: string;
  now?: () => number;
}

export interface PruneResult {
  /** Pictures removed (their bytes and description), and leftover temporary files. */
  removed: number;
  freedBytes: number;
  /** The folder's size afterwards. */
  totalBytes: number;
}

interface PictureFiles {
  files: Array<{ name: string; size: number }>;
  size: number;
  /** Newest modification of its finished files; undefined while it has only a download under way. */
  lastUsed: number | undefined;
}

export function pictureFolder({ directory, maxBytes, logger, name, now = Date.now }: PictureFolderOptions) {
  const root = path.resolve(directory);
  /** The folder's size as last counted plus what was stored since; undefined until it is first counted. */
  let knownBytes: number | undefined;
  /** Stored while a pruning runs: its count may have missed them, so they are added to it (counted twice at worst, never missed). */
  let storedDuringPrune = 0;
  let running: Promise<PruneResult> | undefined;

  async function remove(file: string): Promise<boolean> {
    try {
      await fs.rm(path.join(root, file), { force: true });
      return true;
    } catch (err) {
      logger.warn({ err, folder: root, file }, `${name}: a file could not be removed`);
      return false;
    }
  }

  async function pruneOnce(): Promise<PruneResult> {
    storedDuringPrune = 0;
    let names: string[];
    try {
      names = await fs.readdir(root);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      names = []; // nothing stored yet
    }
    const pictures = new Map<string, PictureFiles>();
    let total = 0;
    let removed = 0;
    let freed = 0;
    const startedAt = now();
    // One file at a time: a folder of 100,000 pictures is read in the background without crowding out requests.
    for (const file of names) {
      const key = PICTURE_FILE.exec(file)?.[1];
      if (!key) continue; // not ours: never removed
      let stat;
      try {
        stat = await fs.stat(path.join(root, file));
      } catch {
        continue; // removed meanwhile
      }
      if (!stat.isFile()) continue;
      const temporary = file.endsWith('.tmp');
      if (temporary && startedAt - stat.mtimeMs > LEFTOVER_AFTER_MS) {
        if (await remove(file)) {
          removed += 1;
          freed += stat.size;
        }
        continue;
      }
      total += stat.size;
      let picture = pictures.get(key);
      if (!picture) pictures.set(key, (picture = { files: [], size: 0, lastUsed: undefined }));
      picture.size += stat.size;
      // A download under way is counted, but is never removed: it is not a picture yet.
      if (temporary) continue;
      picture.files.push({ name: file, size: stat.size });
      picture.lastUsed = Math.max(picture.lastUsed ?? 0, stat.mtimeMs);
    }

    if (total > maxBytes) {
      const target = Math.floor(maxBytes * PRUNE_TO);
      const oldestFirst = [...pictures.values()].filter((p) => p.lastUsed !== undefined).sort((a, b) => a.lastUsed! - b.lastUsed!);
      for (const picture of oldestFirst) {
        if (total <= target) break;
        // The description first: without it the picture is no longer served from here, only fetched again.
        const files = [...picture.files].sort((a, b) => Number(b.name.endsWith('.json')) - Number(a.name.endsWith('.json')));
        let gone = 0;
        for (const file of files) if (await remove(file.name)) gone += file.size;
        total -= gone;
        freed += gone;
        removed += 1;
      }
    }
    knownBytes = total + storedDuringPrune;
    if (removed > 0) logger.info({ folder: root, removed, freedBytes: freed, totalBytes: total, maxBytes }, `${name}: pruned the least recently used`);
    return { removed, freedBytes: freed, totalBytes: total };
  }

  const pruneInBackground = () => void prune().catch((err: unknown) => logger.warn({ err, folder: root }, `${name}: pruning failed`));

  /** Prunes the folder now (one pruning at a time: a call while one runs shares it). */
  function prune(): Promise<PruneResult> {
    running ??= pruneOnce().finally(() => {
      running = undefined;
      // Pictures stored while it ran may have taken the folder over its limit again: they are not left waiting for the next one.
      if (storedDuringPrune > 0 && knownBytes !== undefined && knownBytes > maxBytes) pruneInBackground();
    });
    return running;
  }

  const job: Job = periodicJob(`${name} pruning`, PRUNE_EVERY_MS, prune, logger);

  return {
    prune,
    job,
    /** A picture of `bytes` was stored: when the folder may now be over its limit, it is pruned in the background. */
    stored(bytes: number): void {
      if (running) return void (storedDuringPrune += bytes);
      if (knownBytes !== undefined && (knownBytes += bytes) <= maxBytes) return;
      pruneInBackground();
    },
    /** A stored picture is served: its use is recorded on `file` (its description) when the last record is over an hour old. */
    async used(file: string, lastRecordedMs: number): Promise<void> {
      const at = now();
      if (at - lastRecordedMs < USE_RECORDED_EVERY_MS) return;
      const when = new Date(at);
      await fs.utimes(file, when, when).catch(() => {}); // pruned meanwhile: nothing to record
    },
  };
}
export type PictureFolder = ReturnType<typeof pictureFolder>;
