import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from './database';
import { sharedCounterStore, sharedRateWindow } from './shared-limits';
import { createTestDatabase, testEngine, type TestDatabase } from '../test-support/test-database';
import type { Options } from 'express-rate-limit';

/**
 * The limits every instance shares. On PostgreSQL each "instance" is its own pool on the same
 * database, as separate processes would be; SQLite is one instance by design, so there they share it.
 */
let dir: string;
let target: TestDatabase;
let instances: Database[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-limits-'));
  target = await createTestDatabase(dir, 'limits');
  const first = await openDatabase(target.url);
  instances = testEngine() === 'postgres' ? [first, await openDatabase(target.url)] : [first, first];
});
afterAll(async () => {
  for (const database of new Set(instances)) await database.close();
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const storeOn = (database: Database, now?: () => number) => {
  const store = sharedCounterStore(database.db, 'test:', now);
  void store.init?.({ windowMs: 60_000 } as Options);
  return store;
};

describe('shared login failure counters', () => {
  it('counts 30 simultaneous failures from two instances as 1 to 30, none twice', async () => {
    const stores = instances.map((database) => storeOn(database));
    const hits = await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 2]!.increment('ip:10.0.0.1')));
    expect(hits.map((h) => h.totalHits).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(await stores[1]!.get!('ip:10.0.0.1')).toMatchObject({ totalHits: 30 });
  });

  it('gives back a hit (a successful login), restarts after the window, and forgets a key', async () => {
    let now = 1_000_000;
    const store = storeOn(instances[0]!, () => now);
    await store.increment('email:ana@example.com');
    await store.increment('email:ana@example.com');
    await store.decrement('email:ana@example.com');
    expect(await store.get!('email:ana@example.com')).toMatchObject({ totalHits: 1 });
    now += 60_000;
    expect(await store.get!('email:ana@example.com')).toBeUndefined();
    expect((await store.increment('email:ana@example.com')).totalHits).toBe(1);
    await store.resetKey('email:ana@example.com');
    expect(await store.get!('email:ana@example.com')).toBeUndefined();
  });
});

describe('shared rate window', () => {
  it('lets 5 of 12 simultaneous calls from two instances start, and tells the rest how long to wait', async () => {
    const windows = instances.map((database) => sharedRateWindow(database, 'test-burst', 5, 1000));
    const waits = await Promise.all(Array.from({ length: 12 }, (_, i) => windows[i % 2]!()));
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
    for (const wait of waits.filter((w) => w > 0)) expect(wait).toBeLessThanOrEqual(1000);
  });

  it('keeps every window of 300 ms to 3 starts while two instances keep asking, each caller waiting as long as it was told', async () => {
    // Both instances' windows read one clock the test moves (in production: the database server's).
    let clock = 1_000_000;
    const callers = instances.flatMap((database) => [0, 1].map(() => ({ reserve: sharedRateWindow(database, 'test-steady', 3, 300, () => clock), due: clock, done: 0 })));
    const starts: number[] = [];
    for (let round = 0; starts.length < 12; round++) {
      if (round === 50) throw new Error(`Still not 12 starts after 50 rounds: ${JSON.stringify(starts)}`);
      // Every caller whose wait is over asks at this moment, on both instances at once.
      const asking = callers.filter((c) => c.done < 3 && c.due <= clock);
      const waits = await Promise.all(asking.map((c) => c.reserve()));
      asking.forEach((caller, i) => {
        if (waits[i] === 0) {
          starts.push(clock - 1_000_000);
          caller.done++;
        } else caller.due = clock + waits[i]!;
      });
      // Time moves on to the next caller's turn once no one may ask now.
      if (!callers.some((c) => c.done < 3 && c.due <= clock)) clock = Math.min(...callers.filter((c) => c.done < 3).map((c) => c.due));
    }
    // Three starts a window, each window right after the one before: never four in 300 ms, never a caller idle longer than it had to.
    expect(starts).toEqual([0, 0, 0, 300, 300, 300, 600, 600, 600, 900, 900, 900]);
  });
});
