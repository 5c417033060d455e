import * as v from 'valibot';
import { FreshnessSchema } from '../../contracts/samples.contract';
import { HttpError, notFound } from '../../lib/http-error';
import { createLogger } from '../../lib/logger';
import { sampleAnswers } from './sample-answers.cache';
import type { SampleCacheRepository } from './sample-cache.repository';

/**
 * The answer cache on its own clock, over a database stand-in that can be made to fail: what the
 * router tests cannot reach without waiting out the cache time or breaking the real database.
 */

const Schema = v.object({ name: v.string(), freshness: FreshnessSchema });
const UNREACHABLE = new HttpError(502, 'PokeAPI could not be reached. Try again in a moment.');

function setUp(ttlMs: number) {
  let clock = Date.parse('2026-05-01T12:00:00Z');
  const rows = new Map<string, { body: string; fetched_at: string }>();
  const database = { down: false };
  const repository: SampleCacheRepository = {
    find: async (key) => {
      if (database.down) throw new Error('the database is down');
      return rows.get(key);
    },
    save: async (key, body, fetchedAt) => {
      if (database.down) throw new Error('the database is down');
      rows.set(key, { body, fetched_at: fetchedAt });
    },
  };
  const answers = sampleAnswers({ repository, ttlMs, logger: createLogger('silent'), now: () => clock });
  let calls = 0;
  const upstream: { answer: () => Promise<{ name: string }> } = { answer: async () => ({ name: `answer ${calls}` }) };
  const read = () => answers.read('key', Schema, () => (calls++, upstream.answer()));
  return { read, upstream, database, calls: () => calls, advance: (ms: number) => void (clock += ms) };
}

it('answers from memory for the cache time, then asks the upstream again', async () => {
  const { read, calls, advance } = setUp(60_000);
  expect(await read()).toEqual({ name: 'answer 1', freshness: { fetchedAt: '2026-05-01T12:00:00.000Z', stale: false, ageSeconds: 0 } });
  advance(59_999);
  expect(await read()).toMatchObject({ name: 'answer 1', freshness: { stale: false, ageSeconds: 59 } });
  expect(calls()).toBe(1);
  advance(2);
  expect(await read()).toMatchObject({ name: 'answer 2', freshness: { fetchedAt: '2026-05-01T12:01:00.001Z', stale: false, ageSeconds: 0 } });
});

it('makes one upstream call for reads of one key in flight, also with no cache time', async () => {
  const { read, calls } = setUp(0);
  const answers = await Promise.all([read(), read(), read()]);
  expect(answers.map((answer) => answer.name)).toEqual(['answer 1', 'answer 1', 'answer 1']);
  expect(calls()).toBe(1);
  expect((await read()).name).toBe('answer 2');
});

it("serves the last answer from memory, marked stale, when the upstream fails and the database's copy cannot be read", async () => {
  const { read, upstream, database, advance } = setUp(0);
  await read();
  advance(5_000);
  upstream.answer = () => Promise.reject(UNREACHABLE);
  database.down = true;
  expect(await read()).toEqual({ name: 'answer 1', freshness: { fetchedAt: '2026-05-01T12:00:00.000Z', stale: true, ageSeconds: 5 } });
});

it('stands in for an unreachable upstream only, never for a 404', async () => {
  const { read, upstream, database } = setUp(0);
  await read();
  database.down = true;
  upstream.answer = () => Promise.reject(notFound('There is no Pokémon 1.'));
  await expect(read()).rejects.toMatchObject({ status: 404 });
  // The 404 forgot the copy in memory too: an unreachable upstream now has nothing to stand in.
  upstream.answer = () => Promise.reject(UNREACHABLE);
  await expect(read()).rejects.toBe(UNREACHABLE);
});
