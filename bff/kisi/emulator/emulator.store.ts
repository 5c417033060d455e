import type { Db } from '../../db/database';
import { eventsStore } from './emulator.events';
import { groupLinksStore } from './emulator.group-links';
import { groupsStore } from './emulator.groups';
import { locksStore } from './emulator.locks';
import { roleAssignmentsStore } from './emulator.role-assignments';
import { usersStore } from './emulator.users';

/**
 * The emulator's whole state, one resource's functions beside that resource's routes: everything
 * lives in the `kisi_emu_*` tables, so it survives restarts, and the history seeder, the unlock
 * flow and the BFF's past-webhook delivery read and write it through this one object.
 */
export function emulatorStore(db: Db) {
  return {
    ...usersStore(db),
    ...groupsStore(db),
    ...locksStore(db),
    ...groupLinksStore(db),
    ...roleAssignmentsStore(db),
    ...eventsStore(db),
  };
}
export type EmulatorStore = ReturnType<typeof emulatorStore>;
