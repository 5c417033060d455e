import * as v from 'valibot';
import { CURSOR_PAGE_ENTRIES, IdParamSchema, NoContentSchema, pageOf } from './common.contract';
import { endpoint } from './endpoint.contract';

/**
 * Uploads (`/api/uploads`): staff and admins send files over tus 1.0 (resumable: a dropped
 * connection continues from the last byte the server has) at {@link TUS_PATH}; finished files are
 * stored once per SHA-256 and listed, downloaded and deleted here. The server enforces every limit.
 */

/** Where the tus protocol is spoken (creation, HEAD/PATCH, termination). */
export const TUS_PATH = '/api/uploads/tus';

/**
 * What a tus upload says about itself in `Upload-Metadata`: the file's name and claimed type, and
 * the batch it belongs to (the files chosen together), so batch limits hold on the server too.
 */
export const UPLOAD_METADATA_KEYS = { name: 'filename', type: 'filetype', batch: 'batch', batchFiles: 'batchFiles', batchBytes: 'batchBytes' } as const;

/** The types a venue usually needs to share, by MIME type, with the extensions each may carry. */
export const DEFAULT_ALLOWED_TYPES: Record<string, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'application/pdf': ['pdf'],
  'text/csv': ['csv'],
  'text/plain': ['txt', 'log', 'md'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['pptx'],
  'application/vnd.oasis.opendocument.text': ['odt'],
  'application/vnd.oasis.opendocument.spreadsheet': ['ods'],
  'application/msword': ['doc'],
  'application/vnd.ms-excel': ['xls'],
};

export const UploadLimitsSchema = v.object({
  maxFileBytes: v.number(),
  maxBatchBytes: v.number(),
  maxBatchFiles: v.number(),
  /** Allowed MIME types and the file-name extensions each may carry. */
  allowedTypes: v.record(v.string(), v.array(v.string())),
  quotaBytes: v.number(),
  /** Stored and unfinished uploads of this account. */
  usedBytes: v.number(),
  /** The size of each PATCH the client should send (smaller parts resume with less repeated). */
  chunkBytes: v.number(),
});
export type UploadLimits = v.InferOutput<typeof UploadLimitsSchema>;

export const StoredUploadSchema = v.object({
  id: v.number(),
  name: v.string(),
  type: v.string(),
  size: v.number(),
  sha256: v.string(),
  uploadedBy: v.object({ id: v.nullable(v.number()), name: v.string() }),
  createdAt: v.string(),
});
export type StoredUpload = v.InferOutput<typeof StoredUploadSchema>;
export const UploadPageSchema = pageOf(StoredUploadSchema);

/**
 * What a finished tus upload answers in its last PATCH (header `Upload-Stored`, JSON): the stored
 * file, so the page shows it without asking again.
 */
export const UPLOAD_STORED_HEADER = 'Upload-Stored';

export const UploadListQuerySchema = v.object({ ...CURSOR_PAGE_ENTRIES });

const uploaders = ['staff'] as const;

export const uploadsApi = {
  limits: endpoint({ method: 'GET', path: '/api/uploads/limits', summary: "The limits the server enforces, and this account's quota and use", access: uploaders, response: UploadLimitsSchema }),
  list: endpoint({ method: 'GET', path: '/api/uploads', summary: 'Stored files, newest first, by cursor (`next` or `previous`: the answer’s own); the total stops at 1,000 past the page', access: uploaders, query: UploadListQuerySchema, response: UploadPageSchema }),
  download: endpoint({
    method: 'GET',
    path: '/api/uploads/:id/download',
    summary: 'The file as an attachment (never shown inline), with its type, `X-Content-Type-Options: nosniff` and range requests',
    access: uploaders,
    params: IdParamSchema,
    response: v.unknown(),
    stream: 'file',
    errors: [404, 416],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/uploads/:id',
    summary: "Delete a stored file (the bytes go when no other upload shares them); staff their own, admins any",
    access: uploaders,
    params: IdParamSchema,
    response: NoContentSchema,
    status: 204,
    errors: [404],
  }),
};
