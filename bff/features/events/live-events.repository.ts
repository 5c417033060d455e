import type { LiveEvent, LiveEventType } from '../../contracts/events.contract';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/database';
import type { EventLog } from '../../lib/event-bus';

/** The notification channel that says "the live-event log has news" (its payload is the new id). */
export const LIVE_EVENTS_CHANNEL = 'frontdesk_live_events';

export function liveEventsRepository(database: Pick<Database, 'db' | 'appendToLog' | 'listen'>) {
  const { db } = database;
  const { listen } = database;
  return {
    /**
     * Appends under the log's lock, so ids commit in order: a reader that has seen id N never later
     * finds a smaller one (which Last-Event-ID resume and every instance's bus rely on).
     */
    append: async (type: LiveEventType, data: unknown): Promise<string> =>
      String(await database.appendToLog(db, { table: 'live_events', channel: LIVE_EVENTS_CHANNEL }, { type, data: JSON.stringify(data), created_at: nowIso() })),

    /** Events after the given id, oldest first, for Last-Event-ID resume and the bus. */
    after: async (id: number, limit: number): Promise<LiveEvent[]> => {
      const rows = await db.selectFrom('live_events').select(['id', 'type', 'data']).where('id', '>', id).orderBy('id').limit(limit).execute();
      return rows.map((r) => ({ id: String(r.id), type: r.type, data: JSON.parse(r.data) as unknown }));
    },

    lastId: async () => Number((await db.selectFrom('live_events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0),

    watch: listen ? (onNews: () => void) => listen(LIVE_EVENTS_CHANNEL, { onNotify: onNews, onConnect: onNews }) : undefined,

    deleteOlderThan: (iso: string) => db.deleteFrom('live_events').where('created_at', '<', iso).execute(),
  } satisfies EventLog & Record<string, unknown>;
}
export type LiveEventsRepository = ReturnType<typeof liveEventsRepository>;
