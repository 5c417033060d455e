import { statusApi, type ServiceStatus } from '../../contracts/status.contract';
import { route } from '../../lib/endpoint-router';

export interface StatusInfo {
  version: string;
  startedAt: Date;
  databaseEngine: ServiceStatus['database']['engine'];
  kisiMode: ServiceStatus['kisi']['mode'];
  publicOrigin: string | null;
}

export const statusRoutes = (info: StatusInfo) => {
  const startedAt = info.startedAt.toISOString();
  return [
    route(statusApi.status, (_input, { res }) => {
      res.setHeader('Cache-Control', 'no-store');
      return {
        name: 'Frontdesk',
        version: info.version,
        status: 'ok' as const,
        uptimeSeconds: Math.round((Date.now() - info.startedAt.getTime()) / 1000),
        startedAt,
        database: { engine: info.databaseEngine },
        kisi: { mode: info.kisiMode },
        node: process.version,
        publicOrigin: info.publicOrigin,
      };
    }),
    route(statusApi.bad, () => {
      throw new Error('The /api/bad endpoint fails on purpose to demonstrate server errors.');
    }),
  ];
};
