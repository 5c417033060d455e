import * as v from 'valibot';
import { endpoint } from './endpoint.contract';

/**
 * For load balancers and orchestrators: cheap, public, answering for any host name (a probe names the
 * instance by its address), and holding nothing secret: no versions, no addresses, no error texts of
 * the database.
 */

/** The process answers. */
export const LivenessSchema = v.object({ status: v.literal('live') });

/** Every check passed (a failed one is a 503 problem naming it: each failed check is an entry of its `errors`). */
export const ReadinessSchema = v.object({
  status: v.literal('ready'),
  checks: v.object({
    /** The database answered a query in time. */
    database: v.literal('ok'),
    /** Every migration this instance's code knows is applied. */
    migrations: v.literal('ok'),
    /** PostgreSQL: the connection that hears other instances' live events is up. SQLite has none. */
    liveEvents: v.picklist(['ok', 'not needed']),
  }),
});
export type Readiness = v.InferOutput<typeof ReadinessSchema>;

/** What a failed readiness check is called in the 503 problem's `errors[].path`. */
export type ReadinessCheck = 'database' | 'migrations' | 'liveEvents' | 'stopping';

export const healthApi = {
  live: endpoint({ method: 'GET', path: '/api/health/live', summary: 'The process answers (liveness)', access: 'public', response: LivenessSchema }),
  ready: endpoint({
    method: 'GET',
    path: '/api/health/ready',
    summary: 'This instance can serve: database reachable and migrated, live events heard, not stopping (readiness); 503 names what is not',
    access: 'public',
    response: ReadinessSchema,
    errors: [503],
  }),
};
