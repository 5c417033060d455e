import fs from 'node:fs';
import type { Config } from '../../config';
import type { RetentionKind } from '../../contracts/operations.contract';
import type { Database } from '../../db/database';
import { blobLock, blobPath } from '../../db/upload-blobs';
import type { Feature, FeatureContext } from '../../feature';
import { periodicJob } from '../../lib/jobs';
import type { Logger } from '../../lib/logger';
import { retentionRepository } from './retention.repository';
import { retentionRoutes } from './retention.router';
import { RETENTION_DEFAULTS, retentionService, type RetentionServiceDeps, type RetentionSettings } from './retention.service';

/** How often each instance asks whether the day's run is due (one statement; one instance gets it). */
const POLL_MS = 15 * 60_000;

/** Each kind's days, from its `RETAIN_*_DAYS`. */
export const retentionDays = (config: Config): Record<RetentionKind, number> => ({
  doorEvents: config.RETAIN_DOOR_EVENTS_DAYS,
  chat: config.RETAIN_CHAT_DAYS,
  conversations: config.RETAIN_CONVERSATIONS_DAYS,
  files: config.RETAIN_FILES_DAYS,
  audit: config.RETAIN_AUDIT_DAYS,
  orders: config.RETAIN_ORDERS_DAYS,
  liveEvents: config.RETAIN_LIVE_EVENTS_DAYS,
});

/** The retention service on a database: its purges, and a file's bytes removed under the hash's lock once no row holds them. */
export function retentionServiceOn(
  { config, database, logger }: { config: Config; database: Pick<Database, 'db' | 'transactionLock'>; logger: Logger },
  options: Partial<Omit<RetentionSettings, 'days'>> & Pick<RetentionServiceDeps, 'now' | 'onBatch'> = {},
) {
  const { now, onBatch, ...tuning } = options;
  return retentionService({
    retention: retentionRepository(database.db),
    removeUnusedBlob: (sha256) =>
      database.db.transaction().execute(async (trx) => {
        await database.transactionLock(trx, blobLock(sha256));
        if (!(await retentionRepository(trx).sha256InUse(sha256))) await fs.promises.rm(blobPath(config.UPLOADS_DIR, sha256), { force: true });
      }),
    settings: { ...RETENTION_DEFAULTS, ...tuning, days: retentionDays(config) },
    logger,
    now,
    onBatch,
  });
}

/** `GET /api/operations/retention`, and the daily purge of what is past its time (decision 0097). */
export function retentionFeature(context: FeatureContext): Feature {
  const retention = retentionServiceOn(context);
  return { ...context.mount(retentionRoutes(retention)), jobs: [periodicJob('retention purge', POLL_MS, (stop) => retention.runIfDue(stop), context.logger)] };
}
