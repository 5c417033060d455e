import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import request from 'supertest';
import type { Character, Pokemon, PokemonSummary, Post, PostWithAuthor } from '../../contracts/samples.contract';
import { createApp } from '../../app';
import { createLogger } from '../../lib/logger';
import { PICTURE_PLACEHOLDER } from '../../lib/picture-proxy';
import { stopWallClock } from '../../test-support/clock';
import { FAKE_JPEG, FAKE_PICTURE_FIXTURES, FAKE_PNG, startSampleUpstreams, type SampleUpstreams } from '../../test-support/sample-upstreams';
import { createTestContext, withTestContext, NO_KISI_DOOR, type TestContext } from '../../test-support/test-app';

/**
 * The sample proxy against local fakes of PokeAPI, Rick and Morty and JSONPlaceholder (real HTTP on
 * free ports). `cached` keeps answers in memory for the default 60 s; `uncached` asks the upstream
 * every time (SAMPLES_CACHE_SECONDS=0), so what it serves when the upstream is down comes from the database.
 */

const TIMEOUT_MS = 300;
let fakes: SampleUpstreams;
let cached: TestContext;
let uncached: TestContext;

beforeAll(async () => {
  fakes = await startSampleUpstreams();
  cached = await createTestContext({ ...fakes.env, SAMPLES_TIMEOUT_MS: String(TIMEOUT_MS) });
  uncached = await createTestContext({ ...fakes.env, SAMPLES_TIMEOUT_MS: String(TIMEOUT_MS), SAMPLES_CACHE_SECONDS: '0' });
});
afterEach(async () => {
  jest.useRealTimers();
  await fakes.reset();
});
afterAll(async () => {
  await cached?.close();
  await uncached?.close();
  await fakes?.close();
});

type Page<T> = { items: T[]; page: number; pageSize: number; total: number; freshness: { fetchedAt: string; stale: boolean; ageSeconds: number } };

const get = (ctx: TestContext, url: string) => request(ctx.app).get(url);
const ok = async <T>(ctx: TestContext, url: string): Promise<T> => (await get(ctx, url).expect(200)).body as T;
const problem = async (ctx: TestContext, url: string, status: number) => {
  const res = await get(ctx, url);
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status, type: expect.stringMatching(/^application\/problem\+json/) });
  return res.body as { status: number; detail: string; errors?: Array<{ path: string; message: string }> };
};
const imageOf = (src: string) => `/api/samples/images?src=${encodeURIComponent(src)}`;
/** A picture that cannot be had now is the placeholder (200, kept a minute), never a 502: the reason, as its header says it. */
const placeholder = async (ctx: TestContext, url: string): Promise<string> => {
  const res = await get(ctx, url);
  expect({ status: res.status, type: res.headers['content-type'], cache: res.headers['cache-control'], nosniff: res.headers['x-content-type-options'] }).toEqual({
    status: 200,
    type: 'image/svg+xml',
    cache: 'public, max-age=60',
    nosniff: 'nosniff',
  });
  expect(Buffer.compare(res.body as Buffer, PICTURE_PLACEHOLDER)).toBe(0);
  return String(res.headers['x-picture-unavailable']);
};
const artwork = (id: number) => `${fakes.urls.sprites}/pokemon/other/official-artwork/${id}.png`;

describe('GET /api/samples/pokemon', () => {
  it('lists six Pokémon a page with their number, name and artwork through our picture endpoint', async () => {
    const page = await ok<Page<PokemonSummary>>(cached, '/api/samples/pokemon');
    expect(page).toMatchObject({ page: 0, pageSize: 6, total: 12, freshness: { stale: false, ageSeconds: 0 } });
    expect(page.items.map((p) => p.name)).toEqual(['bulbasaur', 'ivysaur', 'venusaur', 'charmander', 'charmeleon', 'charizard']);
    expect(page.items[0]).toEqual({ id: 1, name: 'bulbasaur', image: imageOf(artwork(1)) });
    expect(fakes.requests.pokeapi).toEqual(['/api/v2/pokemon?offset=0&limit=6']);
  });

  it('asks PokeAPI for offset = page × 6: page 1 is 7–12, page 2 is past the end and empty', async () => {
    expect((await ok<Page<PokemonSummary>>(cached, '/api/samples/pokemon?page=1')).items.map((p) => p.id)).toEqual([7, 8, 9, 10, 11, 12]);
    const past = await ok<Page<PokemonSummary>>(cached, '/api/samples/pokemon?page=2');
    expect(past).toMatchObject({ items: [], page: 2, total: 12 });
    expect(fakes.requests.pokeapi).toEqual(['/api/v2/pokemon?offset=6&limit=6', '/api/v2/pokemon?offset=12&limit=6']);
  });

  it('serves an answer again from memory within the cache time, without asking PokeAPI', async () => {
    const first = await ok<Pokemon>(cached, '/api/samples/pokemon/2');
    const again = await ok<Pokemon>(cached, '/api/samples/pokemon/2');
    expect(again).toEqual({ ...first, freshness: { fetchedAt: first.freshness.fetchedAt, stale: false, ageSeconds: expect.any(Number) } });
    expect(fakes.requests.pokeapi).toEqual(['/api/v2/pokemon/2']);
  });

  it.each(['-1', 'abc', '1.5', '100001', '', '1e3'])('refuses page=%s as a 400 naming query.page', async (value) => {
    const body = await problem(cached, `/api/samples/pokemon?page=${value}`, 400);
    expect(body.errors?.map((e) => e.path)).toEqual(['query.page']);
  });
});

describe('GET /api/samples/pokemon/:idOrName', () => {
  it('maps a Pokémon: types in slot order, stats as name and value, height, weight and its artwork', async () => {
    const pokemon = await ok<Pokemon>(cached, '/api/samples/pokemon/6');
    expect(pokemon).toEqual({
      id: 6,
      name: 'charizard',
      image: imageOf(artwork(6)),
      types: ['fire', 'flying'],
      stats: [
        { name: 'hp', value: 78 },
        { name: 'attack', value: 84 },
        { name: 'defense', value: 78 },
        { name: 'special-attack', value: 109 },
        { name: 'special-defense', value: 85 },
        { name: 'speed', value: 100 },
      ],
      height: 17,
      weight: 905,
      freshness: expect.objectContaining({ stale: false }),
    });
  });

  it('finds a Pokémon by its name, written in any case', async () => {
    expect((await ok<Pokemon>(cached, '/api/samples/pokemon/Squirtle')).id).toBe(7);
    expect(fakes.requests.pokeapi).toEqual(['/api/v2/pokemon/squirtle']);
  });

  it('answers 404 for a Pokémon PokeAPI does not know, and 400 for something that is no name', async () => {
    expect((await problem(cached, '/api/samples/pokemon/pikachu', 404)).detail).toBe('There is no Pokémon pikachu.');
    expect((await problem(cached, '/api/samples/pokemon/pika%20chu', 400)).errors?.[0]?.path).toBe('params.idOrName');
  });
});

describe('GET /api/samples/rick', () => {
  it('maps characters: status, species, origin and last known location by name, episode count, portrait', async () => {
    const page = await ok<Page<Character> & { pages: number }>(cached, '/api/samples/rick');
    expect(page).toMatchObject({ page: 0, pageSize: 20, total: 45, pages: 3 });
    expect(page.items).toHaveLength(20);
    expect(page.items[1]).toEqual({
      id: 2,
      name: 'Morty Smith',
      status: 'Alive',
      species: 'Human',
      type: '',
      gender: 'Male',
      origin: 'Citadel of Ricks',
      location: 'Earth (Replacement Dimension)',
      image: imageOf(`${fakes.urls.rickandmorty}/character/avatar/2.jpeg`),
      episodeCount: 2,
    });
    expect(fakes.requests.rickandmorty).toEqual(['/api/character?page=1']);
  });

  it('asks for the upstream page = page + 1 (page 2 is the last five)', async () => {
    const last = await ok<Page<Character>>(cached, '/api/samples/rick?page=2');
    expect(last.items.map((c) => c.id)).toEqual([41, 42, 43, 44, 45]);
    expect(fakes.requests.rickandmorty).toEqual(['/api/character?page=3']);
  });

  it('turns the 404 past the last page into an empty page that still counts the characters', async () => {
    const past = await ok<Page<Character> & { pages: number }>(uncached, '/api/samples/rick?page=7');
    expect(past).toMatchObject({ items: [], page: 7, total: 45, pages: 3, freshness: { stale: false } });
    expect(fakes.requests.rickandmorty).toEqual(['/api/character?page=8', '/api/character?page=1']);
  });

  it('passes the name and status filters on; no match is an empty page, not an error', async () => {
    const ricks = await ok<Page<Character> & { pages: number }>(cached, '/api/samples/rick?name=%20rick%20&status=alive');
    expect(ricks.items.map((c) => c.name)).toEqual(['Rick Sanchez', 'Aqua Rick']);
    expect(ricks).toMatchObject({ total: 2, pages: 1 });
    expect(fakes.requests.rickandmorty).toEqual(['/api/character?page=1&name=rick&status=alive']);
    expect(await ok(cached, '/api/samples/rick?name=nobody%20at%20all')).toMatchObject({ items: [], total: 0, pages: 0 });
  });

  it('refuses a status it does not know and a bad page, naming the field', async () => {
    expect((await problem(cached, '/api/samples/rick?status=zombie', 400)).errors?.map((e) => e.path)).toEqual(['query.status']);
    expect((await problem(cached, '/api/samples/rick?page=x', 400)).errors?.map((e) => e.path)).toEqual(['query.page']);
  });
});

describe('GET /api/samples/posts', () => {
  it('lists six posts a page with the total from X-Total-Count (_start = page × 6, _limit = 6)', async () => {
    const first = await ok<Page<Post>>(cached, '/api/samples/posts');
    expect(first).toMatchObject({ page: 0, pageSize: 6, total: 20 });
    expect(first.items.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Object.keys(first.items[0]!).sort()).toEqual(['body', 'id', 'title', 'userId']);
    const third = await ok<Page<Post>>(cached, '/api/samples/posts?page=2');
    expect(third.items.map((p) => p.id)).toEqual([13, 14, 15, 16, 17, 18]);
    expect((await ok<Page<Post>>(cached, '/api/samples/posts?page=3')).items.map((p) => p.id)).toEqual([19, 20]);
    expect(await ok(cached, '/api/samples/posts?page=4')).toMatchObject({ items: [], total: 20 });
    expect(fakes.requests.jsonplaceholder).toEqual(['/posts?_start=0&_limit=6', '/posts?_start=12&_limit=6', '/posts?_start=18&_limit=6', '/posts?_start=24&_limit=6']);
  });

  it('is a 502 when JSONPlaceholder leaves X-Total-Count out', async () => {
    await fakes.set('jsonplaceholder', { mode: 'changed' });
    expect((await problem(uncached, '/api/samples/posts?page=9', 502)).detail).toBe('JSONPlaceholder answered without X-Total-Count.');
  });
});

describe('GET /api/samples/posts/:id and its comments', () => {
  it('answers a post with its author', async () => {
    const post = await ok<PostWithAuthor>(cached, '/api/samples/posts/7');
    expect(post).toMatchObject({ id: 7, userId: 2, author: { id: 2, name: 'Ervin Howell', username: 'Antonette', email: 'Shanna@melissa.tv', website: 'anastasia.net', company: 'Deckow-Crist' } });
    expect(fakes.requests.jsonplaceholder).toEqual(['/posts/7', '/users/2']);
  });

  it('answers a post whose author is not there with author null', async () => {
    expect(await ok<PostWithAuthor>(cached, '/api/samples/posts/20')).toMatchObject({ id: 20, userId: 10, author: null });
  });

  it('answers 404 for a post that does not exist, and 400 for an id that is none', async () => {
    expect((await problem(cached, '/api/samples/posts/21', 404)).detail).toBe('There is no post 21.');
    expect((await problem(cached, '/api/samples/posts/0', 400)).errors?.[0]?.path).toBe('params.id');
  });

  it("lists a post's comments; a post without any has an empty list; a post that does not exist is a 404", async () => {
    const comments = await ok<{ items: Array<{ id: number; name: string; email: string; body: string }> }>(cached, '/api/samples/posts/2/comments');
    expect(comments.items.map((c) => c.id)).toEqual([4, 5, 6]);
    expect(Object.keys(comments.items[0]!).sort()).toEqual(['body', 'email', 'id', 'name']);
    expect((await ok<{ items: unknown[] }>(cached, '/api/samples/posts/20/comments')).items).toEqual([]);
    await problem(cached, '/api/samples/posts/99/comments', 404);
  });
});

describe('when an upstream misbehaves', () => {
  it('answers 504 at the timeout when the upstream takes the request and never answers', async () => {
    await fakes.set('pokeapi', { mode: 'slow' });
    const body = await problem(cached, '/api/samples/pokemon/9', 504);
    expect(body.detail).toBe(`PokeAPI did not answer within ${TIMEOUT_MS} ms.`);
    // PokeAPI had the request (and was asked once): the 504 is its silence.
    expect(fakes.requests.pokeapi).toEqual(['/api/v2/pokemon/9']);
  });

  it('answers 502 when the upstream cannot be reached', async () => {
    await fakes.set('rickandmorty', { mode: 'down' });
    expect((await problem(cached, '/api/samples/rick?page=1&status=dead', 502)).detail).toBe('The Rick and Morty API could not be reached. Try again in a moment.');
  });

  it('answers 502 naming the field when the upstream changed its shape', async () => {
    await fakes.set('all', { mode: 'changed' });
    // (Calls the uncached app has not answered before: it has no stored copy to stand in.)
    expect((await problem(uncached, '/api/samples/pokemon?page=1', 502)).detail).toBe('PokeAPI answered without results[0].name.');
    expect((await problem(uncached, '/api/samples/pokemon/bulbasaur', 502)).detail).toBe('PokeAPI answered without stats.');
    expect((await problem(uncached, '/api/samples/rick?name=morty', 502)).detail).toBe('The Rick and Morty API answered without info.count.');
    expect((await problem(uncached, '/api/samples/posts/11', 502)).detail).toBe('JSONPlaceholder answered without title.');
  });

  it('makes one upstream call for identical requests in flight', async () => {
    // Each read starts the load of its key, or joins the one under way, in its call to the answer
    // cache: PokeAPI holds its answer until all eight made that call. (The default timeout: the held
    // answer waits for eight requests through the app, longer than this file's 300 ms on a busy machine.)
    const reads = new EventEmitter();
    type ForceFetch = (this: unknown, key: unknown, ...rest: unknown[]) => Promise<unknown>;
    const cache = LRUCache.prototype as unknown as { forceFetch: ForceFetch };
    const forceFetch = cache.forceFetch;
    const read = jest.spyOn(cache, 'forceFetch').mockImplementation(function (this: unknown, key, ...rest) {
      const answer = forceFetch.call(this, key, ...rest);
      if (String(key).startsWith('pokemon ')) reads.emit('read');
      return answer;
    });
    try {
      await withTestContext({ env: { ...fakes.env, SAMPLES_CACHE_SECONDS: '0' } }, async (patient) => {
        await fakes.set('pokeapi', { held: true });
        let reading = 0;
        const allReading = new Promise<void>((resolve) => reads.on('read', () => ++reading === 8 && resolve()));
        const answering = Promise.all(Array.from({ length: 8 }, () => get(patient, '/api/samples/pokemon/4')));
        await allReading;
        fakes.release('pokeapi');
        const answers = await answering;
        expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
        expect(new Set(answers.map((res) => JSON.stringify(res.body))).size).toBe(1);
        expect(fakes.requests.pokeapi).toEqual(['/api/v2/pokemon/4']);
      });
    } finally {
      read.mockRestore();
    }
  });
});

describe('stale copies', () => {
  it('serves the last copy from the database, marked stale with its age, once the upstream is down or silent', async () => {
    const fresh = await ok<Page<Post>>(uncached, '/api/samples/posts?page=1');
    expect(fresh.freshness.stale).toBe(false);

    await fakes.set('jsonplaceholder', { mode: 'down' });
    const down = await ok<Page<Post>>(uncached, '/api/samples/posts?page=1');
    expect(down.items).toEqual(fresh.items);
    expect(down.freshness).toEqual({ fetchedAt: fresh.freshness.fetchedAt, stale: true, ageSeconds: expect.any(Number) });
    // A page never seen has no copy: the 502 stands.
    await problem(uncached, '/api/samples/posts?page=2', 502);

    await fakes.set('jsonplaceholder', { mode: 'slow' });
    expect((await ok<Page<Post>>(uncached, '/api/samples/posts?page=1')).freshness.stale).toBe(true);

    await fakes.set('jsonplaceholder', { mode: 'normal' });
    expect((await ok<Page<Post>>(uncached, '/api/samples/posts?page=1')).freshness.stale).toBe(false);
  });

  it('serves the stored copy from a new app over the same database (nothing in its memory), with its age', async () => {
    const seen = await ok<Pokemon>(uncached, '/api/samples/pokemon/12');
    await fakes.set('pokeapi', { mode: 'changed' });
    // A minute and a half later by the clock.
    stopWallClock(Date.parse(seen.freshness.fetchedAt) + 90_400);
    const restarted = createApp({ config: uncached.config, database: uncached.database, logger: createLogger('silent'), version: 'test', door: NO_KISI_DOOR }).app;
    const res = await request(restarted).get('/api/samples/pokemon/12').expect(200);
    expect(res.body).toEqual({ ...seen, freshness: { fetchedAt: seen.freshness.fetchedAt, stale: true, ageSeconds: 90 } });
  });

  it('after a failed call, serves the stale copy at once for the cache time before asking the upstream again', async () => {
    const clock = stopWallClock();
    const { app } = createApp({ config: { ...uncached.config, SAMPLES_CACHE_SECONDS: 1 }, database: uncached.database, logger: createLogger('silent'), version: 'test', door: NO_KISI_DOOR });
    const read = async () => ((await request(app).get('/api/samples/posts/5').expect(200)).body as PostWithAuthor).freshness;
    expect((await read()).stale).toBe(false);
    clock.advance(1001); // the cache time is over
    await fakes.set('jsonplaceholder', { mode: 'slow' });
    // The first waits for the timeout and gets the stored copy; the next gets it from memory, asking no one.
    expect((await read()).stale).toBe(true);
    expect(fakes.requests.jsonplaceholder).toEqual(['/posts/5', '/users/1', '/posts/5']);
    expect((await read()).stale).toBe(true);
    expect(fakes.requests.jsonplaceholder).toEqual(['/posts/5', '/users/1', '/posts/5']);
    // Once the cache time is over again, the upstream is asked again.
    await fakes.set('jsonplaceholder', { mode: 'normal' });
    clock.advance(1001);
    expect(await read()).toEqual({ fetchedAt: new Date(Date.now()).toISOString(), stale: false, ageSeconds: 0 });
    expect(fakes.requests.jsonplaceholder).toEqual(['/posts/5', '/users/1', '/posts/5', '/posts/5', '/users/1']);
  });

  it('does not stand in for a 404: a post that is gone is gone', async () => {
    await ok(uncached, '/api/samples/posts/3');
    await problem(uncached, '/api/samples/posts/33', 404);
  });
});

describe('GET /api/samples/images', () => {
  it('serves an allowed picture with its type, nosniff and a long cache; the second time from disk', async () => {
    const src = artwork(3);
    const first = await get(cached, imageOf(src)).expect(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['cache-control']).toMatch(/max-age=\d{6,}/);
    expect(Buffer.compare(first.body as Buffer, FAKE_PNG)).toBe(0);
    const file = path.join(cached.config.SAMPLES_IMAGE_DIR, crypto.createHash('sha256').update(src).digest('hex'));
    expect(fs.readFileSync(file).equals(FAKE_PNG)).toBe(true);

    const again = await get(uncached, imageOf(src));
    expect(again.status).toBe(200);
    await get(cached, imageOf(src)).expect(200);
    // Once by each app (each has its own folder), never twice by the same one.
    expect(fakes.count('pokeapi', '/PokeAPI/sprites/')).toBe(2);
    await fakes.set('pokeapi', { mode: 'down' });
    expect(Buffer.compare((await get(cached, imageOf(src)).expect(200)).body as Buffer, FAKE_PNG)).toBe(0);
  });

  it("serves the pictures the answers link to: PokeAPI's artwork and Rick and Morty's portraits", async () => {
    const { items } = await ok<Page<PokemonSummary>>(cached, '/api/samples/pokemon');
    expect((await get(cached, items[1]!.image!).expect(200)).headers['content-type']).toBe('image/png');
    const characters = await ok<Page<Character>>(cached, '/api/samples/rick');
    const portrait = await get(cached, characters.items[0]!.image!).expect(200);
    expect(portrait.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(portrait.body as Buffer, FAKE_JPEG)).toBe(0);
  });

  it.each([
    ['another host', 'https://pictures.example.com/pokemon/1.png'],
    ['another folder of an allowed host', 'https://raw.githubusercontent.com/someone/else/main/1.png'],
    ['a climb out of the folder', 'SPRITES/%2e%2e/%2e%2e/%2e%2e/secret.png'],
    ['an escaped slash', 'SPRITES/pokemon%2f..%2f1.png'],
    ['credentials in the address', 'https://user:secret@rickandmortyapi.com/api/character/avatar/1.jpeg'],
    ['a query', 'https://rickandmortyapi.com/api/character/avatar/1.jpeg?size=big'],
    ['another scheme', 'ftp://raw.githubusercontent.com/PokeAPI/sprites/master/1.png'],
    ['no address at all', 'not a url'],
  ])('refuses %s as a 400 naming query.src, asking no one', async (_what, src) => {
    const body = await problem(cached, imageOf(src.replace('SPRITES', fakes.urls.sprites)), 400);
    expect(body.errors?.map((e) => e.path)).toEqual(['query.src']);
    expect(fakes.count('pokeapi')).toBe(0);
  });

  it('follows a redirect within the picture folders, and refuses one to another host without going there', async () => {
    const home = await get(cached, imageOf(`${fakes.urls.pokeapi.replace('/api/v2', '')}${FAKE_PICTURE_FIXTURES.redirectHome}`)).expect(200);
    expect(home.headers['content-type']).toBe('image/png');
    const away = await placeholder(cached, imageOf(`${fakes.urls.pokeapi.replace('/api/v2', '')}${FAKE_PICTURE_FIXTURES.redirectAway}`));
    expect(away).toMatch(/pictures\.example\.invalid.*not one of the picture hosts/);
  });

  /** Whether a picture is kept on disk (its bytes or its metadata). */
  const keptPictures = (ctx: TestContext, origin: string, fixtures: string[]) =>
    fixtures.map((fixture) => {
      const file = path.join(ctx.config.SAMPLES_IMAGE_DIR, crypto.createHash('sha256').update(`${origin}${fixture}`).digest('hex'));
      return [fixture, fs.existsSync(file) || fs.existsSync(`${file}.json`)];
    });

  it('passes on PNG, JPEG, GIF and WebP only: an SVG or HTML is the placeholder, a missing one a 404, and none is kept', async () => {
    const origin = fakes.urls.pokeapi.replace('/api/v2', '');
    expect(await placeholder(cached, imageOf(`${origin}${FAKE_PICTURE_FIXTURES.svg}`))).toMatch(/image\/svg\+xml, not a PNG, JPEG, GIF or WebP picture/);
    expect(await placeholder(cached, imageOf(`${origin}${FAKE_PICTURE_FIXTURES.html}`))).toMatch(/text\/html, not a PNG/);
    await problem(cached, imageOf(`${origin}${FAKE_PICTURE_FIXTURES.missing}`), 404);
    const refused = [FAKE_PICTURE_FIXTURES.svg, FAKE_PICTURE_FIXTURES.html, FAKE_PICTURE_FIXTURES.missing];
    expect(keptPictures(cached, origin, refused)).toEqual(refused.map((fixture) => [fixture, false]));
  });

  it('refuses a picture over 5 MB (streamed without a length): the placeholder, and none of it kept', async () => {
    // The default timeout: reading 5 MB may take longer than this file's 300 ms on a busy machine.
    await withTestContext({ env: fakes.env }, async (patient) => {
      const origin = fakes.urls.pokeapi.replace('/api/v2', '');
      expect(await placeholder(patient, imageOf(`${origin}${FAKE_PICTURE_FIXTURES.huge}`))).toMatch(/more than 5 MB/);
      expect(keptPictures(patient, origin, [FAKE_PICTURE_FIXTURES.huge])).toEqual([[FAKE_PICTURE_FIXTURES.huge, false]]);
    });
  });

  it('keeps the folder under SAMPLES_IMAGE_DIR_MAX_MB: its hourly job removes the pictures used least recently', async () => {
    await withTestContext({ env: { ...fakes.env, SAMPLES_IMAGE_DIR_MAX_MB: '1' } }, async (small) => {
      const recent = artwork(5);
      await get(small, imageOf(recent)).expect(200);
      const job = small.jobs.find((j) => j.name === 'sample pictures pruning')!;
      // The first picture stored starts a pruning (the folder's size was not known yet): it is done before the old pictures appear.
      job.start();
      await job.stop();
      // Two pictures of 600 kB last used eight and seven days ago (as a proxy writes them: the bytes and their description).
      const folder = small.config.SAMPLES_IMAGE_DIR;
      const old = ['a', 'b'].map((c) => path.join(folder, c.repeat(64)));
      old.forEach((file, i) => {
        const lastUsed = new Date(Date.now() - (8 - i) * 24 * 3_600_000);
        fs.writeFileSync(file, Buffer.alloc(600 * 1024));
        fs.writeFileSync(`${file}.json`, '{"type":"image/png","size":614400}');
        for (const each of [file, `${file}.json`]) fs.utimesSync(each, lastUsed, lastUsed);
      });
      job.start();
      await job.stop();
      const file = path.join(folder, crypto.createHash('sha256').update(recent).digest('hex'));
      expect([file, ...old].map((f) => fs.existsSync(f))).toEqual([true, false, true]);
    });
  });

  it('answers the placeholder when the picture host does not answer in time, or cannot be reached', async () => {
    await fakes.set('rickandmorty', { mode: 'slow' });
    expect(await placeholder(cached, imageOf(`${fakes.urls.rickandmorty}/character/avatar/44.jpeg`))).toMatch(/did not answer within 300 ms/);
    await fakes.set('pokeapi', { mode: 'down' });
    expect(await placeholder(cached, imageOf(artwork(7)))).toMatch(/could not be reached/);
  });
});
