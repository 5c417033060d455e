import type { LiveEvent, LiveEventType } from '../../contracts/events.contract';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';

export function liveEventsRepository(db: Db) {
  return {
    insert: async (type: LiveEventType, data: unknown): Promise<string> => {
      const row = await db.insertInto('live_events').values({ type, data: JSON.stringify(data), created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
      return String(row.id);
    },

    /** Events after the given id, oldest first, for Last-Event-ID resume. */
    after: async (id: number, limit: number): Promise<LiveEvent[]> => {
      const rows = await db.selectFrom('live_events').select(['id', 'type', 'data']).where('id', '>', id).orderBy('id').limit(limit).execute();
      return rows.map((r) => ({ id: String(r.id), type: r.type, data: JSON.parse(r.data) as unknown }));
    },

    deleteOlderThan: (iso: string) => db.deleteFrom('live_events').where('created_at', '<', iso).execute(),
  };
}
export type LiveEventsRepository = ReturnType<typeof liveEventsRepository>;
