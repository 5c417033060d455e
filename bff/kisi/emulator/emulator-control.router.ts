import { emulatorControlApi } from '../../contracts/kisi.contract';
import { route } from '../../lib/endpoint-router';
import { notFound } from '../../lib/http-error';
import type { KisiEmulator } from './emulator';

/**
 * `/api/kisi-emulator` — outside Kisi's API, mounted only in emulator mode, admins only: lets a demo
 * or a test make any person of the emulated organisation unlock a door, which records the event and
 * sends the signed webhook exactly like a real unlock.
 */
export const emulatorControlRoutes = (emulator: Pick<KisiEmulator, 'simulateUnlock'>) => [
  route(emulatorControlApi.unlock, async ({ body }) => {
    const outcome = await emulator.simulateUnlock(body.email, body.lockId);
    if (outcome.kind === 'no-user') throw notFound(`Kisi has no user with email ${body.email}.`);
    if (outcome.kind === 'no-lock') throw notFound(body.lockId ? `Kisi has no lock with id ${body.lockId}.` : 'Kisi has no locks.');
    const { event } = outcome;
    return {
      success: event.success,
      message: event.success ? `${event.actor_name} unlocked ${event.object_name}.` : `${event.object_name} stayed locked for ${event.actor_name}: ${event.error_message}`,
      event,
    };
  }),
];
