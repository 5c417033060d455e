import { catalogueApi } from '../../contracts/catalogue.contract';
import { route } from '../../lib/endpoint-router';
import type { CatalogueService } from './catalogue.service';

/** `/api/rest`: the parts catalogue, public reads. */
export function catalogueRoutes(catalogue: CatalogueService) {
  return [
    route(catalogueApi.listPieces, ({ query }) => catalogue.listPieces(query)),
    route(catalogueApi.listParts, ({ query }) => catalogue.listParts(query)),
    route(catalogueApi.listPartCategories, () => catalogue.partCategories()),
    route(catalogueApi.getPiece, ({ params }) => catalogue.piece(params.id)),
    route(catalogueApi.getPart, ({ params, query }) => catalogue.part(params.id, query)),
    route(catalogueApi.listCategories, () => catalogue.categories()),
  ];
}
