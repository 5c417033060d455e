import { samplesApi } from '../../contracts/samples.contract';
import { route } from '../../lib/endpoint-router';
import type { PictureProxy } from '../../lib/picture-proxy';
import type { SamplesService } from './samples.service';

/** `/api/samples`: the sample pages' public reads of PokeAPI, Rick and Morty and JSONPlaceholder, and their pictures. */
export function samplesRoutes(samples: SamplesService, pictures: Pick<PictureProxy, 'send'>) {
  return [
    route(samplesApi.pokemonList, ({ query }) => samples.pokemonList(query.page)),
    route(samplesApi.pokemon, ({ params }) => samples.pokemon(params.idOrName)),
    route(samplesApi.characters, ({ query }) => samples.characters(query)),
    route(samplesApi.posts, ({ query }) => samples.posts(query.page)),
    route(samplesApi.post, ({ params }) => samples.post(params.id)),
    route(samplesApi.postComments, ({ params }) => samples.postComments(params.id)),
    route(samplesApi.image, ({ query }, { res }) => pictures.send(query.src, res)),
  ];
}
