import { samplesApi } from '../../contracts/samples.contract';
import { route } from '../../lib/endpoint-router';
import { HttpError } from '../../lib/http-error';
import type { SampleImages } from './sample-images.service';
import type { SamplesService } from './samples.service';

/** A picture at an address never changes: browsers may keep it for a month without asking again. */
const PICTURE_CACHE_CONTROL = 'public, max-age=2592000, immutable';

/** `/api/samples`: the sample pages' public reads of PokeAPI, Rick and Morty and JSONPlaceholder, and their pictures. */
export function samplesRoutes(samples: SamplesService, images: SampleImages) {
  return [
    route(samplesApi.pokemonList, ({ query }) => samples.pokemonList(query.page)),
    route(samplesApi.pokemon, ({ params }) => samples.pokemon(params.idOrName)),
    route(samplesApi.characters, ({ query }) => samples.characters(query)),
    route(samplesApi.posts, ({ query }) => samples.posts(query.page)),
    route(samplesApi.post, ({ params }) => samples.post(params.id)),
    route(samplesApi.postComments, ({ params }) => samples.postComments(params.id)),
    route(samplesApi.image, async ({ query }, { res }) => {
      const picture = await images.picture(query.src);
      await new Promise<void>((resolve, reject) =>
        res.sendFile(picture.path, { headers: { 'Content-Type': picture.type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': PICTURE_CACHE_CONTROL } }, (err) => {
          if (!err || res.headersSent) return resolve(); // sent, or the client went away mid-file
          reject(new HttpError(502, 'The stored picture could not be read. Try again.'));
        }),
      );
    }),
  ];
}
