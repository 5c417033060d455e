import type { Db } from '../../db/database';

/** The last answer of each sample call, kept so it can be served (marked stale) while its upstream is down. */
export function sampleCacheRepository(db: Db) {
  return {
    find: (key: string) => db.selectFrom('sample_cache').select(['body', 'fetched_at']).where('key', '=', key).executeTakeFirst(),

    /** One upsert: the newest answer replaces the one before, on any instance. */
    save: async (key: string, body: string, fetchedAt: string): Promise<void> => {
      await db
        .insertInto('sample_cache')
        .values({ key, body, fetched_at: fetchedAt })
        .onConflict((oc) => oc.column('key').doUpdateSet({ body, fetched_at: fetchedAt }))
        .execute();
    },
  };
}
export type SampleCacheRepository = ReturnType<typeof sampleCacheRepository>;
