import type { Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  // Fixed-window counters that every instance shares (the login failure limits): one row a key,
  // incremented by one upsert, so two instances can never both read "4" and both allow a fifth.
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('reset_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_counters_reset_idx').on('rate_limit_counters').column('reset_at_ms').execute();

  // A sliding window of call starts that every instance shares (Kisi's 5 requests/s): a call may
  // start when fewer than the limit started in the last window, by the database's one clock.
  await db.schema
    .createTable('rate_window_starts')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('started_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_window_starts_bucket_idx').on('rate_window_starts').columns(['bucket', 'started_at_ms']).execute();
}
