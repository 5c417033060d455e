import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local fakes of the sample pages' upstreams — PokeAPI (with its sprites repository), the Rick and
 * Morty API and JSONPlaceholder — each real HTTP on its own free port of 127.0.0.1, answering with
 * the real shapes, status codes and headers (PokeAPI's `{count, next, previous, results}`, Rick and
 * Morty's 404 `{"error":"There is nothing here"}` past the last page, JSONPlaceholder's
 * `X-Total-Count` only when the request pages), and serving pictures from themselves. Switches make
 * one slow (or never answer), down (connection refused) or answer a changed shape. `env` points
 * the app at them. Used by the BFF tests and the browser tests; `close()` ends everything.
 */

export type SampleProvider = 'pokeapi' | 'rickandmorty' | 'jsonplaceholder';
export const SAMPLE_PROVIDERS: readonly SampleProvider[] = ['pokeapi', 'rickandmorty', 'jsonplaceholder'];

/**
 * `normal`; `slow`: takes the request and never answers; `down`: not listening (connection refused);
 * `changed`: answers a shape the app does not know (a field renamed, X-Total-Count left out).
 */
export type UpstreamMode = 'normal' | 'slow' | 'down' | 'changed';

export interface UpstreamSwitches {
  mode?: UpstreamMode;
  /** Every answer waits until `release` is called (requests are still taken and recorded). */
  held?: boolean;
}

export interface SampleUpstreams {
  /** SAMPLES_POKEAPI_URL, SAMPLES_POKEAPI_SPRITES_URL, SAMPLES_RICKANDMORTY_URL, SAMPLES_JSONPLACEHOLDER_URL for these fakes. */
  env: Record<string, string>;
  urls: { pokeapi: string; sprites: string; rickandmorty: string; jsonplaceholder: string };
  /** What each fake was asked, oldest first: the path with its query (`/api/v2/pokemon?offset=6&limit=6`). */
  requests: Record<SampleProvider, string[]>;
  /** Requests to `provider` whose path (with query) starts with `prefix`. */
  count: (provider: SampleProvider, prefix?: string) => number;
  set: (provider: SampleProvider | 'all', switches: UpstreamSwitches) => Promise<void>;
  /** Sends the answers `held` kept back, and answers at once again. */
  release: (provider: SampleProvider | 'all') => void;
  /** Every fake back to normal, nothing held, request logs emptied. */
  reset: () => Promise<void>;
  close: () => Promise<void>;
}

// ---- pictures: a 32×32 PNG (a red disc, transparent around it) and a 32×32 JPEG ----------------

export const FAKE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAC6ElEQVR4AdSVTWgTURDH/7PVQ5vd3BTRTSyKVlQE7cYPqFr1rmIpelFB8OuqHjyqN8Ge/TioKKggigUvgvhVD2o2/RD0UFAkSXsRL03SIDY7zpO+JUmTJrTZqI8dZvJm5j+/fW8hBv7y+n8AuBML07HQnqRj9SUdcyDpWF9SjpVVpuKk7KVj1pV0p7lL1dZ7sDVPgLuxQERPpcj8xjCeE+EMEXURYQUIIWUqJtlj4Cwb9ELVphzzBEtvLZCqAAwY8laH0jnrs4helQFLa4np/J9aouvS+0nge0WLdK7cVwUYj5m9RLgpDavE5vqsZsLtlGPtrSZQESDlmD0e4x5ArZjvImoj8OOxmHmwktQMgNSm0Aa517sgmpGrJFDXnmh5wK0xp21jeX3JELmrFm6h+0AD3hzli1oLMO6oGcWZEoCxTvM4gdYWFzQyJqL1akaxpg/wvQOWfDCXipNBxGzg4o8tCGttH+BnONQDokU6EZynxXkvdEDr+wAejG69GbT3mLbqGYYOiLldx0F7AtboGT4AQE0DkFlLML18ADs+sdz+MIGmWHyiY3o+fAC90Wz/7wCkY+H36c1hNMVi1mt90v4JMHhYbwbuCf4sH4CIn6BJiwqFB3qUD2DHc8/APKQTwXkesQfz77S+D0CQ8UzB/xd4dEEPV94HUD8iiUy/YAR4CjwSTWRKrroEgOQU5Fs4Ji6vgBprnEeBj5RrlgCopHwLw+ThqIobZsweGIcjg7mP5ZozAFSBncg+ZMZ+uY5JzHtxnjxvX8TNPqokVRFAFUbdTL8Br0viUbG5PqM0xdvswcmn1QSqAqiGZe7kkB3KrJOTOMnM42qvHlO15PFp1WsP5UZm65kVQDXSK0xF3OyNCGfbRXQ3AX0y4K1c0Ve515wyFTN4AOxdFr9T1co1XiPpVRqzWU0A3UwJ/BLRl3Y8cy7qZrdH3czKiJsxlak4Gs/uiLi58+LfqFrdV8vXDVBLqFq+1v5vAAAA///rn6peAAAABklEQVQDAP9NUVDY7k7tAAAAAElFTkSuQmCC',
  'base64',
);
export const FAKE_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAgACADASIAAhEBAxEB/8QAGgAAAgIDAAAAAAAAAAAAAAAABQYABwEDBP/EACAQAAIBAwUBAQAAAAAAAAAAAAECAwAEEQUSQVFxBiH/xAAXAQEBAQEAAAAAAAAAAAAAAAAAAgMF/8QAGhEAAgMBAQAAAAAAAAAAAAAAAQMAAjERIf/aAAwDAQACEQMRAD8AO1KwzBFLMcKoySeKS9T+hu7mZltZGhhBwu38JHZNcRarMPkwos3yOtSkrTPobu2mVbqRpoScNu/So7Bp0Vg6hlOVIyD3RirLPsXWabNd1EZrSaIHBkRlB9GKreSN4pGjkUq6nBB4NWbQ+/0axv33zRlZOXQ4J97q0OC+gy1MFNiFHG8sixxqWdjgAcmrItYjDaQxMcmNFUnwYrksNGsbB98MZaTh3OSPOqIUe4M4BDWC+T//2Q==',
  'base64',
);

/** The sprites folder on the PokeAPI fake, laid out as in PokeAPI's sprites repository. */
const SPRITES_PATH = '/PokeAPI/sprites/master/sprites';
/**
 * Pictures that misbehave, under the sprites folder (so they pass the allowlist): a redirect to
 * another host, a redirect within the folder, an SVG, HTML named .png, a body over 5 MB, a 404.
 */
export const FAKE_PICTURE_FIXTURES = {
  redirectAway: `${SPRITES_PATH}/fixtures/redirect-away.png`,
  redirectHome: `${SPRITES_PATH}/fixtures/redirect-home.png`,
  svg: `${SPRITES_PATH}/fixtures/drawing.svg`,
  html: `${SPRITES_PATH}/fixtures/page.png`,
  huge: `${SPRITES_PATH}/fixtures/huge.png`,
  missing: `${SPRITES_PATH}/fixtures/missing.png`,
} as const;

// ---- data ---------------------------------------------------------------------------------------

/** The first twelve Pokémon: name, types, [hp, attack, defense, special-attack, special-defense, speed], height, weight. */
const POKEMON: ReadonlyArray<[string, string[], number[], number, number]> = [
  ['bulbasaur', ['grass', 'poison'], [45, 49, 49, 65, 65, 45], 7, 69],
  ['ivysaur', ['grass', 'poison'], [60, 62, 63, 80, 80, 60], 10, 130],
  ['venusaur', ['grass', 'poison'], [80, 82, 83, 100, 100, 80], 20, 1000],
  ['charmander', ['fire'], [39, 52, 43, 60, 50, 65], 6, 85],
  ['charmeleon', ['fire'], [58, 64, 58, 80, 65, 80], 11, 190],
  ['charizard', ['fire', 'flying'], [78, 84, 78, 109, 85, 100], 17, 905],
  ['squirtle', ['water'], [44, 48, 65, 50, 64, 43], 5, 90],
  ['wartortle', ['water'], [59, 63, 80, 65, 80, 58], 10, 225],
  ['blastoise', ['water'], [79, 83, 100, 85, 105, 78], 16, 855],
  ['caterpie', ['bug'], [45, 30, 35, 20, 20, 45], 3, 29],
  ['metapod', ['bug'], [50, 20, 55, 25, 25, 30], 7, 99],
  ['butterfree', ['bug', 'flying'], [60, 45, 50, 90, 80, 70], 11, 320],
];
const STAT_NAMES = ['hp', 'attack', 'defense', 'special-attack', 'special-defense', 'speed'];

/** 45 characters (three pages of 20): name, status, species, type, gender, origin, last known location, episodes. */
const CHARACTER_NAMES = [
  'Rick Sanchez', 'Morty Smith', 'Summer Smith', 'Beth Smith', 'Jerry Smith', 'Abadango Cluster Princess', 'Abradolf Lincler', 'Adjudicator Rick',
  'Agency Director', 'Alan Rails', 'Albert Einstein', 'Alexander', 'Alien Googah', 'Alien Morty', 'Alien Rick', 'Amish Cyborg', 'Annie', 'Antenna Morty',
  'Antenna Rick', 'Ants in my Eyes Johnson', 'Aqua Morty', 'Aqua Rick', 'Arcade Alien', 'Armagheadon', 'Armothy', 'Arthricia', 'Artist Morty',
  'Attila Starwar', 'Baby Legs', 'Baby Poopybutthole', 'Baby Wizard', 'Bearded Lady', 'Beebo', 'Benjamin', 'Bepisian', 'Beta-Seven', 'Beth Sanchez',
  'Beth Smith (Replacement)', "Beth's Mytholog", 'Big Boobed Waitress', 'Big Head Morty', 'Big Morty', 'Body Guard Morty', 'Bootleg Portal Chemist Rick',
  'Squanchy',
];
const STATUSES = ['Alive', 'Alive', 'Dead', 'unknown'] as const;
const SPECIES = ['Human', 'Alien', 'Humanoid', 'Poopybutthole', 'Mythological Creature'];
const PLACES = ['Earth (C-137)', 'Citadel of Ricks', 'Earth (Replacement Dimension)', 'Anatomy Park', 'Interdimensional Cable', 'unknown'];

const USERS = [
  { id: 1, name: 'Leanne Graham', username: 'Bret', email: 'Sincere@april.biz', website: 'hildegard.org', company: 'Romaguera-Crona' },
  { id: 2, name: 'Ervin Howell', username: 'Antonette', email: 'Shanna@melissa.tv', website: 'anastasia.net', company: 'Deckow-Crist' },
  { id: 3, name: 'Clementine Bauch', username: 'Samantha', email: 'Nathan@yesenia.net', website: 'ramiro.info', company: 'Romaguera-Jacobson' },
  { id: 4, name: 'Patricia Lebsack', username: 'Karianne', email: 'Julianne.OConner@kory.org', website: 'kale.biz', company: 'Robel-Corkery' },
];
const WORDS = 'sunt aut facere repellat provident occaecati excepturi optio reprehenderit qui est esse ea molestias quasi exercitationem voluptate dolorem eum magni eius'.split(' ');
const words = (seed: number, n: number) => Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * 3) % WORDS.length]).join(' ');

/** 20 posts: 1–19 by users 1–4 with three comments each; post 20 by user 10, who is not there, and without comments. */
const POSTS = Array.from({ length: 20 }, (_, i) => {
  const id = i + 1;
  return { userId: id === 20 ? 10 : Math.ceil(id / 5), id, title: words(id, 5), body: `${words(id + 1, 12)}\n${words(id + 2, 10)}` };
});
const COMMENTS = POSTS.filter((post) => post.id < 20).flatMap((post) =>
  [0, 1, 2].map((n) => {
    const id = (post.id - 1) * 3 + n + 1;
    return { postId: post.id, id, name: words(id + 5, 4), email: `reader${id}@example.org`, body: words(id + 9, 14) };
  }),
);

// ---- HTTP ---------------------------------------------------------------------------------------

type Answer = { status: number; headers?: Record<string, string>; body?: unknown; bytes?: Buffer; stream?: (res: http.ServerResponse) => void };
type Handler = (url: URL, base: string, changed: boolean) => Answer;

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({ status, body, headers });

function pokeApi(url: URL, base: string, changed: boolean): Answer {
  const origin = base.replace(/\/api\/v2$/, '');
  const sprites = `${origin}${SPRITES_PATH}`;
  const path = url.pathname;
  if (path.startsWith(`${SPRITES_PATH}/`)) return picture(path);
  if (path === '/api/v2/pokemon' || path === '/api/v2/pokemon/') {
    const offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0);
    const limit = Math.max(1, Number(url.searchParams.get('limit') ?? 20) || 20);
    const results = POKEMON.slice(offset, offset + limit).map(([name], i) => ({
      [changed ? 'species_name' : 'name']: name,
      url: `${base}/pokemon/${offset + i + 1}/`,
    }));
    const page = (o: number) => `${base}/pokemon?offset=${o}&limit=${limit}`;
    return json(200, {
      count: POKEMON.length,
      next: offset + limit < POKEMON.length ? page(offset + limit) : null,
      previous: offset > 0 ? page(Math.max(0, offset - limit)) : null,
      results,
    });
  }
  const one = /^\/api\/v2\/pokemon\/([^/]+)\/?$/.exec(path);
  if (one) {
    const ref = decodeURIComponent(one[1]!);
    const index = /^\d+$/.test(ref) ? Number(ref) - 1 : POKEMON.findIndex(([name]) => name === ref);
    const found = POKEMON[index];
    // PokeAPI answers an unknown Pokémon with a plain-text 404.
    if (!found || index < 0) return { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, bytes: Buffer.from('Not Found') };
    const [name, types, stats, height, weight] = found;
    const id = index + 1;
    return json(200, {
      abilities: [],
      base_experience: 64,
      forms: [{ name, url: `${base}/pokemon-form/${id}/` }],
      height,
      id,
      is_default: true,
      name,
      order: id,
      species: { name, url: `${base}/pokemon-species/${id}/` },
      sprites: {
        back_default: `${sprites}/pokemon/back/${id}.png`,
        front_default: `${sprites}/pokemon/${id}.png`,
        other: {
          dream_world: { front_default: null, front_female: null },
          'official-artwork': { front_default: `${sprites}/pokemon/other/official-artwork/${id}.png`, front_shiny: `${sprites}/pokemon/other/official-artwork/shiny/${id}.png` },
        },
      },
      [changed ? 'base_stats' : 'stats']: stats.map((value, i) => ({ base_stat: value, effort: 0, stat: { name: STAT_NAMES[i], url: `${base}/stat/${i + 1}/` } })),
      types: types.map((type, i) => ({ slot: i + 1, type: { name: type, url: `${base}/type/${type}/` } })),
      weight,
    });
  }
  return { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, bytes: Buffer.from('Not Found') };
}

/** The sprites repository, as raw.githubusercontent.com serves it, and the misbehaving fixtures. */
function picture(path: string): Answer {
  const png = { 'Content-Type': 'image/png', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'max-age=300' };
  switch (path) {
    case FAKE_PICTURE_FIXTURES.redirectAway:
      return { status: 302, headers: { Location: 'https://pictures.example.invalid/steal.png' } };
    case FAKE_PICTURE_FIXTURES.redirectHome:
      return { status: 301, headers: { Location: `${SPRITES_PATH}/pokemon/other/official-artwork/1.png` } };
    case FAKE_PICTURE_FIXTURES.svg:
      return { status: 200, headers: { 'Content-Type': 'image/svg+xml' }, bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') };
    case FAKE_PICTURE_FIXTURES.html:
      return { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' }, bytes: Buffer.from('<!doctype html><script>alert(1)</script>') };
    case FAKE_PICTURE_FIXTURES.huge:
      // 6 MB, streamed without a length: the cap has to count.
      return {
        status: 200,
        headers: png,
        stream: (res) => {
          let left = 6 * 1024 * 1024;
          const chunk = Buffer.alloc(64 * 1024, 7);
          const pump = () => {
            while (left > 0) {
              left -= chunk.length;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            res.end();
          };
          res.on('error', () => {});
          pump();
        },
      };
  }
  if (/^\/PokeAPI\/sprites\/master\/sprites\/pokemon\/(other\/official-artwork\/(shiny\/)?|back\/)?([1-9]|1[0-2])\.png$/.test(path)) return { status: 200, headers: png, bytes: FAKE_PNG };
  return { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, bytes: Buffer.from('404: Not Found') };
}

function rickAndMorty(url: URL, base: string, changed: boolean): Answer {
  const path = url.pathname;
  const nothingHere = json(404, { error: 'There is nothing here' });
  const avatar = /^\/api\/character\/avatar\/(\d+)\.jpeg$/.exec(path);
  if (avatar) {
    const id = Number(avatar[1]);
    return id >= 1 && id <= CHARACTER_NAMES.length ? { status: 200, headers: { 'Content-Type': 'image/jpeg' }, bytes: FAKE_JPEG } : nothingHere;
  }
  if (path !== '/api/character' && path !== '/api/character/') return nothingHere;
  const characters = CHARACTER_NAMES.map((name, i) => {
    const id = i + 1;
    return {
      id,
      name,
      status: STATUSES[i % STATUSES.length]!,
      species: i < 5 ? 'Human' : SPECIES[i % SPECIES.length]!,
      type: i % 5 === 3 ? 'Parasite' : '',
      gender: i % 3 === 2 ? 'Female' : 'Male',
      origin: { name: PLACES[i % PLACES.length]!, url: `${base}/location/${(i % PLACES.length) + 1}` },
      location: { name: PLACES[(i + 1) % PLACES.length]!, url: `${base}/location/${((i + 1) % PLACES.length) + 1}` },
      image: `${base}/character/avatar/${id}.jpeg`,
      episode: Array.from({ length: (i % 7) + 1 }, (_, n) => `${base}/episode/${n + 1}`),
      url: `${base}/character/${id}`,
      created: '2017-11-04T18:48:46.250Z',
    };
  });
  const name = url.searchParams.get('name')?.toLowerCase() ?? '';
  const status = url.searchParams.get('status')?.toLowerCase() ?? '';
  const matching = characters.filter((c) => c.name.toLowerCase().includes(name) && (!status || c.status.toLowerCase() === status));
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const pages = Math.ceil(matching.length / 20);
  if (page > pages) return nothingHere;
  const link = (p: number) => {
    const search = new URLSearchParams(url.searchParams);
    search.set('page', String(p));
    return `${base}/character?${search}`;
  };
  const info = { [changed ? 'total' : 'count']: matching.length, pages, next: page < pages ? link(page + 1) : null, prev: page > 1 ? link(page - 1) : null };
  return json(200, { info, results: matching.slice((page - 1) * 20, page * 20) });
}

function jsonPlaceholder(url: URL, _base: string, changed: boolean): Answer {
  const path = url.pathname.replace(/\/+$/, '');
  const nothing = json(404, {});
  const paged = <T>(rows: T[]): Answer => {
    const q = url.searchParams;
    const start = Number(q.get('_start') ?? 0) || 0;
    const limit = q.get('_limit');
    const end = q.get('_end');
    const pageNumber = q.get('_page');
    let slice = rows;
    if (pageNumber) {
      const size = Number(limit ?? 10) || 10;
      slice = rows.slice((Number(pageNumber) - 1) * size, Number(pageNumber) * size);
    } else if (end !== null) slice = rows.slice(start, Number(end));
    else if (limit !== null) slice = rows.slice(start, start + (Number(limit) || 0));
    else slice = rows.slice(start);
    // json-server (0.16) counts only when the request pages: with _end, _limit or _page.
    const counts = (end !== null || limit !== null || pageNumber !== null) && !changed;
    return json(200, slice, counts ? { 'X-Total-Count': String(rows.length), 'Access-Control-Expose-Headers': 'X-Total-Count' } : {});
  };
  const renamed = <T extends { title: string }>(post: T) => {
    if (!changed) return post;
    const { title, ...rest } = post;
    return { ...rest, headline: title };
  };
  if (path === '/posts') return paged(POSTS);
  const post = /^\/posts\/(\d+)(\/comments)?$/.exec(path);
  if (post) {
    const id = Number(post[1]);
    if (post[2]) return json(200, COMMENTS.filter((c) => c.postId === id));
    const found = POSTS.find((p) => p.id === id);
    return found ? json(200, renamed(found)) : nothing;
  }
  const user = /^\/users\/(\d+)$/.exec(path);
  if (user) {
    const found = USERS.find((u) => u.id === Number(user[1]));
    if (!found) return nothing;
    const { company, ...rest } = found;
    return json(200, {
      ...rest,
      address: { street: 'Kulas Light', suite: 'Apt. 556', city: 'Gwenborough', zipcode: '92998-3874', geo: { lat: '-37.3159', lng: '81.1496' } },
      phone: '1-770-736-8031 x56442',
      company: { name: company, catchPhrase: 'Multi-layered client-server neural-net', bs: 'harness real-time e-markets' },
    });
  }
  if (path === '/users') return paged(USERS);
  if (path === '/comments') {
    const postId = url.searchParams.get('postId');
    return paged(postId ? COMMENTS.filter((c) => c.postId === Number(postId)) : COMMENTS);
  }
  return nothing;
}

const HANDLERS: Record<SampleProvider, { handler: Handler; basePath: string }> = {
  pokeapi: { handler: pokeApi, basePath: '/api/v2' },
  rickandmorty: { handler: rickAndMorty, basePath: '/api' },
  jsonplaceholder: { handler: jsonPlaceholder, basePath: '' },
};

interface Fake {
  server: http.Server;
  port: number;
  base: string;
  switches: Required<UpstreamSwitches>;
  requests: string[];
  /** The answers `held` keeps back, sent by `release`. */
  heldAnswers: Array<() => void>;
  listening: boolean;
}

function send(res: http.ServerResponse, answer: Answer) {
  if (answer.stream) {
    res.writeHead(answer.status, answer.headers);
    return answer.stream(res);
  }
  const bytes = answer.bytes ?? (answer.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(answer.body)));
  const type = answer.bytes || answer.body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' };
  res.writeHead(answer.status, { ...type, ...answer.headers, 'Content-Length': String(bytes.length) });
  res.end(bytes);
}

async function startFake(provider: SampleProvider): Promise<Fake> {
  const { handler, basePath } = HANDLERS[provider];
  const fake = { switches: { mode: 'normal', held: false }, requests: [] as string[], heldAnswers: [] as Fake['heldAnswers'], listening: false } as Fake;
  fake.server = http.createServer((req, res) => {
    fake.requests.push(req.url ?? '');
    const { mode, held } = fake.switches;
    if (mode === 'slow') return; // taken, never answered (closed with the server)
    const answer = () => {
      if (res.destroyed) return;
      try {
        send(res, handler(new URL(req.url ?? '/', fake.base), fake.base, mode === 'changed'));
      } catch {
        send(res, { status: 500, body: { error: 'fake upstream failed' } });
      }
    };
    if (held) fake.heldAnswers.push(answer);
    else answer();
  });
  await listen(fake, 0);
  fake.base = `http://127.0.0.1:${fake.port}${basePath}`;
  return fake;
}

function listen(fake: Fake, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fake.server.once('error', reject);
    fake.server.listen(port, '127.0.0.1', () => {
      fake.server.off('error', reject);
      fake.port = (fake.server.address() as AddressInfo).port;
      fake.listening = true;
      resolve();
    });
  });
}

function stop(fake: Fake): Promise<void> {
  if (!fake.listening) return Promise.resolve();
  fake.listening = false;
  return new Promise((resolve) => {
    fake.server.close(() => resolve());
    fake.server.closeAllConnections();
  });
}

/** Starts the three fakes on free ports of 127.0.0.1. */
export async function startSampleUpstreams(): Promise<SampleUpstreams> {
  const fakes = {} as Record<SampleProvider, Fake>;
  try {
    for (const provider of SAMPLE_PROVIDERS) fakes[provider] = await startFake(provider);
  } catch (err) {
    await Promise.all(Object.values(fakes).map(stop));
    throw err;
  }
  const urls = {
    pokeapi: fakes.pokeapi.base,
    sprites: `${fakes.pokeapi.base.replace(/\/api\/v2$/, '')}${SPRITES_PATH}`,
    rickandmorty: fakes.rickandmorty.base,
    jsonplaceholder: fakes.jsonplaceholder.base,
  };

  async function set(provider: SampleProvider | 'all', switches: UpstreamSwitches) {
    for (const name of provider === 'all' ? SAMPLE_PROVIDERS : [provider]) {
      const fake = fakes[name];
      fake.switches = { ...fake.switches, ...switches };
      // Down closes every connection (held ones too); a fake that was down listens on its port again. Open
      // keep-alive connections are otherwise left alone: cutting them would make the next request fail, not time out.
      if (fake.switches.mode === 'down') await stop(fake);
      else if (!fake.listening) await listen(fake, fake.port);
    }
  }

  function release(provider: SampleProvider | 'all') {
    for (const name of provider === 'all' ? SAMPLE_PROVIDERS : [provider]) {
      const fake = fakes[name];
      fake.switches = { ...fake.switches, held: false };
      for (const answer of fake.heldAnswers.splice(0)) answer();
    }
  }

  return {
    env: {
      SAMPLES_POKEAPI_URL: urls.pokeapi,
      SAMPLES_POKEAPI_SPRITES_URL: urls.sprites,
      SAMPLES_RICKANDMORTY_URL: urls.rickandmorty,
      SAMPLES_JSONPLACEHOLDER_URL: urls.jsonplaceholder,
    },
    urls,
    requests: { pokeapi: fakes.pokeapi.requests, rickandmorty: fakes.rickandmorty.requests, jsonplaceholder: fakes.jsonplaceholder.requests },
    count: (provider, prefix = '') => fakes[provider].requests.filter((url) => url.startsWith(prefix)).length,
    set,
    release,
    async reset() {
      release('all');
      await set('all', { mode: 'normal' });
      for (const provider of SAMPLE_PROVIDERS) fakes[provider].requests.length = 0;
    },
    async close() {
      await Promise.all(SAMPLE_PROVIDERS.map((provider) => stop(fakes[provider])));
    },
  };
}
