import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../db/database';
import { createTestDatabase, testEngine, type TestDatabase } from '../../test-support/test-database';
import { doorAccessOutboxRepository } from './door-access-outbox.repository';

/**
 * The door-access outbox as several senders share it: one row per member, a later change supersedes
 * the earlier one, and a claim gives each due row to one sender. On PostgreSQL each "instance" is a
 * pool of its own on one database, as separate processes are; SQLite is one instance by design.
 */
let dir: string;
let target: TestDatabase;
let instances: Database[];
const T0 = '2026-11-29T08:00:00.000Z';
const T1 = '2026-11-29T08:00:01.000Z';
const LEASE = '2026-11-29T08:01:00.000Z';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-outbox-'));
  target = await createTestDatabase(dir, 'outbox');
  const first = await openDatabase(target.url);
  instances = testEngine() === 'postgres' ? [first, await openDatabase(target.url)] : [first, first];
  const { db } = first;
  const { id: ownerId } = await db.insertInto('gym_owners').values({ name: 'O', email: 'o@outbox.test', gym_name: 'G', created_at: T0 }).returning('id').executeTakeFirstOrThrow();
  for (let i = 1; i <= 40; i++) {
    await db.insertInto('gym_users').values({ email: `m${i}@outbox.test`, name: `M ${i}`, owner_id: ownerId, membership: 'paused', created_at: T0, updated_at: T0 }).execute();
  }
});
afterAll(async () => {
  for (const database of new Set(instances)) await database.close();
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(() => instances[0]!.db.deleteFrom('door_access_outbox').execute());

const memberIds = async () => (await instances[0]!.db.selectFrom('gym_users').select('id').orderBy('id').execute()).map((r) => r.id);

it('keeps one row per member: a later change replaces the wish, and a send finished after it removes nothing', async () => {
  const outbox = doorAccessOutboxRepository(instances[0]!.db);
  const [id] = await memberIds();
  await outbox.queue(id!, false, T0);
  const [claimed] = await outbox.claim(T0, LEASE);
  expect(claimed).toEqual({ memberId: id, wantEnabled: false, version: 1, attempts: 0, email: null });
  // The member is reactivated while the pause is being sent.
  await outbox.queue(id!, true, T1);
  await outbox.done(claimed!);
  expect(await outbox.summary()).toEqual({ waiting: 1, nextTryAt: T1 });
  const [again] = await outbox.claim(T1, LEASE);
  expect(again).toMatchObject({ wantEnabled: true, version: 2, attempts: 0, email: null });
  // A failure counts and moves the next try; not due before it.
  await outbox.failed(again!, 'Kisi is unreachable', '2026-11-29T08:00:06.000Z');
  expect(await outbox.claim('2026-11-29T08:00:05.000Z', LEASE)).toEqual([]);
  expect(await outbox.claim('2026-11-29T08:00:06.000Z', LEASE)).toEqual([{ memberId: id, wantEnabled: true, version: 2, attempts: 1, email: null }]);
});

it('gives each due row to one sender when senders on every instance claim at once', async () => {
  const ids = await memberIds();
  for (const id of ids) await doorAccessOutboxRepository(instances[0]!.db).queue(id, false, T0);
  const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => doorAccessOutboxRepository(instances[i % instances.length]!.db).claim(T1, LEASE)));
  const claimed = claims.flat().map((c) => c.memberId);
  expect(claimed.sort((a, b) => a - b)).toEqual(ids);
  // Leased: nothing is due again until the lease ends.
  expect(await doorAccessOutboxRepository(instances[1]!.db).claim(T1, LEASE)).toEqual([]);
});

it('claims at most its limit of due rows, longest waiting first, and the next claim the next ones (thousands due at once: an import)', async () => {
  const outbox = doorAccessOutboxRepository(instances[0]!.db);
  const ids = await memberIds();
  // Queued newest first: the last members have waited longest.
  for (const [i, id] of ids.entries()) await outbox.queue(id, false, `2026-11-29T07:${String(59 - i).padStart(2, '0')}:00.000Z`);
  const first = await outbox.claim(T1, LEASE, undefined, 15);
  expect(first.map((c) => c.memberId)).toEqual(expect.arrayContaining(ids.slice(-15)));
  expect(first).toHaveLength(15);
  // At once on every instance: each due row to one sender, none beyond each claim's limit.
  const claims = await Promise.all(Array.from({ length: 4 }, (_, i) => doorAccessOutboxRepository(instances[i % instances.length]!.db).claim(T1, LEASE, undefined, 10)));
  for (const claim of claims) expect(claim.length).toBeLessThanOrEqual(10);
  const all = [...first, ...claims.flat()].map((c) => c.memberId);
  expect(new Set(all).size).toBe(all.length);
  const rest = await outbox.claim(T1, LEASE, undefined, 100);
  expect([...all, ...rest.map((c) => c.memberId)].sort((a, b) => a - b)).toEqual(ids);
});

it('brings every waiting row forward when Kisi answers again', async () => {
  const outbox = doorAccessOutboxRepository(instances[0]!.db);
  const ids = (await memberIds()).slice(0, 3);
  for (const id of ids) await outbox.queue(id, false, '2026-11-29T08:05:00.000Z');
  expect(await outbox.claim(T1, LEASE)).toEqual([]);
  await outbox.bringForward(T1);
  expect((await outbox.claim(T1, LEASE)).map((c) => c.memberId).sort((a, b) => a - b)).toEqual(ids);
});

it('leaves a held row to its sender when Kisi answers again: "everything due now" neither moves nor hands it to a second sender', async () => {
  const [held, waiting] = await memberIds();
  const outbox = doorAccessOutboxRepository(instances[0]!.db);
  await outbox.queue(held!, false, T0);
  await outbox.queue(waiting!, false, '2026-11-29T08:05:00.000Z'); // in its backoff
  const [sending] = await outbox.claim(T0, LEASE);
  expect(sending).toMatchObject({ memberId: held });
  // Kisi answers again (on any instance): the backed-off row is due now, the one being sent stays with its sender.
  await doorAccessOutboxRepository(instances[1]!.db).bringForward(T1);
  expect(await doorAccessOutboxRepository(instances[1]!.db).claim(T1, LEASE)).toEqual([{ memberId: waiting, wantEnabled: false, version: 1, attempts: 0, email: null }]);
  // Not "try now" either, while it is held; once its sender failed and released it, it is due at its next try.
  expect(await outbox.claim(T1, LEASE, held)).toEqual([]);
  await outbox.failed(sending!, 'Kisi is unreachable', T1);
  expect(await outbox.claim(T1, LEASE)).toEqual([{ memberId: held, wantEnabled: false, version: 1, attempts: 1, email: null }]);
});
