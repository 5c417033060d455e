import { operationsApi } from '../../contracts/operations.contract';
import { route } from '../../lib/endpoint-router';
import type { RetentionService } from './retention.service';

/** `GET /api/operations/retention` (admins): how long each kind is kept, and what the last purge removed. */
export const retentionRoutes = (retention: RetentionService) => [route(operationsApi.retention, () => retention.report())];
