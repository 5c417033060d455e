import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  // The last answer of each sample call (our mapped JSON, not the upstream's), served marked stale when
  // the upstream cannot be reached. The key names the call and the upstream address it read.
  await db.schema
    .createTable('sample_cache')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .execute();
}
