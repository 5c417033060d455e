import type { Feature, FeatureContext } from '../../feature';
import { DEFAULT_ALLOWED_TYPES } from '../../contracts/uploads.contract';
import { periodicJob } from '../../lib/jobs';
import { nameRoute } from '../../lib/route-name';
import { uploadsRepository } from './uploads.repository';
import { tusUploads, uploadRoutes } from './uploads.router';
import { uploadsService } from './uploads.service';

const MB = 1024 * 1024;

/** `/api/uploads`: staff files sent over tus (resumable), listed, downloaded and deleted; unfinished ones expire. */
export function uploadsFeature({ config, database, logger, mount }: FeatureContext): Feature {
  const allowedTypes = config.UPLOAD_TYPES
    ? Object.fromEntries(config.UPLOAD_TYPES.split(',').map((type) => [type.trim(), DEFAULT_ALLOWED_TYPES[type.trim()]!]))
    : DEFAULT_ALLOWED_TYPES;
  const uploads = uploadsService({
    uploads: uploadsRepository(database.db),
    underLock: (name, work) =>
      database.db.transaction().execute(async (trx) => {
        await database.transactionLock(trx, name);
        return work(uploadsRepository(trx));
      }),
    settings: {
      directory: config.UPLOADS_DIR,
      maxFileBytes: config.UPLOAD_MAX_FILE_MB * MB,
      maxBatchBytes: config.UPLOAD_MAX_BATCH_MB * MB,
      maxBatchFiles: config.UPLOAD_MAX_FILES,
      quotaBytes: config.UPLOAD_QUOTA_MB * MB,
      allowedTypes,
      chunkBytes: 8 * MB,
    },
  });
  const tus = tusUploads(uploads, logger);
  const { router, endpoints } = mount(uploadRoutes(uploads));
  // tus streams a file's bytes to disk itself: it is not a contract endpoint, but it goes through the same app and API middleware.
  router.all(['/uploads/tus', '/uploads/tus/:id'], (req, res, next) => {
    nameRoute(res, req.params.id === undefined ? '/api/uploads/tus' : '/api/uploads/tus/:id');
    next();
  }, tus.handler);
  return { router, endpoints, jobs: [periodicJob('clean-up of expired uploads', 3_600_000, tus.cleanUp, logger)] };
}
