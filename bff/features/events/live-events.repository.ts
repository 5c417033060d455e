import type { LiveEvent, LiveEventType } from '../../contracts/events.contract';
import type { Database, Db } from '../../db/database';
import { nowIso } from '../../db/database';
import type { EventLog } from '../../lib/event-bus';

/** The notification channel that says "the live-event log has news" (its payload is the new id). */
export const LIVE_EVENTS_CHANNEL = 'frontdesk_live_events';

/** Ids are `integer` (32 bits on PostgreSQL): a Last-Event-ID past the largest is past every event, not an error. */
const LARGEST_ID = 2 ** 31 - 1;

export function liveEventsRepository(database: Pick<Database, 'db' | 'appendToLog' | 'listen'>) {
  const { db, listen } = database;
  return {
    transaction: <T>(work: (trx: Db) => Promise<T>) => db.transaction().execute(work),

    /** Under the log's lock, which `trx` holds until it ends: ids commit in order (which Last-Event-ID resume and every instance's bus rely on). */
    append: (trx: Db, type: LiveEventType, json: string) => database.appendToLog(trx, { table: 'live_events', channel: LIVE_EVENTS_CHANNEL }, { type, data: json, created_at: nowIso() }),

    /** Events after the given id (and before `before`), oldest first, for Last-Event-ID resume and the bus. */
    after: async (id: number, limit: number, before?: number): Promise<LiveEvent[]> => {
      let query = db.selectFrom('live_events').select(['id', 'type', 'data']).where('id', '>', Math.min(id, LARGEST_ID));
      if (before !== undefined) query = query.where('id', '<', before);
      const rows = await query.orderBy('id').limit(limit).execute();
      return rows.map((r) => ({ id: String(r.id), type: r.type, data: JSON.parse(r.data) as unknown }));
    },

    lastId: async () => Number((await db.selectFrom('live_events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0),

    watch: listen
      ? (onNews: (id?: number) => void) => listen(LIVE_EVENTS_CHANNEL, { onNotify: (payload) => onNews(Number(payload) || undefined), onConnect: () => onNews() })
      : undefined,

    deleteOlderThan: (iso: string) => db.deleteFrom('live_events').where('created_at', '<', iso).execute(),
  } satisfies EventLog<Db> & Record<string, unknown>;
}
export type LiveEventsRepository = ReturnType<typeof liveEventsRepository>;
