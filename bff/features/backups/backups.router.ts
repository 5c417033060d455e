import { operationsApi } from '../../contracts/operations.contract';
import { route } from '../../lib/endpoint-router';
import { HttpError, conflict } from '../../lib/http-error';
import { BackupBusy, type BackupsService } from './backups.service';

/** `/api/operations/backups` (admins): what backups there are, and one taken now. */
export const backupsRoutes = (backups: BackupsService) => [
  route(operationsApi.backups, () => backups.overview()),
  route(operationsApi.backUpNow, async (_input, { req }) => {
    const run = await backups.take(req.user!.email).catch((err: unknown) => {
      if (err instanceof BackupBusy) throw conflict(err.message);
      throw err;
    });
    // Recorded as failed for every instance to see; the admin who asked is told why at once.
    if (!run.ok) throw new HttpError(500, `The backup failed: ${run.message ?? 'no reason was given'}`);
    return run;
  }),
];
