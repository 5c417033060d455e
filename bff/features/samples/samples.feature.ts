import type { Feature, FeatureContext } from '../../feature';
import { sampleAnswers } from './sample-answers.cache';
import { sampleCacheRepository } from './sample-cache.repository';
import { pictureAllowlist, PROVIDER_PICTURE_LOCATIONS, sampleImages } from './sample-images.service';
import { samplesRoutes } from './samples.router';
import { samplesService } from './samples.service';
import { upstreamClient } from './upstream.client';

/** `/api/samples`: the sample pages' public APIs, read server-side with a timeout and a shared cache, and their pictures. */
export function samplesFeature({ config, database, logger, mount }: FeatureContext): Feature {
  const upstream = upstreamClient({ timeoutMs: config.SAMPLES_TIMEOUT_MS });
  // The providers' picture locations, plus those of the configured upstreams (a mirror or local fake serves its own).
  const pictures = pictureAllowlist([...PROVIDER_PICTURE_LOCATIONS, `${config.SAMPLES_POKEAPI_SPRITES_URL}/`, `${config.SAMPLES_RICKANDMORTY_URL}/character/avatar/`]);
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
  return mount(samplesRoutes(samples, sampleImages({ upstream, allowlist: pictures, directory: config.SAMPLES_IMAGE_DIR })));
}
