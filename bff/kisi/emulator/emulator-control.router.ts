import { Router } from 'express';
import { EmulatorUnlockRequestSchema, type EmulatorUnlockResult } from '../../contracts/kisi.contract';
import { requireRole } from '../../lib/auth.middleware';
import { notFound } from '../../lib/http-error';
import { validate } from '../../lib/validate';
import type { KisiEmulator } from './emulator';

/**
 * `/api/kisi-emulator` — outside Kisi's API, mounted only in emulator mode, admins only: lets a demo
 * or a test make any person of the emulated organisation unlock a door, which records the event and
 * sends the signed webhook exactly like a real unlock.
 */
export function emulatorControlRouter(emulator: Pick<KisiEmulator, 'simulateUnlock'>) {
  const router = Router();
  router.use(requireRole());
  router.post(
    '/unlocks',
    validate({ body: EmulatorUnlockRequestSchema }, async ({ body }, _req, res) => {
      const outcome = await emulator.simulateUnlock(body.email, body.lockId);
      if (outcome.kind === 'no-user') throw notFound(`Kisi has no user with email ${body.email}.`);
      if (outcome.kind === 'no-lock') throw notFound(body.lockId ? `Kisi has no lock with id ${body.lockId}.` : 'Kisi has no locks.');
      const { event } = outcome;
      const result: EmulatorUnlockResult = {
        success: event.success,
        message: event.success ? `${event.actor_name} unlocked ${event.object_name}.` : `${event.object_name} stayed locked for ${event.actor_name}: ${event.error_message}`,
        event,
      };
      res.status(200).json(result);
    }),
  );
  return router;
}
