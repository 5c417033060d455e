import type { Feature, FeatureContext } from '../../feature';
import { catalogueRepository } from './catalogue.repository';
import { catalogueRoutes } from './catalogue.router';
import { catalogueService } from './catalogue.service';

/** `/api/catalogue`: pieces and parts (public). */
export function catalogueFeature({ database, mount }: FeatureContext): Feature {
  return mount(catalogueRoutes(catalogueService({ catalogue: catalogueRepository(database.db), matchesText: database.matchesText })));
}
