import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The files of a backup: copied (never hard-linked: a link is the same bytes, and a disk fault or a
 * deletion takes both) with their SHA-256 taken from the bytes written, and checked again the same
 * way before a restore. Paths in a manifest are relative and use `/` on every system.
 */

/** One file of a backup, as its manifest lists it. */
export interface BackupFile {
  /** From the backup's folder, with `/` (`files/uploads/blobs/<sha256>`). */
  path: string;
  size: number;
  sha256: string;
}

/** 1 MB reads: the default 64 KB made hashing a large file markedly slower (see uploads.service.ts). */
const CHUNK = 1024 * 1024;

const toManifestPath = (relative: string) => relative.split(path.sep).join('/');
export const fromManifestPath = (root: string, manifestPath: string) => path.join(root, ...manifestPath.split('/'));

/**
 * Copies `from` to `to` (created), flushed to the disk before it is closed, and answers the size and
 * SHA-256 of what was written. `signal` ends the copy midway (the server is stopping).
 */
export async function copyFile(from: string, to: string, signal?: AbortSignal): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  await pipeline(fs.createReadStream(from, { highWaterMark: CHUNK }), tap, fs.createWriteStream(to, { flush: true }), { signal });
  return { size, sha256: hash.digest('hex') };
}

/** The size and SHA-256 of a file as it is now. */
export async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: CHUNK })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

export interface FolderCopy {
  files: BackupFile[];
  /** Files that were listed but gone by the time they were read (a picture pruned, a file deleted meanwhile). */
  vanished: number;
}

/**
 * Copies every regular file under `from` into `to`, keeping the layout, except those `skip` names
 * (by their path relative to `from`, with `/`). Files are listed under `prefix` in the manifest. A
 * folder that does not exist is an empty one. A file that disappears while the folder is read is
 * left out and counted: the folder is live, and the database copy says which files it needs.
 */
export async function copyFolder(from: string, to: string, prefix: string, skip: (relative: string) => boolean, signal?: AbortSignal): Promise<FolderCopy> {
  const copied: FolderCopy = { files: [], vanished: 0 };
  if (!fs.existsSync(from)) return copied;
  const walk = async (relative: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(path.join(from, relative), { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      signal?.throwIfAborted();
      const child = path.join(relative, entry.name);
      if (skip(toManifestPath(child))) continue;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) {
        try {
          const { size, sha256 } = await copyFile(path.join(from, child), path.join(to, child), signal);
          copied.files.push({ path: `${prefix}/${toManifestPath(child)}`, size, sha256 });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          copied.vanished++;
        }
      }
      // Links and devices are no part of what the app writes: left out.
    }
  };
  await walk('');
  return copied;
}

/** Folder sizes as people read them: "12.3 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/**
 * Moves `from` to `to` (a file or a folder): a rename, or where they are on different file systems
 * a copy and then the removal of the original. Answers false when there was nothing at `from`.
 */
export async function moveAside(from: string, to: string): Promise<boolean> {
  if (!fs.existsSync(from)) return false;
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.promises.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.promises.cp(from, to, { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
    await fs.promises.rm(from, { recursive: true, force: true });
  }
  return true;
}
