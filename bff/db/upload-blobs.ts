import path from 'node:path';

/**
 * Where a finished upload's bytes live: one file per SHA-256 under `UPLOADS_DIR/blobs/`, shared by
 * every `uploads` row with that hash (decision 0035). The uploads feature writes and deletes them;
 * retention removes the file of rows it purged once no row holds the hash any more.
 */
export const blobPath = (uploadsDir: string, sha256: string) => path.join(uploadsDir, 'blobs', sha256);

/**
 * The lock a hash's file is created or removed under, with the rows that hold it: a file kept by an
 * upload finishing now is never removed by a delete that saw no row (PostgreSQL's advisory lock;
 * SQLite's one writer already takes turns).
 */
export const blobLock = (sha256: string) => `upload:${sha256}`;
