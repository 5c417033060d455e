import type { RequestHandler } from 'msw';
import type { Endpoint } from '@contracts/endpoint.contract';
import { RICK_PAGE_SIZE, SAMPLE_PAGE_SIZE, samplesApi, type Character, type Freshness, type Pokemon, type PokemonSummary, type Post } from '@contracts/samples.contract';
import { handle, problem, type Answer, type FakeInput } from './test-server';

/**
 * Test support: the BFF's `/api/samples` as its contract describes it, in memory: Rick and Morty's
 * characters 20 a page filtered by name and status (an empty page past the end), Pokémon and posts
 * six a page (0-based), one Pokémon by number or name, a post with its author, its comments.
 * `down`: every call answers this status as a problem (502: cannot be reached, 504: no answer) until
 * cleared. `stale`: answers are the BFF's old copy, this many seconds old. As msw handlers.
 */
export type FakeSamples = {
  characters: Character[];
  pokemon: Pokemon[];
  posts: Post[];
  authors: Record<number, { id: number; name: string; username: string; email: string; website: string; company: string }>;
  comments: Record<number, { id: number; name: string; email: string; body: string }[]>;
  down: 502 | 504 | null;
  stale: number | null;
  handlers: RequestHandler[];
};

const NOW = '2026-03-01T12:00:00.000Z';

export function character(id: number, overrides: Partial<Character> = {}): Character {
  return {
    id,
    name: `Character ${id}`,
    status: 'Alive',
    species: 'Human',
    type: '',
    gender: 'Male',
    origin: 'Earth (C-137)',
    location: 'Citadel of Ricks',
    image: `/api/samples/images?src=${encodeURIComponent(`https://rickandmortyapi.com/api/character/avatar/${id}.jpeg`)}`,
    episodeCount: 1,
    ...overrides,
  };
}

const NAMES = ['bulbasaur', 'ivysaur', 'venusaur', 'charmander', 'charmeleon', 'charizard', 'squirtle', 'wartortle', 'blastoise', 'caterpie', 'metapod', 'butterfree', 'weedle', 'kakuna'];

export const artwork = (id: number) => `/api/samples/images?src=${encodeURIComponent(`https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites/pokemon/other/official-artwork/${id}.png`)}`;

export function pokemon(id: number, overrides: Partial<Pokemon> = {}): Pokemon {
  return {
    id,
    name: NAMES[id - 1] ?? `pokemon-${id}`,
    image: artwork(id),
    types: ['grass', 'poison'],
    stats: [
      { name: 'hp', value: 45 },
      { name: 'attack', value: 49 },
      { name: 'defense', value: 49 },
      { name: 'special-attack', value: 65 },
      { name: 'special-defense', value: 65 },
      { name: 'speed', value: 45 },
    ],
    height: 7,
    weight: 69,
    freshness: { fetchedAt: NOW, stale: false, ageSeconds: 0 },
    ...overrides,
  };
}

export function post(id: number, overrides: Partial<Post> = {}): Post {
  return { id, userId: ((id - 1) % 3) + 1, title: `post number ${id}`, body: `The body of post ${id}.\nIts second line.`, ...overrides };
}

export function fakeSamples(seed: Partial<Pick<FakeSamples, 'characters' | 'pokemon' | 'posts' | 'authors' | 'comments'>> = {}): FakeSamples {
  const state: FakeSamples = {
    characters: seed.characters ?? [
      character(1, { name: 'Rick Sanchez' }),
      character(2, { name: 'Morty Smith' }),
      character(3, { name: 'Summer Smith', species: 'Human', location: 'Earth (Replacement Dimension)' }),
      character(8, { name: 'Adjudicator Rick', status: 'Dead', location: 'Citadel of Ricks' }),
      character(16, { name: 'Amish Cyborg', status: 'unknown', species: 'Alien', location: 'Earth (Replacement Dimension)', image: null }),
    ],
    pokemon: seed.pokemon ?? NAMES.map((_, i) => pokemon(i + 1)),
    posts: seed.posts ?? Array.from({ length: 14 }, (_, i) => post(i + 1)),
    authors: seed.authors ?? {
      1: { id: 1, name: 'Leanne Graham', username: 'Bret', email: 'Sincere@april.biz', website: 'hildegard.org', company: 'Romaguera-Crona' },
      2: { id: 2, name: 'Ervin Howell', username: 'Antonette', email: 'Shanna@melissa.tv', website: 'anastasia.net', company: 'Deckow-Crist' },
      3: { id: 3, name: 'Clementine Bauch', username: 'Samantha', email: 'Nathan@yesenia.net', website: 'ramiro.info', company: 'Romaguera-Jacobson' },
    },
    comments: seed.comments ?? {
      1: [
        { id: 1, name: 'id labore ex et quam laborum', email: 'Eliseo@gardner.biz', body: 'laudantium enim quasi est quidem magnam' },
        { id: 2, name: 'quo vero reiciendis velit similique earum', email: 'Jayne_Kuhic@sydney.com', body: 'est natus enim nihil est dolore omnis' },
      ],
    },
    down: null,
    stale: null,
    handlers: [],
  };

  const freshness = (): Freshness => (state.stale === null ? { fetchedAt: NOW, stale: false, ageSeconds: 0 } : { fetchedAt: NOW, stale: true, ageSeconds: state.stale });
  const page = <T>(items: T[], at: number, size: number) => items.slice(at * size, at * size + size);
  const summary = (p: Pokemon): PokemonSummary => ({ id: p.id, name: p.name, image: p.image });

  /** Every call answers the proxy's 502 or 504 while `down` says so. */
  const proxied = <E extends Endpoint>(endpoint: E, fake: (input: FakeInput<E>) => Answer<E>) =>
    handle(endpoint, (input) => {
      if (state.down === 502) return problem(502, 'Bad Gateway', 'The sample service could not be reached.');
      if (state.down === 504) return problem(504, 'Gateway Timeout', 'The sample service did not answer in time.');
      return fake(input);
    });
  const postOf = (id: number) => state.posts.find((p) => p.id === id);
  const noPost = (id: number) => problem(404, 'Not Found', `There is no post ${id}.`);

  state.handlers = [
    proxied(samplesApi.characters, ({ query: { page: at, name = '', status } }) => {
      const found = state.characters.filter((c) => c.name.toLowerCase().includes(name.toLowerCase()) && (!status || c.status.toLowerCase() === status));
      return { items: page(found, at, RICK_PAGE_SIZE), page: at, pageSize: RICK_PAGE_SIZE, total: found.length, pages: Math.ceil(found.length / RICK_PAGE_SIZE), freshness: freshness() };
    }),
    proxied(samplesApi.pokemonList, ({ query: { page: at } }) => ({
      items: page(state.pokemon, at, SAMPLE_PAGE_SIZE).map(summary),
      page: at,
      pageSize: SAMPLE_PAGE_SIZE,
      total: state.pokemon.length,
      freshness: freshness(),
    })),
    proxied(samplesApi.pokemon, ({ params: { idOrName: ref } }) => {
      const found = state.pokemon.find((p) => p.id === ref || p.name === ref);
      return found ? { ...found, freshness: freshness() } : problem(404, 'Not Found', `PokeAPI has no Pokémon ${ref}.`);
    }),
    proxied(samplesApi.posts, ({ query: { page: at } }) => ({ items: page(state.posts, at, SAMPLE_PAGE_SIZE), page: at, pageSize: SAMPLE_PAGE_SIZE, total: state.posts.length, freshness: freshness() })),
    proxied(samplesApi.post, ({ params: { id } }) => {
      const found = postOf(id);
      return found ? { ...found, author: state.authors[found.userId] ?? null, freshness: freshness() } : noPost(id);
    }),
    proxied(samplesApi.postComments, ({ params: { id } }) => (postOf(id) ? { items: state.comments[id] ?? [], freshness: freshness() } : noPost(id))),
  ];
  return state;
}
