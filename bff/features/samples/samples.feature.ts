import { samplesApi } from '../../contracts/samples.contract';
import type { Feature, FeatureContext } from '../../feature';
import { pictureProxy } from '../../lib/picture-proxy';
import { upstreamClient } from '../../lib/upstream.client';
import { sampleAnswers } from './sample-answers.cache';
import { sampleCacheRepository } from './sample-cache.repository';
import { samplesRoutes } from './samples.router';
import { samplesService } from './samples.service';

/** Where the providers keep their pictures: PokeAPI's sprites repository and Rick and Morty's avatars. */
export const PROVIDER_PICTURE_LOCATIONS = ['https://raw.githubusercontent.com/PokeAPI/sprites/', 'https://rickandmortyapi.com/api/character/avatar/'] as const;

/** `/api/samples`: the sample pages' public APIs, read server-side with a timeout and a shared cache, and their pictures. */
export function samplesFeature({ config, database, logger, mount }: FeatureContext): Feature {
  const upstream = upstreamClient({ timeoutMs: config.SAMPLES_TIMEOUT_MS });
  const pictures = pictureProxy({
    name: 'sample pictures',
    source: 'the sample providers’ picture hosts',
    // The providers' picture locations, plus those of the configured upstreams (a mirror or local fake serves its own).
    locations: [...PROVIDER_PICTURE_LOCATIONS, `${config.SAMPLES_POKEAPI_SPRITES_URL}/`, `${config.SAMPLES_RICKANDMORTY_URL}/character/avatar/`],
    servedAt: samplesApi.image.path,
    upstream,
    directory: config.SAMPLES_IMAGE_DIR,
    maxFolderBytes: config.SAMPLES_IMAGE_DIR_MAX_MB * 1024 * 1024,
    logger,
  });
  const samples = samplesService({
    upstream,
    answers: sampleAnswers({ repository: sampleCacheRepository(database.db), ttlMs: config.SAMPLES_CACHE_SECONDS * 1000, logger }),
    pictures,
    urls: {
      pokeApi: config.SAMPLES_POKEAPI_URL,
      pokeApiSprites: config.SAMPLES_POKEAPI_SPRITES_URL,
      rickAndMorty: config.SAMPLES_RICKANDMORTY_URL,
      jsonPlaceholder: config.SAMPLES_JSONPLACEHOLDER_URL,
    },
  });
  return { ...mount(samplesRoutes(samples, pictures)), jobs: [pictures.job] };
}
