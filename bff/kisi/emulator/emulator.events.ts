import type { Db } from '../../db/database';
import { ORGANIZATION } from './emulator.shared';

/** Door events: the `lock.unlock` shape, Kisi's refusal rules, and the record the emulator keeps of them. */

/** The `lock.unlock` webhook body, shaped like Kisi's documented sample (no actor_email, as observed). */
export type EmulatorUnlockEvent = {
  uuid: string;
  actor_type: 'User';
  actor_id: number;
  actor_name: string;
  object_type: 'Lock';
  object_id: number;
  object_name: string;
  organization_id: number;
  place_id: number;
  success: boolean;
  type: 'lock.unlock';
  error_code: string | null;
  error_message: string | null;
  created_at: string;
};

/** Kisi's refusal codes and messages for an unlock (reference/kisi-api.md). */
export const UNLOCK_FAILURES = {
  accessDisabled: ['fcd8ff', 'Access disabled.'],
  accessDenied: ['afc496', 'Access denied.'],
  lockedDown: ['fad001', 'The door is currently locked down.'],
  offline: ['fad107', 'The wireless lock is offline.'],
} as const;
export type UnlockFailure = (typeof UNLOCK_FAILURES)[keyof typeof UNLOCK_FAILURES];

/** Why an unlock is refused, in Kisi's order (the door's state first, then the person's rights); undefined = it opens. */
export async function unlockFailure(state: {
  lockedDown: boolean;
  online: boolean;
  accessEnabled: boolean;
  canOpen: () => Promise<boolean>;
}): Promise<UnlockFailure | undefined> {
  if (state.lockedDown) return UNLOCK_FAILURES.lockedDown;
  if (!state.online) return UNLOCK_FAILURES.offline;
  if (!state.accessEnabled) return UNLOCK_FAILURES.accessDisabled;
  return (await state.canOpen()) ? undefined : UNLOCK_FAILURES.accessDenied;
}

/** The event Kisi records (and posts as a webhook) for one unlock attempt. */
export const unlockEvent = (
  uuid: string,
  user: { id: number; name: string },
  lock: { id: number; name: string; place_id: number },
  failure: UnlockFailure | undefined,
  at: string,
): EmulatorUnlockEvent => ({
  uuid,
  actor_type: 'User',
  actor_id: user.id,
  actor_name: user.name,
  object_type: 'Lock',
  object_id: lock.id,
  object_name: lock.name,
  organization_id: ORGANIZATION.id,
  place_id: lock.place_id,
  success: !failure,
  type: 'lock.unlock',
  error_code: failure?.[0] ?? null,
  error_message: failure?.[1] ?? null,
  created_at: at,
});

type RecordedEvent = { uuid: string; type: string; created_at: string };

export function eventsStore(db: Db) {
  /** Records events in the given order (oldest first), a few hundred per statement. */
  async function recordEvents(events: RecordedEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 200) {
      const rows = events.slice(i, i + 200).map((event) => ({ uuid: event.uuid, type: event.type, payload: JSON.stringify(event), created_at: event.created_at }));
      await db.insertInto('kisi_emu_events').values(rows).execute();
    }
  }
  const recordEvent = (event: RecordedEvent) => recordEvents([event]);

  return { recordEvent, recordEvents };
}
export type EventsStore = ReturnType<typeof eventsStore>;
