import type { Feature, FeatureContext } from '../feature';
import { kisiApi } from '../contracts/kisi.contract';
import { auditIn } from '../db/audit-trail';
import { remoteUnlockRequests } from '../db/remote-unlocks';
import { HttpError } from '../lib/http-error';
import { emulatorControlRoutes } from './emulator/emulator-control.router';
import type { Kisi } from './kisi';
import { kisiProxy } from './proxy';

/**
 * `/api/kisi/*`: Kisi's own endpoints through the proxy (the allowlist in `kisi.contract.ts`), and in
 * emulator mode the emulator's control endpoint. Without a Kisi every proxied call answers 503.
 */
export function kisiFeature({ database, logger, jsonBody, mount }: FeatureContext, kisi: Kisi | undefined): Feature {
  const { router, endpoints } = mount(kisi?.emulator ? emulatorControlRoutes(kisi.emulator) : []);
  router.use(
    '/kisi',
    jsonBody,
    kisi
      ? kisiProxy({
          settings: kisi.settings,
          limiter: kisi.limiter,
          logger,
          client: kisi.client,
          audit: auditIn(database.db),
          userChanged: kisi.door.forgetUser,
          remoteUnlocks: { apiAccountId: kisi.apiAccountId, requests: remoteUnlockRequests(database.db) },
        })
      : () => {
          throw new HttpError(503, 'Kisi is not configured on this server.');
        },
  );
  return { router, endpoints: [...endpoints, ...Object.values(kisiApi)] };
}
