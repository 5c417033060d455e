import { healthApi } from '../../contracts/health.contract';
import { route } from '../../lib/endpoint-router';
import type { HealthService } from './health.service';

export const healthRoutes = (health: HealthService) => [
  route(healthApi.live, (_input, { res }) => {
    res.setHeader('Cache-Control', 'no-store');
    return health.live();
  }),
  route(healthApi.ready, async (_input, { res }) => {
    res.setHeader('Cache-Control', 'no-store');
    return health.ready();
  }),
];
