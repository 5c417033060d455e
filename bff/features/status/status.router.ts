import { Router } from 'express';
import type { ServiceStatus } from '../../contracts/status.contract';

export interface StatusInfo {
  version: string;
  startedAt: Date;
  databaseEngine: ServiceStatus['database']['engine'];
  kisiMode: ServiceStatus['kisi']['mode'];
}

export function statusRouter(info: StatusInfo) {
  const router = Router();

  router.get('/', (_req, res) => {
    const status: ServiceStatus = {
      name: 'Frontdesk',
      version: info.version,
      status: 'ok',
      uptimeSeconds: Math.round((Date.now() - info.startedAt.getTime()) / 1000),
      startedAt: info.startedAt.toISOString(),
      database: { engine: info.databaseEngine },
      kisi: { mode: info.kisiMode },
      node: process.version,
    };
    res.set('Cache-Control', 'no-store').json(status);
  });

  // The /bad page shows what a server failure looks like: this fails on purpose.
  router.get('/bad', () => {
    throw new Error('The /api/bad endpoint fails on purpose to demonstrate server errors.');
  });

  return router;
}
