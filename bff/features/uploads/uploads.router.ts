import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Server, TUS_RESUMABLE, Uid, type Upload } from '@tus/server';
import { validateHeader } from '@tus/server/dist/validators/HeaderValidator.js';
import { TUS_PATH, UPLOAD_METADATA_KEYS, UPLOAD_STORED_HEADER, uploadsApi } from '../../contracts/uploads.contract';
import { assertAccess, route } from '../../lib/endpoint-router';
import { HttpError, notFound, statusTitle } from '../../lib/http-error';
import type { Logger } from '../../lib/logger';
import { RefusedUpload, SniffingFileStore } from './sniffing-file-store';
import type { UploadsService } from './uploads.service';

/** Unfinished uploads are kept this long after they start, then cleaned up. */
export const UPLOAD_EXPIRY_MS = 24 * 3_600_000;

const problemBody = (status: number, detail: string) => JSON.stringify({ type: 'about:blank', title: statusTitle(status), status, detail });
const numberOf = (text: string | null | undefined) => (text && /^\d{1,15}$/.test(text) ? Number(text) : undefined);
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());

/**
 * The checks tus makes of its protocol headers before anything else, made first here so that a
 * mistake is answered as a problem document (tus itself answers them in plain text).
 */
function assertTusHeaders(req: Request) {
  if (req.method === 'OPTIONS') return;
  if (req.headers['tus-resumable'] !== TUS_RESUMABLE) {
    throw new HttpError(412, `This is a tus ${TUS_RESUMABLE} endpoint: send Tus-Resumable: ${TUS_RESUMABLE}.`, { headers: { 'Tus-Version': TUS_RESUMABLE }, title: 'Precondition Failed' });
  }
  // tus words a PATCH without a type as 403, which reads like a matter of roles.
  if (req.method === 'PATCH' && req.headers['content-type'] === undefined) throw new HttpError(415, 'Send the bytes as application/offset+octet-stream.');
  // Content-Type counts only for PATCH (the bytes); tus ignores it on the other methods.
  const invalid = Object.entries(req.headers).filter(([name, value]) => (name !== 'content-type' || req.method === 'PATCH') && !validateHeader(name, typeof value === 'string' ? value : undefined));
  if (invalid.length > 0) throw new HttpError(400, `Invalid tus header: ${invalid.map(([name]) => headerName(name)).join(', ')}.`);
}

/** `/api/uploads`: the list, downloads and deletes of stored files. */
export function uploadRoutes(uploads: UploadsService) {
  return [
    route(uploadsApi.limits, (_input, { req }) => uploads.limits(req.user!)),
    route(uploadsApi.list, ({ query }) => uploads.list(query)),
    route(uploadsApi.download, async ({ params }, { res }) => {
      const { upload, path: file } = await uploads.fileOf(params.id);
      // Always an attachment, with the stored (allowed, sniffed) type: nothing uploaded is ever shown inline.
      res.attachment(upload.name);
      await new Promise<void>((resolve, reject) =>
        res.sendFile(path.resolve(file), { headers: { 'Content-Type': upload.type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-store' } }, (err) => {
          if (!err) return resolve();
          if (res.headersSent) return resolve(); // the client went away mid-file
          const status = (err as { status?: number }).status;
          reject(status === 416 ? new HttpError(416, 'That range is not part of the file.') : new HttpError(404, `The bytes of file ${params.id} are missing.`));
        }),
      );
    }),
    route(uploadsApi.remove, ({ params }, { req }) => uploads.remove(req.user!, params.id)),
  ];
}

/**
 * The tus 1.0 endpoint (`/api/uploads/tus`, `/api/uploads/tus/:id`) on the tus project's server and
 * file store. Express has already checked CSRF and found the session; this adds staff-only access,
 * "your own uploads only", every limit at creation, the sniffed type at the first bytes, and the
 * finished file's storage. tus's errors go out as problem documents like every other answer.
 */
/** The ids `namingFunction` hands out: Uid.rand(), 16 random bytes in hex. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

export function tusUploads(uploads: UploadsService, logger: Logger) {
  const store = new SniffingFileStore(
    { directory: uploads.partsDirectory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS },
    async (id) => {
      const pending = await uploads.pendingOfAnyone(id);
      return pending && { type: pending.type, name: pending.name, size: pending.size };
    },
    (id) => uploads.forget(id),
  );
  const userOf = (req: unknown) => (req as Request).user!;
  /** The upload each creation request made, so that one which fails after it was admitted can be undone. */
  const createdBy = new WeakMap<object, string>();

  const tus = new Server({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    namingFunction: (req) => {
      const id = Uid.rand();
      createdBy.set(req, id);
      return id;
    },
    onUploadCreate: async (req, res, upload: Upload) => {
      const meta = upload.metadata ?? {};
      try {
        await uploads.admit(userOf(req), upload.id, {
          name: meta[UPLOAD_METADATA_KEYS.name] ?? undefined,
          type: meta[UPLOAD_METADATA_KEYS.type] ?? undefined,
          size: upload.size,
          batch: meta[UPLOAD_METADATA_KEYS.batch] ?? undefined,
          batchFiles: numberOf(meta[UPLOAD_METADATA_KEYS.batchFiles]),
          batchBytes: numberOf(meta[UPLOAD_METADATA_KEYS.batchBytes]),
        });
      } catch (err) {
        if (err instanceof HttpError) throw new RefusedUpload(err.status, err.message);
        throw err;
      }
      return res;
    },
    onUploadFinish: async (req, res, upload: Upload) => {
      const user = userOf(req);
      const pending = await uploads.pendingOf(user, upload.id);
      const stored = await uploads.finish(user, pending, path.join(uploads.partsDirectory, upload.id), store.finishedHash(upload.id, pending.size));
      await store.configstore.delete(upload.id);
      // Finished uploads do not expire. Without a creation date tus also skips re-reading the upload
      // (its part is gone now) after a creation request that carried the whole file (creation-with-upload),
      // which would otherwise answer 404 for a file that was just stored.
      upload.creation_date = undefined;
      // Header values are Latin-1: the stored file (its name may be any text) travels URI-encoded.
      return { res, headers: { [UPLOAD_STORED_HEADER]: encodeURIComponent(JSON.stringify(stored)) } };
    },
    onResponseError: async (req, res, err) => {
      // A creation that failed after it was admitted (its bytes were too many, or not what it claimed):
      // the client gets no Location to end it with, so it goes now instead of holding quota until it expires.
      const created = req.method === 'POST' ? createdBy.get(req) : undefined;
      if (created !== undefined) await store.remove(created).catch(() => undefined);
      res.setHeader('Content-Type', 'application/problem+json');
      if (err instanceof RefusedUpload) return { status_code: err.status_code, body: problemBody(err.status_code, err.detail) };
      const known = err as { status_code?: number; body?: string };
      // tus's own 413s (a PATCH longer than the upload's length, by Content-Length or as it streams): said plainly.
      if (known.status_code === 413) return { status_code: 413, body: problemBody(413, 'This sends more bytes than the upload said it has (Upload-Length); nothing past that length was kept.') };
      // 501: an extension the file store does not have (Upload-Concat): the client's request, not the server's failure.
      if (known.status_code && (known.status_code < 500 || known.status_code === 501)) return { status_code: known.status_code, body: problemBody(known.status_code, (known.body ?? '').trim() || statusTitle(known.status_code)) };
      logger.error({ err }, 'upload failed');
      return { status_code: 500, body: problemBody(500, 'The upload could not be stored. Try again; it continues where it stopped.') };
    },
  });

  const handler: RequestHandler = async (req: Request, res: Response, next: NextFunction) => {
    try {
      assertAccess(['staff'], req.user);
      // tus would also serve uploads back (GET): downloads go through /api/uploads/:id/download only.
      if (req.method === 'GET') throw new HttpError(405, 'Download stored files from /api/uploads/:id/download.', { headers: { Allow: 'POST, HEAD, PATCH, DELETE, OPTIONS' } });
      // tus would take the method from this header after the checks below ran on the real one (an OPTIONS
      // could so PATCH or DELETE someone else's upload, and a HEAD skip the CSRF check).
      if (req.headers['x-http-method-override'] !== undefined) throw new HttpError(400, 'X-HTTP-Method-Override is not accepted: send the method itself.');
      assertTusHeaders(req);
      const id = req.params.id;
      if (typeof id === 'string' && req.method !== 'OPTIONS') {
        // Only ids this server hands out are looked up (PostgreSQL refuses text with a NUL byte outright).
        if (!UPLOAD_ID.test(id)) throw notFound('No such upload under way.');
        await uploads.pendingOf(req.user!, id);
      }
      // tus reads the whole path (it was mounted below /api).
      req.url = req.originalUrl;
      await tus.handle(req, res);
    } catch (err) {
      next(err);
    }
  };
  return {
    handler,
    /** Removes unfinished uploads past their expiry (their parts and their place in the quota). */
    cleanUp: async () => {
      await tus.cleanUpExpiredUploads();
      await uploads.expirePendingBefore(new Date(Date.now() - UPLOAD_EXPIRY_MS).toISOString());
    },
  };
}
