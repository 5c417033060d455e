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

  it('keeps every window of 300 ms to 3 starts while two instances keep asking', async () => {
    // Each granted start happened (by the database's clock) between asking and hearing back.
    const starts: Array<{ asked: number; granted: number }> = [];
    const caller = async (reserve: () => Promise<number>) => {
      for (let done = 0; done < 3; ) {
        const asked = Date.now();
        const wait = await reserve();
        if (wait === 0) {
          starts.push({ asked, granted: Date.now() });
          done++;
        } else await new Promise((r) => setTimeout(r, wait));
      }
    };
    await Promise.all(instances.flatMap((database) => [0, 1].map(() => caller(sharedRateWindow(database, 'test-steady', 3, 300)))));
    expect(starts).toHaveLength(12);
    // Any four starts cannot all fall within 300 ms: from the first asking to the last answer is at least that.
    let tightest = Infinity;
    const pick = (from: number, chosen: typeof starts) => {
      if (chosen.length === 4) {
        tightest = Math.min(tightest, Math.max(...chosen.map((c) => c.granted)) - Math.min(...chosen.map((c) => c.asked)));
        return;
      }
      for (let i = from; i < starts.length; i++) pick(i + 1, [...chosen, starts[i]!]);
    };
    pick(0, []);
    expect(tightest).toBeGreaterThanOrEqual(298); // SQLite's clock reads to the millisecond
  });
});
