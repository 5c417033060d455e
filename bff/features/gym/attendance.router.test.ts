import request from 'supertest';
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import type { GymMemberRow, MemberAttendance } from '../../contracts/gym.contract';
import { quarterHourOf, recordVisitIn } from '../../db/member-visits';
import { signBody } from '../../kisi/signature';
import { addDays, zonedDay } from '../../lib/time-zone';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { membersRepository } from './members.repository';
import { mondayOf, visitsRepository } from './visits.repository';

/**
 * Attendance (issue 52): each member's visits by the venue's day, a day counted once however many
 * doors they opened (the zone's midnight, weeks from Monday), written by the unlock writes that move
 * their last visit; the list's "last 4 weeks" column, its filter by recorded door access (along an
 * index in both of the list's orders), and the visits going with the member and with retention.
 */
const SECRET = 'attendance-webhook-secret-0123456789';
let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let ownerId: number;
beforeAll(async () => {
  ctx = await createTestContext({ VENUE_TIME_ZONE: 'Europe/Lisbon', KISI_WEBHOOK_SECRET: SECRET }, {}, { emulator: true });
  staff = await ctx.loginAs('staff');
  ownerId = (await staff.post('/api/gym/owners').send({ name: 'Visits Owner', email: 'visits-owner@gyms.test', gymName: 'Visits Gym' }).expect(201)).body.id;
});
afterAll(() => ctx.close());

let seq = 0;
/** A successful unlock of `email` at `at`, as Kisi's signed webhook delivers it. */
async function unlock(email: string, at: string, { success = true } = {}) {
  const body = JSON.stringify({
    uuid: `attendance-${++seq}`,
    type: 'lock.unlock',
    actor_type: 'User',
    actor_id: 900 + seq,
    actor_name: email,
    actor_email: email,
    object_type: 'Lock',
    object_id: 1 + (seq % 3),
    object_name: 'Main Entrance',
    place_id: 1,
    success,
    created_at: at,
  });
  await request(ctx.app).post('/api/webhooks/kisi').set('Content-Type', 'application/json').set('X-Signature', signBody(body, SECRET)).send(body).expect(200);
}
const addMember = async (name: string, email: string) => (await staff.post('/api/gym/users').send({ name, email, ownerId }).expect(201)).body as { id: number };
const visitRows = (memberId: number) => ctx.database.db.selectFrom('member_visits').select('at').where('member_id', '=', memberId).orderBy('at').execute();

describe('a member’s visits', () => {
  it('are kept as the quarter hours of their successful unlocks, once each, by the webhook’s store; refusals are no visits', async () => {
    const { id } = await addMember('Quinn Quarter', 'quinn@visits.test');
    await unlock('quinn@visits.test', '2026-03-02T08:01:00.000Z');
    await unlock('quinn@visits.test', '2026-03-02T08:14:59.000Z'); // the locker room: the same quarter
    await unlock('quinn@visits.test', '2026-03-02T08:15:00.000Z');
    await unlock('quinn@visits.test', '2026-03-02T08:15:00.000Z'); // a repeat delivery of another uuid, same time
    await unlock('quinn@visits.test', '2026-03-02T19:50:00.000Z', { success: false });
    expect((await visitRows(id)).map((r) => r.at)).toEqual(['2026-03-02T08:00:00.000Z', '2026-03-02T08:15:00.000Z']);
  });

  it('of a member added after their unlocks were stored (a returning member) are theirs at once', async () => {
    await unlock('rae@visits.test', '2026-02-10T07:44:10.000Z');
    await unlock('rae@visits.test', '2026-02-11T07:31:00.000Z');
    const { id } = await addMember('Rae Returning', 'rae@visits.test');
    expect((await visitRows(id)).map((r) => r.at)).toEqual(['2026-02-10T07:30:00.000Z', '2026-02-11T07:30:00.000Z']);
  });

  it('quarter hours as the write and the fill spell them', () => {
    expect(quarterHourOf('2026-03-02T08:59:59.999Z')).toBe('2026-03-02T08:45:00.000Z');
    expect(quarterHourOf('2026-03-02T00:00:00.000Z')).toBe('2026-03-02T00:00:00.000Z');
    expect(quarterHourOf('not a time')).toBeUndefined();
  });
});

describe('counting by the venue’s day', () => {
  /** A member with visits at these instants, written as the unlock write does. */
  async function memberWith(email: string, instants: string[]) {
    const { id } = await addMember(email, email);
    for (const at of instants) await recordVisitIn(ctx.database.db)({ type: 'lock.unlock', success: true, actorEmail: email, createdAt: at });
    return id;
  }

  it('counts a day once however many times they came in it, and today, this week (from Monday) and 12 weeks', async () => {
    const id = await memberWith('wanda@visits.test', [
      '2026-03-04T07:00:00.000Z', // Wednesday (today), morning
      '2026-03-04T18:30:00.000Z', // and again in the evening: one day
      '2026-03-02T09:00:00.000Z', // Monday: this week
      '2026-03-01T09:00:00.000Z', // Sunday: last week
      '2025-12-15T09:00:00.000Z', // Monday 11 weeks before this one: the first week shown
      '2025-12-14T09:00:00.000Z', // the Sunday before it: not shown
    ]);
    const attendance = await visitsRepository(ctx.database.db, 'UTC').attendanceOf({ id, lastVisitAt: '2026-03-04T18:30:00.000Z' }, new Date('2026-03-04T20:00:00.000Z'));
    expect(attendance).toMatchObject({ timeZone: 'UTC', today: '2026-03-04', cameToday: true, thisWeek: 2, lastVisitAt: '2026-03-04T18:30:00.000Z' });
    expect(attendance.weeks).toHaveLength(12);
    expect(attendance.weeks[0]).toEqual({ start: '2025-12-15', days: 1 });
    expect(attendance.weeks[10]).toEqual({ start: '2026-02-23', days: 1 });
    expect(attendance.weeks[11]).toEqual({ start: '2026-03-02', days: 2 });
    expect(attendance.weeks.reduce((sum, w) => sum + w.days, 0)).toBe(4);
  });

  it('splits days at the venue’s midnight, not UTC’s, and reads the same rows again in another zone', async () => {
    // 23:30 and 00:30 in New York (UTC-4 in summer time): two days there, one in UTC.
    const id = await memberWith('nate@visits.test', ['2026-06-10T03:30:00.000Z', '2026-06-10T04:30:00.000Z']);
    const now = new Date('2026-06-10T12:00:00.000Z');
    const member = { id, lastVisitAt: '2026-06-10T04:30:00.000Z' };
    const newYork = await visitsRepository(ctx.database.db, 'America/New_York').attendanceOf(member, now);
    expect(newYork).toMatchObject({ today: '2026-06-10', cameToday: true, thisWeek: 2 });
    const utc = await visitsRepository(ctx.database.db, 'UTC').attendanceOf(member, now);
    expect(utc).toMatchObject({ today: '2026-06-10', cameToday: true, thisWeek: 1 });
  });

  it('keeps a half-hour zone’s midnight: 23:50 and 00:10 in Kolkata are two days', async () => {
    // UTC+5:30: 18:20Z is 23:50, 18:40Z is 00:10 the next day (an hour's rows would have joined them).
    const id = await memberWith('kavya@visits.test', ['2026-06-09T18:20:00.000Z', '2026-06-09T18:40:00.000Z']);
    const attendance = await visitsRepository(ctx.database.db, 'Asia/Kolkata').attendanceOf({ id, lastVisitAt: null }, new Date('2026-06-10T06:00:00.000Z'));
    expect(attendance).toMatchObject({ today: '2026-06-10', cameToday: true, thisWeek: 2 });
  });

  it('counts the list’s last 4 weeks as 28 venue days up to today, for a page of members in one read', async () => {
    const now = new Date('2026-03-04T12:00:00.000Z');
    const a = await memberWith('ada4@visits.test', ['2026-03-04T08:00:00.000Z', '2026-03-04T09:00:00.000Z', '2026-02-05T08:00:00.000Z', '2026-02-04T08:00:00.000Z']);
    const b = await memberWith('ben4@visits.test', []);
    const recent = await visitsRepository(ctx.database.db, 'UTC').recentVisitDays([a, b], now);
    // 4 March and 5 February (27 days before it) count; 4 February is the 29th day back.
    expect([...recent]).toEqual([
      [a, 2],
      [b, 0],
    ]);
  });

  it('reads a range of the primary key for each member, never the whole table, on either engine', async () => {
    const { db, engine } = ctx.database;
    const captured: RootOperationNode[] = [];
    const capture: KyselyPlugin = { transformQuery: ({ node }) => (captured.push(node), node), transformResult: async ({ result }) => result };
    await visitsRepository(db.withPlugin(capture), 'Europe/Lisbon').recentVisitDays([1, 2, 3], new Date('2026-03-04T12:00:00.000Z'));
    const q = db.getExecutor().compileQuery(captured[0]!, { queryId: 'plan' });
    if (engine === 'sqlite') {
      const plan = (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]))).rows.map((r) => r.detail).join('\n');
      expect(plan).toMatch(/SEARCH member_visits USING (COVERING )?INDEX sqlite_autoindex_member_visits_1 \(member_id=\? AND at>\? AND at<\?\)/);
      return;
    }
    // A handful of rows: PostgreSQL reads the whole table unless told not to; what matters is that the key can serve it.
    await db.transaction().execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      const plan = (await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]))).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/member_visits_pk/);
      expect(plan).toMatch(/Index Cond: \(\(member_id = ANY/);
    });
  });

  it('starts weeks on Monday', () => {
    expect(mondayOf('2026-03-04')).toBe('2026-03-02');
    expect(mondayOf('2026-03-02')).toBe('2026-03-02');
    expect(mondayOf('2026-03-01')).toBe('2026-02-23');
  });
});

describe('GET /api/gym/users/:id/attendance and the list’s column', () => {
  it('shows a member who came in today as such, this week and in the list’s last 4 weeks; 404 for no member', async () => {
    const now = new Date();
    const { id } = await addMember('Tess Today', 'tess@visits.test');
    await unlock('tess@visits.test', new Date(now.getTime() - 60_000).toISOString());
    await unlock('tess@visits.test', new Date(now.getTime() - 30_000).toISOString());
    await unlock('tess@visits.test', new Date(now.getTime() - 40 * 86_400_000).toISOString());
    const attendance = (await staff.get(`/api/gym/users/${id}/attendance`).expect(200)).body as MemberAttendance;
    const today = zonedDay(now, 'Europe/Lisbon');
    expect(attendance).toMatchObject({ timeZone: 'Europe/Lisbon', today, cameToday: true, thisWeek: 1 });
    expect(attendance.weeks.at(-1)).toEqual({ start: mondayOf(today), days: 1 });
    expect(attendance.weeks[0]!.start).toBe(addDays(mondayOf(today), -77));
    const rows = (await staff.get('/api/gym/users').query({ query: 'tess@visits' }).expect(200)).body.items as GymMemberRow[];
    expect(rows.map((r) => [r.name, r.recentVisitDays])).toEqual([['Tess Today', 1]]);
    await staff.get('/api/gym/users/999999/attendance').expect(404);
    await staff.get('/api/gym/users/abc/attendance').expect(400);
  });
});

describe('filtering the list by recorded door access', () => {
  const people = {
    open: 'Olive Open',
    closed: 'Cole Closed',
    waiting: 'Wes Waiting',
    failed: 'Fay Failed',
    no_account: 'Nico NoAccount',
    unconfirmed: 'Una Unconfirmed',
  } as const;
  beforeAll(async () => {
    const set = async (name: string, values: { access_sync_state: 'synced' | 'pending' | 'failed' | 'no_kisi_user' | 'not_needed'; kisi_access_enabled: number | null }) => {
      const { id } = await addMember(name, `${name.split(' ')[0]!.toLowerCase()}@doors.test`);
      await ctx.database.db.updateTable('gym_users').set(values).where('id', '=', id).execute();
      return id;
    };
    await set(people.open, { access_sync_state: 'synced', kisi_access_enabled: 1 });
    await set(people.closed, { access_sync_state: 'synced', kisi_access_enabled: 0 });
    await set(people.waiting, { access_sync_state: 'pending', kisi_access_enabled: 1 });
    await set(people.failed, { access_sync_state: 'failed', kisi_access_enabled: 0 });
    await set(people.no_account, { access_sync_state: 'no_kisi_user', kisi_access_enabled: 1 });
    await set(people.unconfirmed, { access_sync_state: 'not_needed', kisi_access_enabled: null });
    await unlock('olive@doors.test', new Date().toISOString());
  });
  const names = async (query: Record<string, string>) => ((await staff.get('/api/gym/users').query({ query: 'doors.test', ...query }).expect(200)).body.items as GymMemberRow[]).map((m) => m.name);

  it('lets through each member in exactly one state, by name or by last visit', async () => {
    for (const [access, name] of Object.entries(people)) {
      expect(await names({ access })).toEqual([name]);
      expect(await names({ access, sort: '-last_visit' })).toEqual([name]);
    }
    expect((await names({})).sort()).toEqual(Object.values(people).sort());
  });

  it('goes with the other filters, and refuses an unknown state with a 400 naming the field', async () => {
    expect(await names({ access: 'open', membership: 'active' })).toEqual([people.open]);
    expect(await names({ access: 'open', membership: 'paused' })).toEqual([]);
    const res = await staff.get('/api/gym/users?access=ajar').expect(400);
    expect(res.body.errors[0].path).toBe('query.access');
  });

  it('reads along a door-state index in both orders, without sorting, on either engine', async () => {
    const { db, engine } = ctx.database;
    const captured: RootOperationNode[] = [];
    const capture: KyselyPlugin = { transformQuery: ({ node }) => (captured.push(node), node), transformResult: async ({ result }) => result };
    const members = membersRepository(db.withPlugin(capture), ctx.database.containsMatch);
    const plansOf = async (sort: 'name' | '-last_visit') => {
      captured.length = 0;
      await members.list({ page: 0, pageSize: 10, access: 'open', sort });
      const pages = captured.map((node) => db.getExecutor().compileQuery(node, { queryId: 'plan' })).filter((q) => /limit/i.test(q.sql));
      const plans: string[] = [];
      for (const q of pages) {
        const explain = engine === 'sqlite' ? `explain query plan ${q.sql}` : `explain ${q.sql}`;
        const rows = (await db.executeQuery<Record<string, string>>(CompiledQuery.raw(explain, [...q.parameters]))).rows;
        plans.push(rows.map((r) => r.detail ?? r['QUERY PLAN']).join('\n'));
      }
      return plans;
    };
    const check = async () => {
      const [byName] = await plansOf('name');
      expect(byName).toMatch(/gym_users_door_name_idx/);
      const [byVisit] = await plansOf('-last_visit');
      expect(byVisit).toMatch(/gym_users_door_visit_idx/);
      for (const plan of [byName, byVisit]) expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY|Sort Key: u\.(name|last_visit_at)/);
    };
    if (engine === 'postgres') {
      // A handful of rows: PostgreSQL reads the whole table unless told not to; what matters is that the index can serve the filter and order.
      await db.transaction().execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
        await trx.executeQuery(CompiledQuery.raw('set local enable_sort = off'));
        const planned = membersRepository(trx.withPlugin(capture), ctx.database.containsMatch);
        for (const [sort, index] of [['name', 'gym_users_door_name_idx'], ['-last_visit', 'gym_users_door_visit_idx']] as const) {
          captured.length = 0;
          await planned.list({ page: 0, pageSize: 10, access: 'open', sort });
          const page = captured.map((node) => trx.getExecutor().compileQuery(node, { queryId: 'plan' })).find((q) => /limit/i.test(q.sql))!;
          const rows = (await trx.executeQuery<Record<string, string>>(CompiledQuery.raw(`explain ${page.sql}`, [...page.parameters]))).rows.map((r) => r['QUERY PLAN']).join('\n');
          expect(rows).toMatch(new RegExp(index));
          expect(rows).not.toMatch(/Sort Key/);
        }
      });
      return;
    }
    await check();
    await db.executeQuery(CompiledQuery.raw('analyze'));
    try {
      await check();
    } finally {
      await db.executeQuery(CompiledQuery.raw('delete from sqlite_stat1'));
      await db.executeQuery(CompiledQuery.raw('analyze sqlite_schema'));
    }
  });
});

describe('visits are personal data', () => {
  // Their retention: bff/features/retention/member-visits-retention.test.ts.
  it('go with the member: deleted, or deleted and erased', async () => {
    const kept = await addMember('Kim Kept', 'kim@gone.test');
    const gone = await addMember('Gil Gone', 'gil@gone.test');
    const erased = await addMember('Eli Erased', 'eli@gone.test');
    for (const email of ['kim@gone.test', 'gil@gone.test', 'eli@gone.test']) await unlock(email, '2026-03-02T08:00:00.000Z');
    await staff.delete(`/api/gym/users/${gone.id}`).expect(204);
    await staff.delete(`/api/gym/users/${erased.id}?erase=true`).expect(204);
    expect(await visitRows(gone.id)).toEqual([]);
    expect(await visitRows(erased.id)).toEqual([]);
    expect(await visitRows(kept.id)).toHaveLength(1);
  });
});
