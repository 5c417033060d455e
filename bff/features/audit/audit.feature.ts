import type { Feature, FeatureContext } from '../../feature';
import { auditRepository } from './audit.repository';
import { auditRoutes } from './audit.router';

/** `/api/audit`: the trail every feature writes with its changes (bff/db/audit-trail.ts), read by admins. */
export function auditFeature({ database, mount }: FeatureContext): Feature {
  return mount(auditRoutes(auditRepository(database.db, database.containsMatch)));
}
