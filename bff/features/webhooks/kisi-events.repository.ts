import type { Insertable, Selectable } from 'kysely';
import type { PageQuery } from '../../contracts/common.contract';
import { UNLOCK_EVENT_TYPE, type EventListQuery, type KisiEvent } from '../../contracts/webhook.contract';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../db/engine';
import type { KisiEventsTable } from '../../db/schema';
import { paginate } from '../../lib/paginate';

export const toKisiEvent = (row: Selectable<KisiEventsTable>): KisiEvent => ({
  id: row.id,
  uuid: row.uuid,
  type: row.type,
  actorType: row.actor_type,
  actorId: row.actor_id,
  actorName: row.actor_name,
  actorEmail: row.actor_email,
  objectType: row.object_type,
  objectId: row.object_id,
  objectName: row.object_name,
  placeId: row.place_id,
  success: row.success === 1,
  errorCode: row.error_code,
  errorMessage: row.error_message,
  createdAt: row.created_at,
  receivedAt: row.received_at,
});

/** Kisi events received by webhook, one row per uuid. */
export function kisiEventsRepository(db: Db) {
  return {
    exists: async (uuid: string) => !!(await db.selectFrom('kisi_events').select('id').where('uuid', '=', uuid).executeTakeFirst()),

    /** Stores the event; undefined when that uuid is already stored (a repeat delivery, even a racing one). */
    async insertOnce(values: Insertable<KisiEventsTable>): Promise<KisiEvent | undefined> {
      try {
        const row = await db.insertInto('kisi_events').values(values).returningAll().executeTakeFirstOrThrow();
        return toKisiEvent(row);
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
    },

    /** Newest first (when it happened at Kisi; the id breaks ties), off `kisi_events_created_idx`. */
    list: (query: EventListQuery) => {
      const matching = () => {
        let q = db.selectFrom('kisi_events');
        if (query.type) q = q.where('type', '=', query.type);
        if (query.since) q = q.where('created_at', '>=', query.since);
        return q;
      };
      return paginate<KisiEvent>(
        query,
        async () => Number((await matching().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
        async (limit, offset) => (await matching().selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()).map(toKisiEvent),
      );
    },

    /**
     * One person's door unlocks, newest first. Emails are stored lower-cased (the webhook parser
     * and the Kisi lookup both do it), so an equality on the lower-cased email uses
     * `kisi_events_actor_email_idx` (actor_email, created_at, and the rowid id) for filter and order.
     */
    unlocksOf: (email: string, page: PageQuery) => {
      const unlocks = () => db.selectFrom('kisi_events').where('actor_email', '=', email.toLowerCase()).where('type', '=', UNLOCK_EVENT_TYPE);
      return paginate<KisiEvent>(
        page,
        async () => Number((await unlocks().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
        async (limit, offset) => (await unlocks().selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()).map(toKisiEvent),
      );
    },

    /** True when a row was deleted. */
    remove: async (id: number) => Number((await db.deleteFrom('kisi_events').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
  };
}
export type KisiEventsRepository = ReturnType<typeof kisiEventsRepository>;
