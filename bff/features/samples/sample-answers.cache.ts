import { LRUCache } from 'lru-cache';
import * as v from 'valibot';
import type { Freshness } from '../../contracts/samples.contract';
import { HttpError } from '../../lib/http-error';
import type { Logger } from '../../lib/logger';
import type { SampleCacheRepository } from './sample-cache.repository';

export interface SampleAnswersDeps {
  repository: SampleCacheRepository;
  /** How long an answer is served from memory before the upstream is asked again (0: always ask). */
  ttlMs: number;
  logger: Logger;
  now?: () => number;
  /** Answers kept in memory at most (the least recently read go first). */
  maxEntries?: number;
}

interface Held {
  value: object;
  fetchedAtMs: number;
  stale: boolean;
}

/** What one load of a key needs: the endpoint's response schema and the call that asks the upstream and maps its answer. */
interface Load {
  schema: v.GenericSchema;
  work: () => Promise<object>;
}

/** The upstream could not give an answer (unreachable, silent, or answering nonsense): a stored copy may stand in. */
const upstreamFailed = (err: unknown) => err instanceof HttpError && (err.status === 502 || err.status === 504);

/**
 * Our mapped answers of the sample calls: from memory for `ttlMs` after the upstream was asked;
 * else one load per key at a time (identical requests in flight share it), stored in the database;
 * when the load fails because the upstream is down, silent or changed, the database's last copy is
 * served with `freshness.stale` and its age (and kept in memory for `ttlMs` like a fresh answer).
 * Only when the database cannot give one either does the copy last served from memory stand in.
 */
export function sampleAnswers({ repository, ttlMs, logger, now = Date.now, maxEntries = 1000 }: SampleAnswersDeps) {
  /** The database's copy, if it still matches the answer's schema (an older version's copy may not). */
  async function storedCopy(key: string, schema: v.GenericSchema): Promise<Held | undefined> {
    const row = await repository.find(key);
    if (!row) return undefined;
    const value = JSON.parse(row.body) as object;
    if (!v.is(schema, { ...value, freshness: { fetchedAt: row.fetched_at, stale: true, ageSeconds: 0 } })) return undefined;
    return { value, fetchedAtMs: Date.parse(row.fetched_at), stale: true };
  }

  // Not lru-cache's allowStaleOnFetchRejection: it would stand in for any failure (a 404 too), and leave
  // the expired copy to make every next reader wait for the upstream's timeout again.
  async function load(key: string, lastServed: Held | undefined, { schema, work }: Load): Promise<Held> {
    try {
      const held = { value: await work(), fetchedAtMs: now(), stale: false };
      await repository.save(key, JSON.stringify(held.value), new Date(held.fetchedAtMs).toISOString()).catch((err: unknown) => logger.warn({ err, key }, 'sample answer could not be stored'));
      return held;
    } catch (err) {
      if (!upstreamFailed(err)) throw err;
      const stored = await storedCopy(key, schema).catch((readErr: unknown) => void logger.warn({ err: readErr, key }, 'stored sample answer could not be read'));
      const copy = stored ?? (lastServed && { ...lastServed, stale: true });
      if (!copy) throw err;
      logger.warn({ key, reason: (err as HttpError).detail, from: stored ? 'database' : 'memory' }, 'upstream failed: serving the last copy');
      // Kept for the cache time too: a silent upstream does not make every reader wait for the timeout.
      return copy;
    }
  }

  // What was last served for each key. With no cache time every read asks again (below), and the
  // last answer is only kept to stand in when both the upstream and the database fail.
  const memory = new LRUCache<string, Held, Load>({
    max: maxEntries,
    ...(ttlMs > 0 && { ttl: ttlMs }),
    ttlResolution: 0,
    perf: { now: () => now() },
    // A load whose key was pushed out meanwhile still answers the readers waiting for it.
    ignoreFetchAbort: true,
    fetchMethod: (key, lastServed, { context }) => load(key, lastServed, context),
  });

  return {
    /**
     * The answer for `key` with its freshness. `schema` is the endpoint's response schema (a stored
     * copy that no longer matches it is not served); `work` asks the upstream and maps its answer.
     */
    async read<T extends object>(key: string, schema: v.GenericSchema, work: () => Promise<T>): Promise<T & { freshness: Freshness }> {
      const held = await memory.forceFetch(key, { context: { schema, work }, forceRefresh: ttlMs <= 0 });
      const freshness: Freshness = {
        fetchedAt: new Date(held.fetchedAtMs).toISOString(),
        stale: held.stale,
        ageSeconds: Math.max(0, Math.floor((now() - held.fetchedAtMs) / 1000)),
      };
      return { ...(held.value as T), freshness };
    },
  };
}
export type SampleAnswers = ReturnType<typeof sampleAnswers>;
