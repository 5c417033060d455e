import * as v from 'valibot';
import {
  CharacterPageSchema,
  CommentListSchema,
  PokemonPageSchema,
  PokemonSchema,
  PostPageSchema,
  PostWithAuthorSchema,
  RICK_PAGE_SIZE,
  SAMPLE_PAGE_SIZE,
  type RickQuery,
} from '../../contracts/samples.contract';
import { HttpError, notFound } from '../../lib/http-error';
import type { PictureProxy } from '../../lib/picture-proxy';
import { found, type UpstreamClient } from '../../lib/upstream.client';
import type { SampleAnswers } from './sample-answers.cache';
import {
  PlaceholderCommentListSchema,
  PlaceholderPostListSchema,
  PlaceholderPostSchema,
  PlaceholderUserSchema,
  PokeApiListSchema,
  PokeApiPokemonSchema,
  RickNothingHereSchema,
  RickPageSchema,
} from './upstream.schemas';

const POKEAPI = 'PokeAPI';
const RICK = 'The Rick and Morty API';
const PLACEHOLDER = 'JSONPlaceholder';

/** The upstreams' base URLs (SAMPLES_*_URL, no trailing slash). */
export interface SampleUpstreamUrls {
  pokeApi: string;
  pokeApiSprites: string;
  rickAndMorty: string;
  jsonPlaceholder: string;
}

export interface SamplesServiceDeps {
  upstream: UpstreamClient;
  answers: SampleAnswers;
  /** Our address for each picture (`GET /api/samples/images?src=`). */
  pictures: Pick<PictureProxy, 'imageUrl'>;
  urls: SampleUpstreamUrls;
}

/** PokeAPI names a Pokémon's number only in its address: `…/pokemon/25/`. */
const pokemonNumber = (url: string): number | undefined => {
  const match = /\/pokemon\/(\d+)\/?$/.exec(url);
  return match ? Number(match[1]) : undefined;
};

const toPost = (post: v.InferOutput<typeof PlaceholderPostSchema>) => ({ id: post.id, userId: post.userId, title: post.title, body: post.body });

/**
 * The sample pages' reads (DESIGN §5 "Sample APIs"): each asks its upstream through the shared
 * client, maps the answer to our contract (0-based pages of six; our picture addresses), and goes
 * through the answer cache (memory, then the upstream, then the stored copy when it is down).
 */
export function samplesService({ upstream, answers, pictures, urls }: SamplesServiceDeps) {
  const artwork = (id: number) => `${urls.pokeApiSprites}/pokemon/other/official-artwork/${id}.png`;

  const service = {
    pokemonList(page: number) {
      const url = `${urls.pokeApi}/pokemon?offset=${page * SAMPLE_PAGE_SIZE}&limit=${SAMPLE_PAGE_SIZE}`;
      return answers.read(`pokemon-list ${url}`, PokemonPageSchema, async () => {
        const list = found(await upstream.json(POKEAPI, url, PokeApiListSchema), POKEAPI, url).value;
        const items = list.results.map((result, i) => {
          const id = pokemonNumber(result.url);
          if (id === undefined) throw new HttpError(502, `${POKEAPI} answered results[${i}].url without a Pokémon number.`);
          return { id, name: result.name, image: pictures.imageUrl(artwork(id)) };
        });
        return { items, page, pageSize: SAMPLE_PAGE_SIZE, total: list.count };
      });
    },

    pokemon(ref: number | string) {
      const url = `${urls.pokeApi}/pokemon/${encodeURIComponent(String(ref))}`;
      return answers.read(`pokemon ${url}`, PokemonSchema, async () => {
        const answer = await upstream.json(POKEAPI, url, PokeApiPokemonSchema);
        if (answer.status === 404) throw notFound(`There is no Pokémon ${ref}.`);
        const p = answer.value;
        return {
          id: p.id,
          name: p.name,
          image: pictures.imageUrl(p.sprites.other?.['official-artwork']?.front_default),
          types: [...p.types].sort((a, b) => a.slot - b.slot).map((t) => t.type.name),
          stats: p.stats.map((s) => ({ name: s.stat.name, value: s.base_stat })),
          height: p.height,
          weight: p.weight,
        };
      });
    },

    characters(query: RickQuery): Promise<v.InferOutput<typeof CharacterPageSchema>> {
      const search = new URLSearchParams({ page: String(query.page + 1) });
      if (query.name) search.set('name', query.name);
      if (query.status) search.set('status', query.status);
      const url = `${urls.rickAndMorty}/character?${search}`;
      return answers.read(`characters ${url}`, CharacterPageSchema, async () => {
        const answer = await upstream.json(RICK, url, RickPageSchema);
        if (answer.status === 404) {
          // Rick and Morty's 404 means "nothing here": past the last page, or no character matches.
          if (!v.is(RickNothingHereSchema, answer.body)) throw new HttpError(502, `${RICK} answered 404 to ${new URL(url).pathname} without its "nothing here" body.`);
          // Past the end of a search that has matches: the empty page still says how many there are (from its first page).
          const first = query.page > 0 ? await service.characters({ ...query, page: 0 }).catch(() => undefined) : undefined;
          return { items: [], page: query.page, pageSize: RICK_PAGE_SIZE, total: first?.total ?? 0, pages: first?.pages ?? 0 };
        }
        const { info, results } = answer.value;
        const items = results.map((c) => ({
          id: c.id,
          name: c.name,
          status: c.status,
          species: c.species,
          type: c.type,
          gender: c.gender,
          origin: c.origin.name,
          location: c.location.name,
          image: pictures.imageUrl(c.image),
          episodeCount: c.episode.length,
        }));
        return { items, page: query.page, pageSize: RICK_PAGE_SIZE, total: info.count, pages: info.pages };
      });
    },

    posts(page: number) {
      const url = `${urls.jsonPlaceholder}/posts?_start=${page * SAMPLE_PAGE_SIZE}&_limit=${SAMPLE_PAGE_SIZE}`;
      return answers.read(`posts ${url}`, PostPageSchema, async () => {
        const answer = found(await upstream.json(PLACEHOLDER, url, PlaceholderPostListSchema), PLACEHOLDER, url);
        // json-server counts the posts in X-Total-Count only when the request pages (_limit): it always does here.
        if (!answer.totalCount || !/^\d+$/.test(answer.totalCount)) throw new HttpError(502, `${PLACEHOLDER} answered without X-Total-Count.`);
        return { items: answer.value.map(toPost), page, pageSize: SAMPLE_PAGE_SIZE, total: Number(answer.totalCount) };
      });
    },

    post(id: number) {
      const url = `${urls.jsonPlaceholder}/posts/${id}`;
      return answers.read(`post ${url}`, PostWithAuthorSchema, async () => {
        const post = await upstream.json(PLACEHOLDER, url, PlaceholderPostSchema);
        if (post.status === 404) throw notFound(`There is no post ${id}.`);
        // A post whose author is not there (any more) is still the post.
        const user = await upstream.json(PLACEHOLDER, `${urls.jsonPlaceholder}/users/${post.value.userId}`, PlaceholderUserSchema);
        const author =
          user.status === 404
            ? null
            : { id: user.value.id, name: user.value.name, username: user.value.username, email: user.value.email, website: user.value.website, company: user.value.company.name };
        return { ...toPost(post.value), author };
      });
    },

    postComments(id: number) {
      const url = `${urls.jsonPlaceholder}/posts/${id}/comments`;
      return answers.read(`comments ${url}`, CommentListSchema, async () => {
        const comments = found(await upstream.json(PLACEHOLDER, url, PlaceholderCommentListSchema), PLACEHOLDER, url).value;
        // json-server answers [] for the comments of a post that does not exist: ask for the post then.
        if (comments.length === 0 && (await upstream.json(PLACEHOLDER, `${urls.jsonPlaceholder}/posts/${id}`, PlaceholderPostSchema)).status === 404) {
          throw notFound(`There is no post ${id}.`);
        }
        return { items: comments.map((c) => ({ id: c.id, name: c.name, email: c.email, body: c.body })) };
      });
    },
  };
  return service;
}
export type SamplesService = ReturnType<typeof samplesService>;
