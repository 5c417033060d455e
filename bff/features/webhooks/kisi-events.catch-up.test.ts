import crypto from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { Writable } from 'node:stream';
import request from 'supertest';
import type { LiveEvent } from '../../contracts/events.contract';
import type { KisiEvent } from '../../contracts/webhook.contract';
import { unlockEvent } from '../../kisi/emulator/emulator.events';
import { kisiTime } from '../../kisi/emulator/emulator.shared';
import { emulatorStore } from '../../kisi/emulator/emulator.store';
import { signBody } from '../../kisi/signature';
import { createLogger } from '../../lib/logger';
import { fakeTimersBesideIo } from '../../test-support/clock';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { kisiEventWrites, receiveKisiEvent } from './kisi-event.receive';
import { CATCH_UP_OVERLAP_MS, kisiEventsCatchUp, type KisiEventsCatchUpDeps, type ReadKisiEventLog } from './kisi-events.catch-up';
import { kisiEventsRepository } from './kisi-events.repository';

/**
 * Door events Kisi logged while the BFF was not there to take their webhooks (recorded in the
 * in-process emulator's log and never posted) reach the inbox through a catch-up from Kisi's event log.
 */
let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
const published: LiveEvent[] = [];
const logLines: Array<{ level: number; msg: string }> = [];

const NADIA = 'nadia.okoye@harbourside.example';
const TOMAS = 'tomas.herrera@harbourside.example';
/** Event times in this file: minutes from the start of the run, later in each test than in the one before. */
const START = Math.floor(Date.now() / 1000) * 1000;
const at = (minutes: number) => kisiTime(START + minutes * 60_000);

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  staff = await ctx.loginAs('staff');
  ctx.bus.subscribe((event) => published.push(event));
});
afterAll(() => ctx.close());
beforeEach(async () => {
  // What the test before stored last may still be on its way out (it is sent after the write's answer).
  await ctx.bus.idle();
  published.length = 0;
  logLines.length = 0;
});

/** Says 'line' as each log line is written. */
const logged = new EventEmitter();
const logger = createLogger(
  'debug',
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      logged.emit('line');
      done();
    },
  }),
);

/** A catch-up as the server wires it, reading the emulator through the server-side Kisi client. */
const catchUp = (overrides: Partial<KisiEventsCatchUpDeps> = {}) =>
  kisiEventsCatchUp({
    events: kisiEventsRepository(ctx.database.db),
    readLog: (query, stop) => ctx.kisi!.client.listEvents(query, stop),
    emailOfKisiUser: async (id) => (await ctx.kisi!.client.getUser(id))?.email ?? null,
    inTransaction: kisiEventWrites(ctx.bus),
    logger,
    ...overrides,
  });

/** Kisi logs `email` unlocking a door at `when`, and its webhook never reaches the BFF. */
async function loggedWhileAway(email: string, when: string, lockId = 1) {
  const store = emulatorStore(ctx.kisi!.emulator!.database.db);
  const user = (await store.findUserByEmail(email))!;
  const lock = (await store.lockRow(lockId))!;
  const event = unlockEvent(crypto.randomUUID(), user, lock, undefined, when);
  await store.recordEvent(event);
  return event;
}

const inbox = async () => (await staff.get('/api/webhook?pageSize=100').expect(200)).body as { items: KisiEvent[]; total: number };
const countOf = async (uuid: string) => (await ctx.database.db.selectFrom('kisi_events').select('id').where('uuid', '=', uuid).execute()).length;

describe('catching up from Kisi’s event log', () => {
  it('on a database that never caught up and holds no event, reads from its first start, not Kisi’s whole history', async () => {
    await ctx.database.db.insertInto('app_meta').values({ key: 'seeded_at', value: new Date(START - 10 * 60_000).toISOString() }).execute();
    const before = await loggedWhileAway(NADIA, kisiTime(START - 3 * 86_400_000));
    const since = await loggedWhileAway(NADIA, kisiTime(START - 5 * 60_000));
    const result = await catchUp().run();
    expect(result).toMatchObject({ status: 'done', stored: 1 });
    expect(await countOf(since.uuid)).toBe(1);
    expect(await countOf(before.uuid)).toBe(0);
  });

  it('stores each missed event once, oldest first, with the actor’s email, announces it live, and a second catch-up adds nothing', async () => {
    const missed = [await loggedWhileAway(NADIA, at(1)), await loggedWhileAway(TOMAS, at(2), 2), await loggedWhileAway(NADIA, at(3))];
    const first = await catchUp().run();
    expect(first).toMatchObject({ status: 'done', stored: 3 });

    const { items, total } = await inbox();
    const caught = items.filter((e) => missed.some((m) => m.uuid === e.uuid));
    // Newest first in the inbox; stored (ids) in the order they happened.
    expect(caught.map((e) => e.uuid)).toEqual(missed.map((m) => m.uuid).reverse());
    expect(caught.map((e) => e.id)).toEqual([...caught.map((e) => e.id)].sort((a, b) => b - a));
    expect(caught.map((e) => [e.type, e.actorEmail, e.createdAt])).toEqual([
      ['lock.unlock', NADIA, new Date(at(3)).toISOString()],
      ['lock.unlock', TOMAS, new Date(at(2)).toISOString()],
      ['lock.unlock', NADIA, new Date(at(1)).toISOString()],
    ]);
    await ctx.bus.idle();
    expect(published.map((e) => [e.type, (e.data as KisiEvent).uuid])).toEqual(missed.map((m) => ['webhook', m.uuid]));

    published.length = 0;
    expect(await catchUp().run()).toMatchObject({ status: 'done', stored: 0 });
    expect((await inbox()).total).toBe(total);
    await ctx.bus.idle();
    expect(published).toEqual([]);

    const unlocks = (await staff.get(`/api/webhooks/unlocks?email=${NADIA}`).expect(200)).body as { items: KisiEvent[] };
    expect(unlocks.items.slice(0, 2).map((e) => e.uuid)).toEqual([missed[2]!.uuid, missed[0]!.uuid]);
  });

  it('a webhook that arrives after a restart, before the catch-up, does not hide the events missed before it', async () => {
    const missed = [await loggedWhileAway(NADIA, at(10)), await loggedWhileAway(TOMAS, at(11), 2)];
    // Back up: a new unlock's webhook comes in first, minutes after the ones that were missed.
    const fresh = await loggedWhileAway(NADIA, at(20));
    const body = JSON.stringify(fresh);
    await request(ctx.app).post('/api/webhooks/kisi').set('Content-Type', 'application/json').set('X-Signature', signBody(body, ctx.kisi!.settings.webhookSecret!)).send(body).expect(200);

    expect(await catchUp().run()).toMatchObject({ status: 'done', stored: 2 });
    for (const event of [...missed, fresh]) expect(await countOf(event.uuid)).toBe(1);
  });

  it('does not bring back an event the staff deleted from the inbox', async () => {
    const event = await loggedWhileAway(TOMAS, at(30), 2);
    await catchUp().run();
    const stored = (await inbox()).items.find((e) => e.uuid === event.uuid)!;
    await staff.delete(`/api/webhook/${stored.id}`).expect(204);

    expect(await catchUp().run()).toMatchObject({ status: 'done', stored: 0 });
    expect(await countOf(event.uuid)).toBe(0);
    // Once a catch-up no longer reads back that far, the deletion is forgotten.
    await loggedWhileAway(TOMAS, kisiTime(Date.parse(at(30)) + CATCH_UP_OVERLAP_MS + 60_000));
    await catchUp().run();
    expect(await ctx.database.db.selectFrom('app_meta').select('key').where('key', '=', `kisi_events.deleted:${event.uuid}`).execute()).toEqual([]);
  });

  it('pages through Kisi’s log, past its largest offset, and stores all of it', async () => {
    const missed: string[] = [];
    for (let i = 0; i < 9; i++) missed.push((await loggedWhileAway(i % 2 ? NADIA : TOMAS, at(40 + i), 1 + (i % 2))).uuid);
    const pages: string[] = [];
    const readLog: ReadKisiEventLog = (query, stop) => {
      pages.push(`${query.offset}${query.until ? ` until ${query.until}` : ''}`);
      return ctx.kisi!.client.listEvents(query, stop);
    };
    expect(await catchUp({ readLog, pageSize: 2, maxOffset: 4 }).run()).toMatchObject({ status: 'done', stored: 9 });
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.some((p) => p.includes('until'))).toBe(true);
    const stored = await ctx.database.db.selectFrom('kisi_events').select(['uuid', 'id']).where('uuid', 'in', missed).orderBy('id').execute();
    expect(stored.map((r) => r.uuid)).toEqual(missed);
  });

  it('a catch-up that fails part-way leaves the mark where it was, so the next one stores what it missed', async () => {
    const missed = [await loggedWhileAway(NADIA, at(60)), await loggedWhileAway(NADIA, at(61))];
    let calls = 0;
    const flaky: ReadKisiEventLog = (query, stop) => {
      if (++calls === 2) throw new Error('Kisi is unreachable');
      return ctx.kisi!.client.listEvents(query, stop);
    };
    await expect(catchUp({ readLog: flaky, pageSize: 1 }).run()).rejects.toThrow('Kisi is unreachable');
    expect(await countOf(missed[0]!.uuid)).toBe(0);
    expect(await catchUp().run()).toMatchObject({ status: 'done', stored: 2 });
  });
});

describe('two catch-ups at once (two instances)', () => {
  it('one reads Kisi while the other stands aside, and each event is stored once', async () => {
    const missed = await loggedWhileAway(TOMAS, at(70), 2);
    let reads = 0;
    // The one that reads Kisi holds its lease until the other has answered: "at once", whatever the machine's speed.
    let otherAnswered!: () => void;
    const held = new Promise<void>((resolve) => (otherAnswered = resolve));
    const counted: ReadKisiEventLog = async (query, stop) => {
      reads++;
      await held;
      return ctx.kisi!.client.listEvents(query, stop);
    };
    const both = [catchUp({ readLog: counted }).run(), catchUp({ readLog: counted }).run()];
    expect(await Promise.race(both)).toMatchObject({ status: 'busy' });
    otherAnswered();
    const results = await Promise.all(both);
    expect(results.map((r) => r.status).sort()).toEqual(['busy', 'done']);
    expect(reads).toBe(1);
    expect(await countOf(missed.uuid)).toBe(1);
    // The lease is given back: the next catch-up runs.
    expect(await catchUp().run()).toMatchObject({ status: 'done' });
  });

  it('stores an event once even when two deliveries race (the store-once path both use)', async () => {
    const event = await loggedWhileAway(NADIA, at(80));
    const raw = Buffer.from(JSON.stringify(event));
    const events = kisiEventsRepository(ctx.database.db);
    const inTransaction = kisiEventWrites(ctx.bus);
    const outcomes = await Promise.all([1, 2, 3].map(() => receiveKisiEvent({ events, inTransaction }, event, raw, new Date().toISOString())));
    expect(outcomes.map((o) => o?.status).sort()).toEqual(['duplicate', 'duplicate', 'stored']);
    expect(await countOf(event.uuid)).toBe(1);
    // Announced once, by the delivery that stored it (sent just after its commit).
    await ctx.bus.idle();
    expect(published.filter((e) => (e.data as KisiEvent).uuid === event.uuid)).toHaveLength(1);
  });
});

describe('the schedule', () => {
  it('runs at once and then on its interval, logs a failure once at warn, and stops on stop()', async () => {
    let calls = 0;
    const failing: ReadKisiEventLog = async () => {
      calls++;
      throw new Error('Kisi is unreachable');
    };
    const failures = () => logLines.filter((l) => /catch-up failed/.test(l.msg));
    const failuresLogged = async (count: number) => {
      while (failures().length < count) await once(logged, 'line');
    };
    // The interval on a clock the test moves; the runs themselves (the database, the log) are real.
    fakeTimersBesideIo();
    try {
      const scheduled = catchUp({ readLog: failing });
      scheduled.start(30_000);
      await failuresLogged(1);
      expect(calls).toBe(1);
      // Nothing more until the interval is over; then a run each interval.
      await jest.advanceTimersByTimeAsync(29_999);
      expect(calls).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      await failuresLogged(2);
      await jest.advanceTimersByTimeAsync(30_000);
      await failuresLogged(3);
      await scheduled.stop();
      expect(calls).toBe(3);
      // pino's levels: 40 warn, 20 debug.
      expect(failures().map((l) => l.level)).toEqual([40, 20, 20]);
      // Stopped: ten intervals later, no other run.
      await jest.advanceTimersByTimeAsync(300_000);
      expect(calls).toBe(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
