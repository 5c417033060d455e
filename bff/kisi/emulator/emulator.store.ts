import type { EmulatorDb } from './emulator.database';
import { eventsStore } from './emulator.events';
import { groupLinksStore } from './emulator.group-links';
import { groupsStore } from './emulator.groups';
import { locksStore } from './emulator.locks';
import { roleAssignmentsStore } from './emulator.role-assignments';
import { usersStore } from './emulator.users';

/**
 * The emulator's whole state, one resource's functions beside that resource's routes: everything
 * lives in its own store (emulator.database.ts), so it survives restarts, and the history seeder
 * and the unlock flow read and write it through this one object.
 */
export function emulatorStore(db: EmulatorDb) {
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
