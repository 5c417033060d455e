import { sql } from 'kysely';
import { MemoryStore, type Options, type Store } from 'express-rate-limit';
import type { Database, Db } from './database';

/**
 * Limits that hold for every instance on the database at once, not per process: each decision is
 * one statement (or one short locked transaction) in the database, never a read followed by a
 * write that another instance could slip between.
 */

/** A counter's state: failures (or hits) so far and when its window ends. */
export interface CounterState {
  hits: number;
  resetAtMs: number;
}

/**
 * Fixed-window counters in `rate_limit_counters`, shared by every instance. `add` is one upsert
 * that increments the key (or restarts its window when the old one is over) and returns the new
 * count, so concurrent requests on different instances each see a distinct count.
 */
export function sharedCounters(db: Db, now: () => number = Date.now) {
  const ref = (column: 'hits' | 'reset_at_ms') => sql.ref(`rate_limit_counters.${column}`);
  return {
    async read(key: string): Promise<CounterState | undefined> {
      const row = await db.selectFrom('rate_limit_counters').select(['hits', 'reset_at_ms']).where('key', '=', key).executeTakeFirst();
      return row && row.reset_at_ms > now() ? { hits: row.hits, resetAtMs: row.reset_at_ms } : undefined;
    },

    async add(key: string, windowMs: number): Promise<CounterState> {
      const at = now();
      const resetAt = at + windowMs;
      const expired = sql<boolean>`${ref('reset_at_ms')} <= ${at}`;
      const row = await db
        .insertInto('rate_limit_counters')
        .values({ key, hits: 1, reset_at_ms: resetAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            hits: sql<number>`case when ${expired} then 1 else ${ref('hits')} + 1 end`,
            reset_at_ms: sql<number>`case when ${expired} then ${resetAt} else ${ref('reset_at_ms')} end`,
          }),
        )
        .returning(['hits', 'reset_at_ms'])
        .executeTakeFirstOrThrow();
      return { hits: row.hits, resetAtMs: row.reset_at_ms };
    },

    async subtract(key: string): Promise<void> {
      await db
        .updateTable('rate_limit_counters')
        .set({ hits: sql<number>`case when hits > 0 then hits - 1 else 0 end` })
        .where('key', '=', key)
        .execute();
    },

    async clear(...keys: string[]): Promise<void> {
      if (keys.length > 0) await db.deleteFrom('rate_limit_counters').where('key', 'in', keys).execute();
    },
  };
}
export type SharedCounters = ReturnType<typeof sharedCounters>;

/** An express-rate-limit store on the shared counters (one per limiter, its keys under `prefix`). */
export function sharedCounterStore(db: Db, prefix: string, now: () => number = Date.now): Store {
  let windowMs = 60_000;
  const counters = sharedCounters(db, now);
  const keyOf = (key: string) => `${prefix}${key}`;
  const asInfo = (state: CounterState) => ({ totalHits: state.hits, resetTime: new Date(state.resetAtMs) });

  return {
    prefix,
    localKeys: false,
    init: (options: Options) => void (windowMs = options.windowMs),
    get: async (key) => {
      const state = await counters.read(keyOf(key));
      return state && asInfo(state);
    },
    increment: async (key) => asInfo(await counters.add(keyOf(key), windowMs)),
    decrement: (key) => counters.subtract(keyOf(key)),
    resetKey: (key) => counters.clear(keyOf(key)),
  };
}

/** Forgets counters whose window ended (they would restart at 1 anyway); run now and then. */
/**
 * PostgreSQL may serve several instances, so they count in one table (`sharedCounterStore`). A
 * SQLite database has one process, so its counts stay in memory: exact all the same, without a
 * write to disk for every limited request. (Login throttling is not a request limiter: it keeps its
 * counts in the database on both engines, so a restart does not forgive failed attempts.)
 */
export const counterStoreFor = (database: Pick<Database, 'engine' | 'db'>): ((prefix: string) => Store) =>
  database.engine === 'postgres' ? (prefix) => sharedCounterStore(database.db, prefix) : () => new MemoryStore();

export const purgeEndedCounters = (db: Db, at = Date.now()) => db.deleteFrom('rate_limit_counters').where('reset_at_ms', '<=', at).execute();

/**
 * Reserves the right to start one call in a sliding window shared by every instance: at most
 * `limit` starts within any `spanMs`, timed by the database server's clock (one clock for all).
 * Answers 0 when the start was recorded, otherwise how many milliseconds to wait before asking
 * again. The transaction holds the bucket's lock, so two instances never both take the last slot.
 * `now` replaces the server's clock (tests: a clock they move).
 */
export function sharedRateWindow(
  database: Pick<Database, 'db' | 'transactionLock' | 'serverNowMs'>,
  bucket: string,
  limit: number,
  spanMs: number,
  now?: () => number,
) {
  return () =>
    database.db.transaction().execute(async (trx) => {
      await database.transactionLock(trx, `rate:${bucket}`);
      const at = now?.() ?? (await sql<{ now: number }>`select ${database.serverNowMs} as now`.execute(trx)).rows[0]!.now;
      await trx.deleteFrom('rate_window_starts').where('bucket', '=', bucket).where('started_at_ms', '<=', at - spanMs).execute();
      // Counted, not read: the window holds as many starts as the rate allows (a high rate, many).
      const window = await trx
        .selectFrom('rate_window_starts')
        .select((eb) => [eb.fn.countAll<number>().as('starts'), eb.fn.min('started_at_ms').as('oldest')])
        .where('bucket', '=', bucket)
        .executeTakeFirstOrThrow();
      if (Number(window.starts) < limit) {
        await trx.insertInto('rate_window_starts').values({ bucket, started_at_ms: at }).execute();
        return 0;
      }
      return Math.max(1, Number(window.oldest) + spanMs - at);
    });
}
