import type { Database } from '../../db/database';
import type { Feature, FeatureContext } from '../../feature';
import { periodicJob, type Job } from '../../lib/jobs';
import { backupStateRepository } from './backup-state.repository';
import { backupsRoutes } from './backups.router';
import { backupSettingsOf, backupsService } from './backups.service';

/** The schedule looks whether a backup is due this often (at most; a shorter interval looks more often). */
const LOOK_EVERY_MS = 60_000;

/** What the metrics show of backups (every instance's, from the database). */
export async function lastBackupFigures(database: Pick<Database, 'db'>) {
  const state = backupStateRepository(database.db);
  const [last, success] = await Promise.all([state.last(), state.lastSuccess()]);
  return { lastOk: last ? last.ok : null, lastSuccessAt: success ? Date.parse(success.finishedAt) : null, lastSuccessBytes: success?.sizeBytes ?? null };
}

/**
 * Backups (decision 0096): `/api/operations/backups` for admins, and the schedule (BACKUP_EVERY_HOURS),
 * taken by one instance at a time. Stopping the server ends a backup under way (recorded as failed).
 */
export function backupsFeature({ config, database, logger, mount }: FeatureContext, { version }: { version: string }): Feature {
  const settings = backupSettingsOf(config, version);
  const backups = backupsService({ database, settings, logger });
  const everyMs = settings.everyHours * 3_600_000;
  const schedule = everyMs > 0 ? periodicJob('scheduled backups', Math.max(100, Math.min(LOOK_EVERY_MS, everyMs / 4)), () => backups.takeIfDue(), logger) : undefined;
  const job: Job = {
    name: 'backups',
    start: () => schedule?.start(),
    stop: async () => {
      await backups.stop();
      await schedule?.stop();
    },
  };
  return { ...mount(backupsRoutes(backups)), jobs: [job] };
}
