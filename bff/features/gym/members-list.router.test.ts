import { CompiledQuery } from 'kysely';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import type { AppDeps } from '../../app';
import { recordVisitIn } from '../../db/member-visits';
import { newestVisitOf } from './visits.repository';

/**
 * The desk's member list: last visit (newest successful unlock by the member's email), sorting by
 * it with never-visited members last, today's visit count, and a list that still answers when Kisi
 * does not.
 */
let kisiDown = false;
const kisiUsers = new Map<string, { id: number; name: string | null; email: string; accessEnabled: boolean }>();
/** A Kisi stand-in that can be taken down. */
const door: AppDeps['door'] = {
  findUser: async (email) => {
    if (kisiDown) throw new Error('Kisi is unreachable');
    return kisiUsers.get(email) ?? null;
  },
  findUsers: async (emails) => {
    if (kisiDown) throw new Error('Kisi is unreachable');
    return new Map(emails.map((e) => [e, kisiUsers.get(e) ?? null]));
  },
  setAccess: async () => {},
  probe: async () => {
    if (kisiDown) throw new Error('Kisi is unreachable');
  },
};

let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let ownerId: number;
beforeAll(async () => {
  ctx = await createTestContext({}, { door });
  staff = await ctx.loginAs('staff');
  ownerId = (await staff.post('/api/gym/owners').send({ name: 'Desk Owner', email: 'desk-owner@gyms.test', gymName: 'Desk Gym' }).expect(201)).body.id;
});
afterAll(() => ctx.close());

let seq = 0;
/** A door event as the webhook receiver stores it (lower-cased email, success 0/1), with the member's last visit it moves. */
async function doorEvent(email: string, at: string, { type = 'lock.unlock', success = true } = {}) {
  seq++;
  await recordVisitIn(ctx.database.db)({ type, success, actorEmail: email, createdAt: at });
  await ctx.database.db
    .insertInto('kisi_events')
    .values({
      uuid: `desk-${seq}`,
      type,
      actor_type: 'User',
      actor_id: seq,
      actor_name: email,
      actor_email: email,
      object_type: 'Lock',
      object_id: 1,
      object_name: 'Main Entrance',
      place_id: 1,
      success: success ? 1 : 0,
      error_code: success ? null : 'afc496',
      error_message: null,
      created_at: at,
      received_at: at,
      payload: '{}',
    })
    .execute();
}

const addMember = async (name: string, email: string) => (await staff.post('/api/gym/users').send({ name, email, ownerId }).expect(201)).body as { id: number };
type Row = { name: string; lastVisitAt: string | null; door: { doors: string; label: string } };
const list = async (query: string) => (await staff.get(`/api/gym/users?ownerId=${ownerId}&${query}`).expect(200)).body as { items: Row[]; total: number };

describe('the members list', () => {
  beforeAll(async () => {
    await addMember('Ada Early', 'ada@desk.test');
    await addMember('Ben Never', 'ben@desk.test');
    await addMember('Cy Recent', 'cy@desk.test');
    await addMember('Dee Refused', 'dee@desk.test');
    await doorEvent('ada@desk.test', '2026-01-02T08:00:00.000Z');
    await doorEvent('ada@desk.test', '2026-01-05T07:30:00.000Z');
    // A later refusal and a later event of another kind are not visits.
    await doorEvent('ada@desk.test', '2026-01-09T07:30:00.000Z', { success: false });
    await doorEvent('ada@desk.test', '2026-01-10T07:30:00.000Z', { type: 'lock.lock' });
    await doorEvent('cy@desk.test', '2026-01-08T18:00:00.000Z');
    await doorEvent('dee@desk.test', '2026-01-09T09:00:00.000Z', { success: false });
  });

  it('shows each member’s newest successful unlock as their last visit, null for never', async () => {
    const { items } = await list('');
    expect(items.map((m) => [m.name, m.lastVisitAt])).toEqual([
      ['Ada Early', '2026-01-05T07:30:00.000Z'],
      ['Ben Never', null],
      ['Cy Recent', '2026-01-08T18:00:00.000Z'],
      ['Dee Refused', null],
    ]);
  });

  it('sorts by last visit newest or oldest first, members who never came last either way (by name)', async () => {
    expect((await list('sort=-last_visit')).items.map((m) => m.name)).toEqual(['Cy Recent', 'Ada Early', 'Ben Never', 'Dee Refused']);
    expect((await list('sort=last_visit')).items.map((m) => m.name)).toEqual(['Ada Early', 'Cy Recent', 'Ben Never', 'Dee Refused']);
    expect((await list('sort=name')).items.map((m) => m.name)).toEqual(['Ada Early', 'Ben Never', 'Cy Recent', 'Dee Refused']);
  });

  it('pages in the sorted order', async () => {
    const second = await list('sort=-last_visit&page=1&pageSize=2');
    expect(second.total).toBe(4);
    expect(second.items.map((m) => m.name)).toEqual(['Ben Never', 'Dee Refused']);
  });

  it('gives a member added after their unlocks were stored (a returning member) that last visit at once', async () => {
    await ctx.database.db
      .insertInto('kisi_events')
      .values({ uuid: 'returning-1', type: 'lock.unlock', actor_type: 'User', actor_id: 77, actor_name: 'Eve', actor_email: 'eve@desk.test', object_type: 'Lock', object_id: 1, object_name: 'Main Entrance', place_id: 1, success: 1, error_code: null, error_message: null, created_at: '2025-11-30T08:00:00.000Z', received_at: '2025-11-30T08:00:00.000Z', payload: '{}' })
      .execute();
    const { id } = await addMember('Eve Returning', 'eve@desk.test');
    expect((await list('query=eve%20returning')).items).toMatchObject([{ name: 'Eve Returning', lastVisitAt: '2025-11-30T08:00:00.000Z' }]);
    await staff.delete(`/api/gym/users/${id}`).expect(204);
  });

  it('refuses an unknown sort with a 400 naming the field', async () => {
    const res = await staff.get('/api/gym/users?sort=visits').expect(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['query.sort']);
  });

  it('says whether the doors open from Kisi’s user, and still answers when Kisi is unreachable', async () => {
    kisiUsers.set('ada@desk.test', { id: 1, name: 'Ada', email: 'ada@desk.test', accessEnabled: true });
    kisiUsers.set('cy@desk.test', { id: 2, name: 'Cy', email: 'cy@desk.test', accessEnabled: false });
    const doors = (await list('')).items.map((m) => [m.name, m.door.label]);
    expect(doors).toEqual([
      ['Ada Early', 'Doors open for them'],
      ['Ben Never', 'No door account'],
      ['Cy Recent', 'Doors closed: switched off in Kisi'],
      ['Dee Refused', 'No door account'],
    ]);

    kisiDown = true;
    try {
      const { items } = await list('sort=-last_visit');
      expect(items.map((m) => m.door)).toEqual(Array(4).fill({ doors: 'unknown', label: 'Unknown — Kisi unreachable' }));
      expect(items[0]!.lastVisitAt).toBe('2026-01-08T18:00:00.000Z');
    } finally {
      kisiDown = false;
    }
  });
});

describe('the last visit read', () => {
  it('walks one member’s unlocks off the email-and-type index, not every unlock of the log, with or without statistics', async () => {
    if (ctx.database.engine !== 'sqlite') return;
    const { db } = ctx.database;
    const compiled = newestVisitOf(db, 'regular1@desk.test').compile();
    const plan = async () =>
      (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]))).rows.map((row) => row.detail);
    for (let i = 0; i < 30; i++) await doorEvent(`regular${i % 3}@desk.test`, `2025-12-0${1 + (i % 9)}T08:00:00.000Z`);
    expect(await plan()).toContainEqual(expect.stringMatching(/^SEARCH visit USING INDEX kisi_events_actor_idx \(actor_email=\? AND type=\?\)$/));
    await db.executeQuery(CompiledQuery.raw('analyze'));
    try {
      expect(await plan()).toContainEqual(expect.stringMatching(/^SEARCH visit USING INDEX kisi_events_actor_idx \(actor_email=\? AND type=\?\)$/));
    } finally {
      await db.executeQuery(CompiledQuery.raw('delete from sqlite_stat1'));
      await db.executeQuery(CompiledQuery.raw('analyze sqlite_schema'));
    }
  });
});

describe('today’s visits', () => {
  it('counts the people let in at or after `since` (the desk’s local midnight, any offset), each once however many doors they opened', async () => {
    const since = '2026-02-01T00:00:00+01:00'; // 2026-01-31T23:00Z
    await doorEvent('ada@desk.test', '2026-01-31T22:59:59.999Z');
    await doorEvent('ada@desk.test', '2026-01-31T23:00:00.000Z');
    await doorEvent('ada@desk.test', '2026-02-01T09:00:00.000Z'); // the locker room after the entrance: still one visit
    await doorEvent('ben@desk.test', '2026-02-01T10:00:00.000Z');
    await doorEvent('someone@else.test', '2026-02-01T11:00:00.000Z');
    await doorEvent('ben@desk.test', '2026-02-01T12:00:00.000Z', { success: false });
    await doorEvent('ben@desk.test', '2026-02-01T12:00:00.000Z', { type: 'lock.lock' });
    const res = await staff.get(`/api/gym/visits/count?since=${encodeURIComponent(since)}`).expect(200);
    expect(res.body).toEqual({ since: '2026-01-31T23:00:00.000Z', count: 3 });
  });

  it('needs a valid `since` and a staff session', async () => {
    await staff.get('/api/gym/visits/count').expect(400);
    await staff.get('/api/gym/visits/count?since=yesterday').expect(400);
    const runner = await ctx.loginAs('runner');
    await runner.get('/api/gym/visits/count?since=2026-02-01T00:00:00Z').expect(403);
  });
});

describe('the members list after years', () => {
  type Listed = { items: Array<{ id: number; name: string; email: string }>; page: number; total: number; totalIsLowerBound?: boolean; next?: string; previous?: string };
  let yearsOwner: number;
  const MEMBERS = 1_150;
  const years = async (query: string) => (await staff.get(`/api/gym/users?ownerId=${yearsOwner}&pageSize=100&${query}`).expect(200)).body as Listed;

  beforeAll(async () => {
    yearsOwner = (await staff.post('/api/gym/owners').send({ name: 'Years Owner', email: 'years-owner@gyms.test', gymName: 'Years Gym' }).expect(201)).body.id;
    const now = new Date().toISOString();
    const rows = Array.from({ length: MEMBERS }, (_, i) => ({
      email: `y${String(i).padStart(4, '0')}@years.test`,
      name: `Years ${String(i).padStart(4, '0')}`,
      owner_id: yearsOwner,
      membership: 'active' as const,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 250) await ctx.database.db.insertInto('gym_users').values(rows.slice(i, i + 250)).execute();
  });

  it('says "1,000+" rather than counting them all, and its Next links walk every member once, by name', async () => {
    let page = await years('');
    expect(page).toMatchObject({ total: 1_000, totalIsLowerBound: true });
    const names: string[] = [];
    for (;;) {
      names.push(...page.items.map((m) => m.name));
      if (!page.next) break;
      page = await years(`page=${page.page + 1}&next=${page.next}`);
    }
    expect(names).toEqual(Array.from({ length: MEMBERS }, (_, i) => `Years ${String(i).padStart(4, '0')}`));
    expect(page).toMatchObject({ page: 11, total: MEMBERS });
    expect(page.totalIsLowerBound).toBeUndefined();
    // Its Previous link comes back to page 11 of 12 (the 0-based 10).
    const back = await years(`page=10&previous=${page.previous}`);
    expect(back.items.map((m) => m.name)[0]).toBe('Years 1000');
  });

  it('finds a text in the middle of a name or an email, any case, through the index', async () => {
    expect((await years('query=ARS 011')).items.map((m) => m.name)).toEqual(['Years 0110', 'Years 0111', 'Years 0112', 'Years 0113', 'Years 0114', 'Years 0115', 'Years 0116', 'Years 0117', 'Years 0118', 'Years 0119']);
    expect((await years('query=0999@YEA')).items.map((m) => m.email)).toEqual(['y0999@years.test']);
    // A renamed member is found by the new name and no longer by the old one.
    const { id } = (await years('query=y0500@')).items[0]!;
    await staff.patch(`/api/gym/users/${id}`).send({ name: 'Quentin Renamed' }).expect(200);
    expect((await years('query=quentin')).items.map((m) => m.id)).toEqual([id]);
    expect((await years('query=Years 0500')).items).toEqual([]);
  });

  it('answers a cursor it did not make with a 400 in words', async () => {
    const res = await staff.get(`/api/gym/users?ownerId=${yearsOwner}&page=2&next=${Buffer.from('["x"]').toString('base64url')}`).expect(400);
    expect(res.body.detail).toMatch(/Next or Previous links/);
  });
});
