import type { Feature, FeatureContext } from '../../feature';
import { kisiMode } from '../../config';
import { statusRoutes } from './status.router';

/** `GET /api` (what the service is and how it runs) and `/api/bad` (a 500 on purpose). */
export function statusFeature({ config, database, mount }: FeatureContext, { version, startedAt }: { version: string; startedAt: Date }): Feature {
  return mount(statusRoutes({ version, startedAt, databaseEngine: database.engine, kisiMode: kisiMode(config), publicOrigin: config.PUBLIC_ORIGIN?.[0] ?? null }));
}
