import type { Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  // Finished files: the bytes live once per SHA-256 under the uploads directory; each row is one upload of them.
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('uploaded_by', 'text', (c) => c.notNull())
    .addColumn('batch', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_created_idx').on('uploads').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('uploads_sha256_idx').on('uploads').column('sha256').execute();
  await db.schema.createIndex('uploads_account_idx').on('uploads').columns(['account_id', 'batch']).execute();

  // tus uploads under way: whose they are, how big, in which batch (for quota and batch limits, and expiry).
  await db.schema
    .createTable('pending_uploads')
    .addColumn('tus_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('batch', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pending_uploads_account_idx').on('pending_uploads').columns(['account_id', 'batch']).execute();
}
