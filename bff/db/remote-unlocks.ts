import type { Kysely } from 'kysely';
import { DOOR_OBJECT_TYPE, UNLOCK_EVENT_TYPE, type KisiEvent, type RequestedBy } from '../contracts/webhook.contract';
import type { DB } from './schema';

type Db = Kysely<DB>;

/**
 * Who pressed a remote unlock (issue 52 defect 4, decision 0103). Kisi logs a remote unlock as the
 * integration's own Kisi user, so the proxy (bff/kisi) records each request before it forwards it, and
 * the webhooks feature credits the door event that request caused when it stores it (webhook and
 * catch-up): an event of that Kisi user at that door, within {@link REMOTE_UNLOCK_WINDOW_MS} of the
 * request, that no request claimed yet. Door and time alone never match: a member's own badge-in at
 * that door names the member as its actor, never the integration.
 */

/** How far apart a request and its event may be (either way: Kisi's clock is not ours). */
export const REMOTE_UNLOCK_WINDOW_MS = 2 * 60_000;

/** What Kisi made of a forwarded request: `accepted` (2xx), `refused` (it answered otherwise), `lost` (no answer, or never sent). */
export type RemoteUnlockOutcome = 'accepted' | 'refused' | 'lost';

export interface RemoteUnlockRequest {
  lockId: number;
  /** The Kisi user the API key belongs to. */
  kisiUserId: number;
  account: { id: number; name: string; email: string };
  at: string;
}

/** The proxy's side: each request recorded before it is forwarded (its own statement, committed), then settled by Kisi's answer. */
export function remoteUnlockRequests(db: Db) {
  return {
    async record({ lockId, kisiUserId, account, at }: RemoteUnlockRequest): Promise<number> {
      const row = await db
        .insertInto('remote_unlock_requests')
        .values({
          lock_id: lockId,
          kisi_user_id: kisiUserId,
          account_id: account.id,
          requested_by_name: account.name,
          requested_by_email: account.email.toLowerCase(),
          requested_at: at,
          status: 'sent',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * Kisi answered (or not): an accepted request may match a granted event only, a refused one only a
     * refused event (Kisi logs a denied attempt). One Kisi never answered, or that was never sent, goes
     * unless it already matched its event: a later unlock of the integration at that door is not its.
     */
    async settle(id: number, outcome: RemoteUnlockOutcome): Promise<void> {
      if (outcome === 'lost') await db.deleteFrom('remote_unlock_requests').where('id', '=', id).where('event_id', 'is', null).execute();
      else await db.updateTable('remote_unlock_requests').set({ status: outcome }).where('id', '=', id).execute();
    },
  };
}
export type RemoteUnlockRequests = ReturnType<typeof remoteUnlockRequests>;

const shifted = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

/**
 * Credits `event` (just stored, in the transaction `db` that stores it) to the oldest request it
 * answers: an unlock whose actor is the Kisi user a request was forwarded as, at the request's door,
 * within the window, that no event claimed yet. Each request names at most one event: the claim is a
 * conditional update, and a request a concurrent write claimed first (PostgreSQL re-reads the row
 * once that write commits) is passed over for the next one. Null when no request answers.
 */
export async function creditRemoteUnlock(db: Db, event: KisiEvent): Promise<RequestedBy | null> {
  if (event.type !== UNLOCK_EVENT_TYPE || event.objectType !== DOOR_OBJECT_TYPE || event.objectId === null || event.actorId === null) return null;
  if (event.actorType !== null && event.actorType !== 'User') return null;
  const [lockId, actorId] = [event.objectId, event.actorId];
  for (;;) {
    const candidate = await db
      .selectFrom('remote_unlock_requests')
      .select('id')
      .where('lock_id', '=', lockId)
      .where('kisi_user_id', '=', actorId)
      .where('requested_at', '>=', shifted(event.createdAt, -REMOTE_UNLOCK_WINDOW_MS))
      .where('requested_at', '<=', shifted(event.createdAt, REMOTE_UNLOCK_WINDOW_MS))
      .where('event_id', 'is', null)
      .where('status', 'in', ['sent', event.success ? 'accepted' : 'refused'])
      .orderBy('requested_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!candidate) return null;
    const claimed = await db
      .updateTable('remote_unlock_requests')
      .set({ event_id: event.id })
      .where('id', '=', candidate.id)
      .where('event_id', 'is', null)
      .returning(['requested_by_name', 'requested_by_email'])
      .executeTakeFirst();
    if (claimed) return { name: claimed.requested_by_name, email: claimed.requested_by_email };
  }
}

/** Who pressed each of these events, by event id (only the remote unlocks credited to a request). */
export async function requestersOf(db: Db, eventIds: readonly number[]): Promise<Map<number, RequestedBy>> {
  const found = new Map<number, RequestedBy>();
  for (let i = 0; i < eventIds.length; i += 500) {
    const rows = await db
      .selectFrom('remote_unlock_requests')
      .select(['event_id', 'requested_by_name', 'requested_by_email'])
      .where('event_id', 'in', eventIds.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.event_id!, { name: row.requested_by_name, email: row.requested_by_email });
  }
  return found;
}

/** `events` with who pressed each remote unlock among them. */
export async function withRequesters(db: Db, events: KisiEvent[]): Promise<KisiEvent[]> {
  if (events.length === 0) return events;
  const requesters = await requestersOf(db, events.map((e) => e.id));
  return requesters.size === 0 ? events : events.map((e) => ({ ...e, requestedBy: requesters.get(e.id) ?? null }));
}
