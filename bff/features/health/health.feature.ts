import type { Feature, FeatureContext } from '../../feature';
import { healthRoutes } from './health.router';
import { healthService } from './health.service';

/**
 * `GET /api/health/live` and `/api/health/ready`, for load balancers and orchestrators. `bff/app.ts`
 * mounts this router ahead of the host check: probes name the instance by its address, not by the
 * public name (decision 0070).
 */
export function healthFeature({ database, mount }: FeatureContext, { isStopping }: { isStopping: () => boolean }): Feature {
  return mount(healthRoutes(healthService({ database, isStopping })));
}
