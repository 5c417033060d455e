import type { Insertable, Selectable } from 'kysely';
import type { KisiEvent } from '../../contracts/webhook.contract';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../db/engine';
import type { KisiEventsTable } from '../../db/schema';

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
  };
}
export type KisiEventsRepository = ReturnType<typeof kisiEventsRepository>;
