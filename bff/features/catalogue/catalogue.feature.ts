import { catalogueApi } from '../../contracts/catalogue.contract';
import type { Feature, FeatureContext } from '../../feature';
import { pictureProxy } from '../../lib/picture-proxy';
import { upstreamClient } from '../../lib/upstream.client';
import { catalogueRepository } from './catalogue.repository';
import { catalogueRoutes } from './catalogue.router';
import { catalogueService } from './catalogue.service';

/** Rebrickable's pictures: the folders of set and part pictures on its CDN (never the whole host). */
export const REBRICKABLE_PICTURE_LOCATIONS = ['https://cdn.rebrickable.com/media/sets/', 'https://cdn.rebrickable.com/media/parts/'] as const;
/** A picture Rebrickable's CDN has not sent in this time is a 504 (the page shows its placeholder). */
const PICTURE_TIMEOUT_MS = 5000;

/** `/api/rest`: pieces and parts (public), and their pictures through the BFF. */
export function catalogueFeature({ config, database, logger, mount }: FeatureContext): Feature {
  const pictures = pictureProxy({
    name: 'catalogue pictures',
    source: 'Rebrickable’s pictures of sets and parts',
    locations: [...REBRICKABLE_PICTURE_LOCATIONS, `${config.CATALOGUE_MEDIA_URL}/sets/`, `${config.CATALOGUE_MEDIA_URL}/parts/`],
    servedAt: catalogueApi.picture.path,
    upstream: upstreamClient({ timeoutMs: PICTURE_TIMEOUT_MS }),
    directory: config.CATALOGUE_IMAGE_DIR,
    maxFolderBytes: config.CATALOGUE_IMAGE_DIR_MAX_MB * 1024 * 1024,
    logger,
  });
  const catalogue = catalogueService({ catalogue: catalogueRepository(database.db), textHits: database.textHits });
  return { ...mount(catalogueRoutes(catalogue, pictures)), jobs: [pictures.job] };
}
