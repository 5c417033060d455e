import type { Selectable } from 'kysely';
import type { CursorPageQuery, Page } from '../../contracts/common.contract';
import type { StoredUpload } from '../../contracts/uploads.contract';
import type { Db } from '../../db/database';
import type { UploadsTable } from '../../db/schema';
import { keysetPaginate, type KeysetOrder } from '../../lib/paginate';

/** Newest first, along `uploads_created_idx`. */
const NEWEST_FIRST: KeysetOrder = { direction: 'desc', columns: [['created_at', 'text'], ['id', 'integer']] };

const toUpload = (row: Selectable<UploadsTable>): StoredUpload => ({
  id: row.id,
  name: row.name,
  type: row.type,
  size: Number(row.size),
  sha256: row.sha256,
  uploadedBy: { id: row.account_id, name: row.uploaded_by },
  createdAt: row.created_at,
});

export interface PendingUpload {
  tusId: string;
  accountId: number;
  name: string;
  type: string;
  size: number;
  batch: string | null;
}

const sum = (value: unknown) => Number(value ?? 0);

/** Stored files and the tus uploads still under way. */
export function uploadsRepository(db: Db) {
  return {
    /** A page from its cursor, the count stopping at 1,000 past it. */
    list: (query: CursorPageQuery): Promise<Page<StoredUpload>> =>
      keysetPaginate(db, query, { matching: () => db.selectFrom('uploads'), order: NEWEST_FIRST, select: (q) => q.selectAll(), toItem: toUpload }),

    find: async (id: number) => {
      const row = await db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toUpload(row);
    },

    /** Bytes this account holds: stored files and uploads under way. */
    usedBytes: async (accountId: number) => {
      const [stored, pending] = await Promise.all([
        db.selectFrom('uploads').select((eb) => eb.fn.sum<string | number>('size').as('n')).where('account_id', '=', accountId).executeTakeFirst(),
        db.selectFrom('pending_uploads').select((eb) => eb.fn.sum<string | number>('size').as('n')).where('account_id', '=', accountId).executeTakeFirst(),
      ]);
      return sum(stored?.n) + sum(pending?.n);
    },

    /** Files and bytes of one batch of this account so far (stored and under way). */
    batchSoFar: async (accountId: number, batch: string) => {
      const of = (table: 'uploads' | 'pending_uploads') =>
        db
          .selectFrom(table)
          .select((eb) => [eb.fn.countAll<number>().as('files'), eb.fn.sum<string | number>('size').as('bytes')])
          .where('account_id', '=', accountId)
          .where('batch', '=', batch)
          .executeTakeFirst();
      const [stored, pending] = await Promise.all([of('uploads'), of('pending_uploads')]);
      return { files: sum(stored?.files) + sum(pending?.files), bytes: sum(stored?.bytes) + sum(pending?.bytes) };
    },

    insertPending: async (upload: PendingUpload, now: string) => {
      await db
        .insertInto('pending_uploads')
        .values({ tus_id: upload.tusId, account_id: upload.accountId, name: upload.name, type: upload.type, size: upload.size, batch: upload.batch, created_at: now })
        .execute();
    },

    findPending: async (tusId: string): Promise<PendingUpload | undefined> => {
      const row = await db.selectFrom('pending_uploads').selectAll().where('tus_id', '=', tusId).executeTakeFirst();
      return row && { tusId: row.tus_id, accountId: row.account_id, name: row.name, type: row.type, size: Number(row.size), batch: row.batch };
    },

    deletePending: async (tusId: string) => {
      await db.deleteFrom('pending_uploads').where('tus_id', '=', tusId).execute();
    },

    /** Uploads under way that started before `iso` (expired: their parts are cleaned up). */
    deletePendingOlderThan: async (iso: string) => {
      await db.deleteFrom('pending_uploads').where('created_at', '<', iso).execute();
    },

    /**
     * The finished upload replaces its pending row, in the caller's transaction. A file this account
     * stored before (the same name and bytes) stays one row, dated now: sent again, it is not listed twice.
     */
    insertFinished: async (pending: PendingUpload, sha256: string, uploadedBy: string, now: string): Promise<StoredUpload> => {
      await db.deleteFrom('pending_uploads').where('tus_id', '=', pending.tusId).execute();
      const before = await db
        .selectFrom('uploads')
        .select('id')
        .where('account_id', '=', pending.accountId)
        .where('name', '=', pending.name)
        .where('sha256', '=', sha256)
        .executeTakeFirst();
      const row = before
        ? await db.updateTable('uploads').set({ uploaded_by: uploadedBy, batch: pending.batch, created_at: now }).where('id', '=', before.id).returningAll().executeTakeFirstOrThrow()
        : await db
            .insertInto('uploads')
            .values({ name: pending.name, type: pending.type, size: pending.size, sha256, account_id: pending.accountId, uploaded_by: uploadedBy, batch: pending.batch, created_at: now })
            .returningAll()
            .executeTakeFirstOrThrow();
      return toUpload(row);
    },

    /** Deletes the row; answers whether any other row still holds the same bytes. */
    delete: async (id: number, sha256: string) => {
      await db.deleteFrom('uploads').where('id', '=', id).execute();
      const other = await db.selectFrom('uploads').select('id').where('sha256', '=', sha256).limit(1).executeTakeFirst();
      return { bytesStillUsed: other !== undefined };
    },
  };
}
export type UploadsRepository = ReturnType<typeof uploadsRepository>;
