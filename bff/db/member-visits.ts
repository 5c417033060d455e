import { UNLOCK_EVENT_TYPE } from '../contracts/webhook.contract';
import type { Db } from './database';

/**
 * A member's last visit (`gym_users.last_visit_at`, migration 034): the door events are the webhooks
 * feature's, the member list the gym's; the write that stores a successful unlock moves the visit
 * forward here, in its own transaction, so the list sorted by last visit reads one index.
 */
export function recordVisitIn(db: Db) {
  /** The person with this (lower-cased) email came in at `at`, if that is newer than their last visit. */
  return async (event: { type: string; success: boolean | number; actorEmail: string | null; createdAt: string }): Promise<void> => {
    if (event.type !== UNLOCK_EVENT_TYPE || !event.success || !event.actorEmail) return;
    await db
      .updateTable('gym_users')
      .set({ last_visit_at: event.createdAt })
      .where('email', '=', event.actorEmail)
      .where((eb) => eb.or([eb('last_visit_at', 'is', null), eb('last_visit_at', '<', event.createdAt)]))
      .execute();
  };
}
