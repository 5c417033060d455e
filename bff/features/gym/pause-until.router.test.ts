import type { AuditEntry } from '../../contracts/audit.contract';
import type { Page } from '../../contracts/common.contract';
import type { GymMember } from '../../contracts/gym.contract';
import { createApp, type App } from '../../app';
import { openDatabase, type Database } from '../../db/database';
import { createLogger } from '../../lib/logger';
import { stopWallClock } from '../../test-support/clock';
import { createTestContext, NO_KISI_DOOR, type TestContext } from '../../test-support/test-app';
import { testEngine } from '../../test-support/test-database';
import { untilAsync } from '../../test-support/until';

/**
 * Pause until a date (issue 52): a paused membership may end on a day of the venue's
 * (VENUE_TIME_ZONE, here New York, five hours behind UTC in December). On that day the pause job
 * makes it active again and owes Kisi the switch-on through the outbox, audited as the server's,
 * with a live `member` event. The day is on the member's row: a server started after midnight
 * resumes on its first run, and two instances running the job at once resume each member once.
 */
const ZONE = 'America/New_York';
/** 12:00 in New York on Sunday 13 December 2026. */
const SUNDAY_NOON = Date.parse('2026-12-13T17:00:00.000Z');

let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let ownerId: number;
let clock: ReturnType<typeof stopWallClock>;
beforeAll(async () => {
  clock = stopWallClock(SUNDAY_NOON);
  ctx = await createTestContext({ VENUE_TIME_ZONE: ZONE }, { doorSync: { pollMs: 50, probeMs: 100 } }, { emulator: true });
  staff = await ctx.loginAs('staff');
  ownerId = ((await staff.post('/api/gym/owners').send({ name: 'Pause Owner', email: 'pause-owner@gyms.test', gymName: 'Pause Gym' }).expect(201)).body as { id: number }).id;
});
afterEach(() => Promise.all(ctx.jobs.map((job) => job.stop())));
afterAll(async () => {
  await ctx.close();
  jest.useRealTimers();
});

const job = (app: Pick<App, 'jobs'> = ctx) => app.jobs.find((j) => j.name === 'pause ender')!;
/** One run of the pause job (it runs at its start), waited for. */
const runPauseJob = async (app: Pick<App, 'jobs'> = ctx) => {
  job(app).start();
  await job(app).stop();
};
const member = async (id: number) => (await staff.get(`/api/gym/users/${id}`).expect(200)).body as GymMember;
const addMember = async (email: string, name: string, membership = 'active') =>
  (await staff.post('/api/gym/users').send({ email, name, ownerId, membership }).expect(201)).body as GymMember;
const patch = (id: number, body: object) => staff.patch(`/api/gym/users/${id}`).send(body);
const kisiAccessOf = async (email: string) => (await ctx.kisi!.client.findUserByEmail(email))!.accessEnabled;
const trailOf = async (id: number) => {
  const admin = await ctx.loginAs('admin');
  return ((await admin.get('/api/audit').query({ kind: 'member', pageSize: 100 }).expect(200)).body as Page<AuditEntry>).items.filter((e) => e.subjectId === String(id));
};
/** The live `member` events stored after the event id `after` (a pause's own switch-off, sent at once, announces one too). */
const memberEvents = async (after = 0) =>
  (await ctx.database.db.selectFrom('live_events').select(['type', 'data']).where('type', '=', 'member').where('id', '>', after).orderBy('id').execute()).map(
    (e) => JSON.parse(e.data) as { memberId: number; membership: string },
  );
const lastEventId = async () => Number((await ctx.database.db.selectFrom('live_events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0);
const outboxOf = (id: number) => ctx.database.db.selectFrom('door_access_outbox').selectAll().where('member_id', '=', id).execute();

describe('setting the day a pause ends', () => {
  let m: GymMember;
  beforeAll(async () => {
    m = await addMember('daniel.kim@mail.example', 'Daniel Pause');
  });

  it.each([
    ['today (the venue’s)', { membership: 'paused', pausedUntil: '2026-12-13' }, 'Choose a day after today'],
    ['yesterday', { membership: 'paused', pausedUntil: '2026-12-12' }, 'Choose a day after today'],
    ['more than a year on', { membership: 'paused', pausedUntil: '2027-12-14' }, 'Choose a day within a year (by 2027-12-13)'],
    ['no such day', { membership: 'paused', pausedUntil: '2027-02-30' }, 'There is no such day'],
    ['not a day', { membership: 'paused', pausedUntil: '14/12/2026' }, 'Expected a day as YYYY-MM-DD'],
    ['with active', { membership: 'active', pausedUntil: '2026-12-20' }, 'A pause’s end goes only with a paused membership'],
    ['on a member who is not paused', { pausedUntil: '2026-12-20' }, 'Pause the membership to set the day it comes back'],
  ])('refuses a day %s with a 400 on the field, and changes nothing', async (_, body, message) => {
    const answer = await patch(m.id, body).expect(400);
    expect(answer.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'body.pausedUntil', message: expect.stringContaining(message) })]);
    expect(await member(m.id)).toMatchObject({ membership: 'active', pausedUntil: null, updatedAt: m.updatedAt });
  });

  it('pauses until a day (a year on at most), changes the day, and a membership set by hand ends it', async () => {
    // In UTC it is already Monday 14 December from 19:00 New York time: the venue's day decides.
    expect((await patch(m.id, { membership: 'paused', pausedUntil: '2027-12-13' }).expect(200)).body).toMatchObject({ membership: 'paused', pausedUntil: '2027-12-13' });
    expect((await patch(m.id, { pausedUntil: '2026-12-14' }).expect(200)).body).toMatchObject({ membership: 'paused', pausedUntil: '2026-12-14' });
    expect(await kisiAccessOf(m.email)).toBe(false);
    // Paused with no end.
    expect((await patch(m.id, { pausedUntil: null }).expect(200)).body).toMatchObject({ membership: 'paused', pausedUntil: null });
    await patch(m.id, { pausedUntil: '2026-12-20' }).expect(200);
    // Back to active by hand: the day goes with the pause.
    expect((await patch(m.id, { membership: 'active' }).expect(200)).body).toMatchObject({ membership: 'active', pausedUntil: null });
    await patch(m.id, { membership: 'paused', pausedUntil: '2026-12-20' }).expect(200);
    expect((await patch(m.id, { membership: 'cancelled' }).expect(200)).body).toMatchObject({ membership: 'cancelled', pausedUntil: null });

    const trail = await trailOf(m.id);
    const pausedUntilChanges = trail.flatMap((e) => e.changes.filter((c) => c.field === 'pausedUntil').map((c) => `${e.action}: ${c.before} → ${c.after}`));
    expect(pausedUntilChanges.reverse()).toEqual([
      'paused: null → 2027-12-13',
      'updated: 2027-12-13 → 2026-12-14',
      'updated: 2026-12-14 → null',
      'updated: null → 2026-12-20',
      'reactivated: 2026-12-20 → null',
      'paused: null → 2026-12-20',
      'cancelled: 2026-12-20 → null',
    ]);
  });
});

describe('the pause job', () => {
  it('resumes on the venue’s day, not before: active again, Kisi switched on through the outbox, audited as the server’s, announced', async () => {
    const m = await addMember('esther.adeyemi@mail.example', 'Esther Pause');
    const other = await addMember('felix.wagner@mail.example', 'Felix Later');
    await patch(m.id, { membership: 'paused', pausedUntil: '2026-12-14' }).expect(200);
    await patch(other.id, { membership: 'paused', pausedUntil: '2026-12-15' }).expect(200);
    expect(await kisiAccessOf(m.email)).toBe(false);
    const mark = await lastEventId();

    // 23:59 on Sunday in New York (04:59 on Monday in UTC): not yet.
    clock.advance(Date.parse('2026-12-14T04:59:00.000Z') - Date.now());
    await runPauseJob();
    staff = await ctx.loginAs('staff');
    expect(await member(m.id)).toMatchObject({ membership: 'paused', pausedUntil: '2026-12-14' });

    // Midnight in New York: the first run after it.
    clock.advance(Date.parse('2026-12-14T05:00:30.000Z') - Date.now());
    await runPauseJob();
    const resumed = await member(m.id);
    expect(resumed).toMatchObject({ membership: 'active', pausedUntil: null, accessSync: { state: 'pending', wantEnabled: true } });
    expect(await member(other.id)).toMatchObject({ membership: 'paused', pausedUntil: '2026-12-15' });
    expect(await outboxOf(m.id)).toEqual([expect.objectContaining({ want_enabled: 1 })]);
    expect(await memberEvents(mark)).toEqual([{ memberId: m.id, membership: 'active' }]);
    const [entry] = await trailOf(m.id);
    expect(entry).toMatchObject({
      actor: null,
      action: 'pause ended',
      changes: [
        { field: 'membership', before: 'paused', after: 'active' },
        { field: 'pausedUntil', before: '2026-12-14', after: null },
      ],
    });

    // The door sender switches Kisi back on, as for any change.
    const sender = ctx.jobs.find((j) => j.name === 'door access sender')!;
    sender.start();
    await untilAsync(() => kisiAccessOf(m.email), 'Kisi access back on');
    await untilAsync(async () => (await member(m.id)).accessSync.state === 'synced', 'synced');
    await sender.stop();
    // Kisi took it: the open pages hear that too (they stop saying "Waiting for Kisi").
    expect(await memberEvents(mark)).toEqual([
      { memberId: m.id, membership: 'active' },
      { memberId: m.id, membership: 'active' },
    ]);

    // A second run finds nothing more to do.
    const again = await lastEventId();
    await runPauseJob();
    expect(await memberEvents(again)).toEqual([]);
    expect((await trailOf(m.id)).filter((e) => e.action === 'pause ended')).toHaveLength(1);
    // Felix comes back a day later.
    clock.advance(24 * 3_600_000);
    await runPauseJob();
    staff = await ctx.loginAs('staff');
    expect(await member(other.id)).toMatchObject({ membership: 'active', pausedUntil: null });
  });

  it('a pause changed by hand before its day is left alone: only a paused member whose day came is resumed', async () => {
    const m = await addMember('gabriela.souza@mail.example', 'Gabriela Hand');
    const today = '2026-12-15';
    await patch(m.id, { membership: 'paused', pausedUntil: '2026-12-16' }).expect(200);
    await patch(m.id, { membership: 'cancelled' }).expect(200);
    // Even with a day left on the row (written around the API), a cancelled member stays cancelled.
    await ctx.database.db.updateTable('gym_users').set({ paused_until: today }).where('id', '=', m.id).execute();
    await runPauseJob();
    expect(await member(m.id)).toMatchObject({ membership: 'cancelled' });
  });
});

describe('instances and restarts', () => {
  let second: { app: App; database: Database };
  beforeAll(async () => {
    // Another instance on the same database (its own pool on PostgreSQL; SQLite is one process by design).
    const database = testEngine() === 'postgres' ? await openDatabase(ctx.config.DATABASE_URL) : ctx.database;
    second = { database, app: createApp({ config: ctx.config, database, logger: createLogger('silent'), version: '0.0.0-test', door: NO_KISI_DOOR }) };
  });
  afterAll(async () => {
    await Promise.all(second.app.jobs.map((j) => j.stop()));
    await second.app.bus.close();
    if (second.database !== ctx.database) await second.database.close();
  });

  it('two instances running the job at once resume each member once: one switch queued, one trail entry, one event', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const added = await addMember(`twice${i}@members.test`, `Twice ${i}`);
      await patch(added.id, { membership: 'paused', pausedUntil: '2026-12-18' }).expect(200);
      ids.push(added.id);
    }
    const mark = await lastEventId();
    clock.advance(Date.parse('2026-12-18T05:00:01.000Z') - Date.now());
    staff = await ctx.loginAs('staff');
    await Promise.all([runPauseJob(ctx), runPauseJob(second.app), runPauseJob(ctx), runPauseJob(second.app)]);

    for (const id of ids) {
      expect(await member(id)).toMatchObject({ membership: 'active', pausedUntil: null });
      // Queued once: a second queue would have raised the row's version.
      expect(await outboxOf(id)).toEqual([expect.objectContaining({ want_enabled: 1, version: 1 })]);
      expect((await trailOf(id)).filter((e) => e.action === 'pause ended')).toHaveLength(1);
    }
    const events = await memberEvents(mark);
    expect(events.map((e) => e.memberId).sort((a, b) => a - b)).toEqual(ids);
  });

  it('a server started after the day (down at midnight) resumes at its first run: the day lives on the member’s row', async () => {
    const m = await addMember('hassan.ali@mail.example', 'Hassan Restart');
    await patch(m.id, { membership: 'paused', pausedUntil: '2026-12-19' }).expect(200);
    // No job ran while the server was away; two days on, a new instance starts.
    clock.advance(2 * 24 * 3_600_000);
    staff = await ctx.loginAs('staff');
    const restarted = createApp({ config: ctx.config, database: second.database, logger: createLogger('silent'), version: '0.0.0-test', door: NO_KISI_DOOR });
    await runPauseJob(restarted);
    expect(await member(m.id)).toMatchObject({ membership: 'active', pausedUntil: null, accessSync: { state: 'pending', wantEnabled: true } });
    await restarted.bus.close();
  });

  it('a save racing the job decides on the member as the job left them: never an active member with a pause’s end, one return in the trail', async () => {
    const racers = async (prefix: string) => {
      const ids: number[] = [];
      for (let i = 0; i < 8; i++) {
        const added = await addMember(`${prefix}${i}@members.test`, `Race ${prefix} ${i}`);
        await patch(added.id, { membership: 'paused', pausedUntil: '2026-12-23' }).expect(200);
        ids.push(added.id);
      }
      return ids;
    };
    const datesOnly = await racers('until');
    const byHand = await racers('back');
    // Midnight on the 23rd in New York: every one of them is due.
    clock.advance(Date.parse('2026-12-23T05:00:01.000Z') - Date.now());
    staff = await ctx.loginAs('staff');
    const saves = [...datesOnly, ...datesOnly, ...datesOnly].map((id) => patch(id, { pausedUntil: '2026-12-30' }));
    const returns = [...byHand, ...byHand].map((id) => patch(id, { membership: 'active' }));
    // The job on the other instance (its own connections on PostgreSQL) while the saves are made.
    const [answers] = await Promise.all([Promise.all([...saves, ...returns]), runPauseJob(second.app), runPauseJob(ctx)]);
    // A save after the job is refused (the member is no longer paused), never a 500.
    for (const answer of answers) expect([200, 400]).toContain(answer.status);

    const returnsOf = async (id: number) =>
      (await ctx.database.db.selectFrom('audit_entries').select('action').where('kind', '=', 'member').where('subject_id', '=', String(id)).where('action', 'in', ['pause ended', 'reactivated']).execute()).length;
    for (const id of datesOnly) {
      const row = await ctx.database.db.selectFrom('gym_users').select(['membership', 'paused_until']).where('id', '=', id).executeTakeFirstOrThrow();
      // Either the job came first (active, no day) or the saves did (paused until the 30th, not resumed).
      expect([{ membership: 'active', paused_until: null }, { membership: 'paused', paused_until: '2026-12-30' }]).toContainEqual(row);
      expect(await returnsOf(id)).toBe(row.membership === 'active' ? 1 : 0);
    }
    for (const id of byHand) {
      expect(await ctx.database.db.selectFrom('gym_users').select(['membership', 'paused_until']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ membership: 'active', paused_until: null });
      // Back once: by the job or by hand, one entry and one switch-on owed (a second would have raised the row's version).
      expect(await returnsOf(id)).toBe(1);
      expect((await outboxOf(id)).filter((row) => row.version > 1)).toEqual([]);
    }
  });
});
