import { catalogueApi } from '../../contracts/catalogue.contract';
import { route, type Route } from '../../lib/endpoint-router';
import type { PictureProxy } from '../../lib/picture-proxy';
import type { CatalogueService } from './catalogue.service';

/**
 * Every `imageUrl` in an answer (a piece's, a part's, at any depth), as our own picture address:
 * the repository keeps Rebrickable's addresses, and this is the one place they are turned into ours,
 * for every catalogue answer, those of routes added later included. Answers are plain JSON values.
 */
export function withOurPictures(value: unknown, imageUrl: PictureProxy['imageUrl']): unknown {
  if (Array.isArray(value)) return value.map((item) => withOurPictures(item, imageUrl));
  if (typeof value !== 'object' || value === null) return value;
  const mapped: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    mapped[key] = key === 'imageUrl' && (typeof item === 'string' || item === null) ? imageUrl(item) : withOurPictures(item, imageUrl);
  }
  return mapped;
}

/** `/api/rest`: the parts catalogue, public reads, and its pictures. */
export function catalogueRoutes(catalogue: CatalogueService, pictures: Pick<PictureProxy, 'imageUrl' | 'send'>): Route[] {
  const routes = [
    route(catalogueApi.listPieces, ({ query }) => catalogue.listPieces(query)),
    route(catalogueApi.listParts, ({ query }) => catalogue.listParts(query)),
    route(catalogueApi.listPartCategories, () => catalogue.partCategories()),
    route(catalogueApi.getPiece, ({ params }) => catalogue.piece(params.id)),
    route(catalogueApi.getPart, ({ params, query }) => catalogue.part(params.id, query)),
    route(catalogueApi.listCategories, () => catalogue.categories()),
    route(catalogueApi.picture, ({ query }, { res }) => pictures.send(query.src, res)),
  ];
  return routes.map((r) => ({ ...r, handle: async (input, context) => withOurPictures(await r.handle(input, context), pictures.imageUrl) }));
}
