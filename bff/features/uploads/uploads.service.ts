import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { SessionUser } from '../../contracts/auth.contract';
import type { CursorPageQuery, Page } from '../../contracts/common.contract';
import type { StoredUpload, UploadLimits } from '../../contracts/uploads.contract';
import { blobLock, blobPath } from '../../db/upload-blobs';
import { forbidden, HttpError, notFound } from '../../lib/http-error';
import { bytesMatchType } from './sniff';
import type { PendingUpload, UploadsRepository } from './uploads.repository';

export interface UploadSettings {
  /** Where finished files live, one per SHA-256 (`blobs/`), and tus keeps parts under way (`parts/`). */
  directory: string;
  maxFileBytes: number;
  maxBatchBytes: number;
  maxBatchFiles: number;
  quotaBytes: number;
  allowedTypes: Record<string, readonly string[]>;
  chunkBytes: number;
}

export interface UploadsServiceDeps {
  uploads: UploadsRepository;
  /** Runs `work` in one transaction holding the lock `name` (a file's hash, an account's quota), with the repository bound to it. */
  underLock: <T>(name: string, work: (uploads: UploadsRepository) => Promise<T>) => Promise<T>;
  settings: UploadSettings;
  now?: () => string;
}

/** What a new tus upload says about itself (its `Upload-Metadata` and `Upload-Length`). */
export interface UploadRequest {
  name: string | undefined;
  type: string | undefined;
  size: number | undefined;
  batch: string | undefined;
  batchFiles: number | undefined;
  batchBytes: number | undefined;
}

const MB = 1024 * 1024;
/** Megabytes to one decimal; `round` = Math.ceil for a size that is over a limit, so it never reads as equal to it. */
const inMegabytes = (bytes: number, round: (n: number) => number = Math.round) => `${round((bytes / MB) * 10) / 10} MB`;

/** A file name fit to show and to send back: no path, no control or bidi characters, at most 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const cleaned = base.replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/^\.+/, '').trim();
  return cleaned.slice(0, 200) || 'file';
}

async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  // 1 MB reads: the default 64 KB made reading back a 200 MB file 1.7 times slower.
  await pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

const extensionOf = (name: string) => (name.includes('.') ? name.split('.').pop()!.toLowerCase() : '');
const tooLarge = (detail: string) => new HttpError(413, detail);
const wrongType = (detail: string) => new HttpError(415, detail);

export function uploadsService({ uploads, underLock, settings, now = () => new Date().toISOString() }: UploadsServiceDeps) {
  const blobOf = (sha256: string) => blobPath(settings.directory, sha256);
  fs.mkdirSync(path.join(settings.directory, 'blobs'), { recursive: true });

  const kinds = () => Object.values(settings.allowedTypes).flat().map((ext) => `.${ext}`).join(', ');

  return {
    partsDirectory: path.join(settings.directory, 'parts'),

    async limits(user: SessionUser): Promise<UploadLimits> {
      return {
        maxFileBytes: settings.maxFileBytes,
        maxBatchBytes: settings.maxBatchBytes,
        maxBatchFiles: settings.maxBatchFiles,
        allowedTypes: Object.fromEntries(Object.entries(settings.allowedTypes).map(([type, extensions]) => [type, [...extensions]])),
        quotaBytes: settings.quotaBytes,
        usedBytes: await uploads.usedBytes(user.id),
        chunkBytes: settings.chunkBytes,
      };
    },

    list: (query: CursorPageQuery): Promise<Page<StoredUpload>> => uploads.list(query),

    /**
     * Checks a new upload against every limit before a byte is accepted, and records it as under
     * way for this account. Throws the 4xx that names the limit.
     */
    async admit(user: SessionUser, tusId: string, request: UploadRequest): Promise<PendingUpload> {
      if (request.size === undefined) throw new HttpError(400, 'Say the file’s size when the upload starts (Upload-Length).');
      const name = cleanFileName(request.name ?? '');
      const type = (request.type ?? '').toLowerCase();
      const extensions = settings.allowedTypes[type];
      if (!extensions) throw wrongType(`${name}: this kind of file is not accepted. Accepted: ${kinds()}.`);
      if (!extensions.includes(extensionOf(name))) throw wrongType(`${name}: the name does not end like a ${type} file (${extensions.map((e) => `.${e}`).join(', ')}).`);
      // An empty file has no bytes to check (tus finishes it at creation): only a text file may be empty.
      if (request.size === 0 && !bytesMatchType(type, Buffer.alloc(0))) throw wrongType(`${name} is empty: there is nothing in it that shows a ${type} file.`);
      if (request.size > settings.maxFileBytes) throw tooLarge(`${name} is ${inMegabytes(request.size, Math.ceil)}; the limit is ${inMegabytes(settings.maxFileBytes)} per file.`);
      const batch = request.batch && /^[A-Za-z0-9_-]{1,64}$/.test(request.batch) ? request.batch : null;
      if (batch) {
        if ((request.batchFiles ?? 0) > settings.maxBatchFiles) throw tooLarge(`At most ${settings.maxBatchFiles} files at once.`);
        if ((request.batchBytes ?? 0) > settings.maxBatchBytes) throw tooLarge(`At most ${inMegabytes(settings.maxBatchBytes)} at once.`);
      }
      const pending: PendingUpload = { tusId, accountId: user.id, name, type, size: request.size, batch };
      // Counted and recorded under this account's lock: a batch sends several files at once, and
      // each must see the room the others took (else three at once could all fit the last megabyte).
      await underLock(`upload-quota:${user.id}`, async (tx) => {
        const used = await tx.usedBytes(user.id);
        if (used + pending.size > settings.quotaBytes) {
          throw tooLarge(`${name} does not fit in your space: ${inMegabytes(used)} of ${inMegabytes(settings.quotaBytes)} is used. Delete some files first.`);
        }
        if (batch) {
          const soFar = await tx.batchSoFar(user.id, batch);
          if (soFar.files + 1 > settings.maxBatchFiles) throw tooLarge(`At most ${settings.maxBatchFiles} files at once.`);
          if (soFar.bytes + pending.size > settings.maxBatchBytes) throw tooLarge(`At most ${inMegabytes(settings.maxBatchBytes)} at once.`);
        }
        await tx.insertPending(pending, now());
      });
      return pending;
    },

    /** The upload under way, if it is this account's (anyone else's does not exist for them). */
    async pendingOf(user: SessionUser, tusId: string): Promise<PendingUpload> {
      const pending = await uploads.findPending(tusId);
      if (!pending || pending.accountId !== user.id) throw notFound('No such upload under way.');
      return pending;
    },

    /** Whoever's it is: for the store, after the router checked it is the caller's. */
    pendingOfAnyone: (tusId: string) => uploads.findPending(tusId),

    forget: (tusId: string) => uploads.deletePending(tusId),

    /**
     * The last byte arrived: the file is kept once per SHA-256 (the same content again keeps the
     * copy there is), and listed. `knownSha256` is the hash taken as the bytes were written; without
     * it (the upload was resumed elsewhere or after a restart) the file is read back to hash it.
     */
    async finish(user: SessionUser, pending: PendingUpload, partPath: string, knownSha256?: string): Promise<StoredUpload> {
      const sha256 = knownSha256 ?? (await sha256Of(partPath));
      return underLock(blobLock(sha256), async (tx) => {
        if (fs.existsSync(blobOf(sha256))) await fs.promises.rm(partPath, { force: true });
        else await fs.promises.rename(partPath, blobOf(sha256));
        return tx.insertFinished(pending, sha256, user.name, now());
      });
    },

    /** The stored file and where its bytes are. */
    async fileOf(id: number) {
      const upload = await uploads.find(id);
      if (!upload) throw notFound(`No file with id ${id}.`);
      return { upload, path: blobOf(upload.sha256) };
    },

    async remove(user: SessionUser, id: number): Promise<void> {
      const upload = await uploads.find(id);
      if (!upload) throw notFound(`No file with id ${id}.`);
      if (user.role !== 'admin' && upload.uploadedBy.id !== user.id) throw forbidden('You can delete the files you uploaded; an admin can delete any.');
      await underLock(blobLock(upload.sha256), async (tx) => {
        const { bytesStillUsed } = await tx.delete(id, upload.sha256);
        if (!bytesStillUsed) await fs.promises.rm(blobOf(upload.sha256), { force: true });
      });
    },

    /** Forgets uploads under way that started before `iso` (tus removes their parts). */
    expirePendingBefore: (iso: string) => uploads.deletePendingOlderThan(iso),
  };
}
export type UploadsService = ReturnType<typeof uploadsService>;
