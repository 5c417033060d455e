import request from 'supertest';
import type { AuditEntry } from '../../contracts/audit.contract';
import type { Page } from '../../contracts/common.contract';
import { auditIn } from '../../db/audit-trail';
import { KISI_DEMO_PEOPLE } from '../../kisi/emulator/emulator.seed';
import { createTestContext, type TestContext } from '../../test-support/test-app';

let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let admin: Awaited<ReturnType<TestContext['loginAs']>>;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  staff = await ctx.loginAs('staff', 'desk.audit@frontdesk.test');
  admin = await ctx.loginAs('admin', 'boss.audit@frontdesk.test');
});
afterAll(() => ctx.close());

const trail = async (query: Record<string, string | number> = {}) => (await admin.get('/api/audit').query({ pageSize: 100, ...query }).expect(200)).body as Page<AuditEntry>;
const newest = async (query: Record<string, string | number> = {}) => (await trail(query)).items[0];

let ownerId: number;
beforeAll(async () => {
  ownerId = ((await staff.post('/api/gym/owners').send({ name: 'Trail Owner', email: 'trail.owner@gyms.test', gymName: 'Trail Gym' }).expect(201)).body as { id: number }).id;
});

describe('the audit trail', () => {
  it('shows a membership pause with who did it, its before and after, and the door switched off in Kisi', async () => {
    const person = KISI_DEMO_PEOPLE.at(-1)!;
    const member = (await staff.post('/api/gym/users').send({ name: person.name, email: person.email, ownerId, membership: 'active' }).expect(201)).body as { id: number };
    await staff.patch(`/api/gym/users/${member.id}`).send({ membership: 'paused' }).expect(200);

    const { items } = await trail({ person: 'desk.audit' });
    const pause = items.find((e) => e.kind === 'member' && e.action === 'paused');
    expect(pause).toMatchObject({
      actor: { email: 'desk.audit@frontdesk.test', role: 'staff' },
      subjectId: String(member.id),
      subject: `${person.name} <${person.email}>`,
      changes: [{ field: 'membership', before: 'active', after: 'paused' }],
    });
    expect(items.find((e) => e.kind === 'door_access' && e.subjectId === String(member.id))).toMatchObject({
      action: 'switched off',
      changes: [{ field: 'accessEnabled', before: true, after: false }],
    });
    // Newest first: the door's switch came after the pause that made it due.
    expect(items.indexOf(items.find((e) => e.kind === 'door_access')!)).toBeLessThan(items.indexOf(pause!));
  });

  it('writes nothing for a change that was refused', async () => {
    const before = (await trail()).total;
    await staff.post('/api/gym/owners').send({ name: 'Again', email: 'trail.owner@gyms.test', gymName: 'G' }).expect(409);
    await staff.delete('/api/gym/users/999999').expect(404);
    expect((await trail()).total).toBe(before);
  });

  it('records stalls and menu items, chat channels, sign-ins and remote unlocks as their account did them', async () => {
    const stall = (await staff.post('/api/pt/stalls').send({ name: 'Trail Noodles', cuisine: 'Noodles' }).expect(201)).body as { id: number };
    await staff.patch(`/api/pt/stalls/${stall.id}`).send({ status: 'paused' }).expect(200);
    expect(await newest({ kind: 'stall' })).toMatchObject({ action: 'updated', subject: 'Trail Noodles', changes: [{ field: 'status', before: 'open', after: 'paused' }] });

    const channel = (await admin.post('/api/chat/channels').send({ name: 'trail-talk' }).expect(201)).body as { id: number };
    await admin.patch(`/api/chat/channels/${channel.id}`).send({ archived: true }).expect(200);
    expect(await newest({ kind: 'chat_channel' })).toMatchObject({ action: 'archived', subject: '#trail-talk', actor: { role: 'admin' } });

    expect(await newest({ kind: 'session', person: 'desk.audit' })).toMatchObject({ action: 'signed in', subject: expect.stringContaining('desk.audit@frontdesk.test') });

    const locks = (await admin.get('/api/kisi/locks').expect(200)).body as Array<{ id: number; name: string; locked_down?: boolean; online?: boolean }>;
    const lock = locks.find((l) => !l.locked_down && l.online !== false)!;
    await admin.post(`/api/kisi/locks/${lock.id}/unlock`).expect(200);
    // A Kisi write is audited once Kisi accepted it, and its answer ends once the entry is stored; what
    // it opens or removes is named as Kisi had it just before.
    expect(await newest({ kind: 'unlock' })).toMatchObject({ action: 'unlocked remotely', subjectId: String(lock.id), subject: lock.name, actor: { email: 'boss.audit@frontdesk.test' } });

    const link = (await staff.post('/api/kisi/group_links').send({ group_link: { name: 'Day pass: Trail Guest', email: 'trail.guest@mail.example' } }).expect(200)).body as { id: number };
    await staff.delete(`/api/kisi/group_links/${link.id}`).expect(204);
    expect(await newest({ kind: 'access_link' })).toMatchObject({ action: 'revoked', subjectId: String(link.id), subject: 'Day pass: Trail Guest <trail.guest@mail.example>' });
  });

  it('filters by person, kind and time, and refuses what is not a filter', async () => {
    const all = await trail();
    expect(all.items.every((e, i, list) => i === 0 || list[i - 1]!.id > e.id)).toBe(true);
    const owners = await trail({ kind: 'owner' });
    expect(owners.total).toBeGreaterThan(0);
    expect(owners.items.every((e) => e.kind === 'owner')).toBe(true);
    expect((await trail({ person: 'nobody-has-this-name' })).total).toBe(0);
    expect((await trail({ since: new Date(Date.now() + 60_000).toISOString() })).total).toBe(0);
    expect((await trail({ before: new Date(Date.now() + 60_000).toISOString() })).total).toBe(all.total);
    const bad = await admin.get('/api/audit?kind=coffee&since=yesterday').expect(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['query.kind', 'query.since']);
  });

  it('after years of changes says "1,000+", pages on by Next and back by Previous, and finds a person by any part of their name or email', async () => {
    const write = auditIn(ctx.database.db);
    const busy = { id: 990_001, email: 'night.shift@frontdesk.test', name: 'Noor Nightshift', role: 'staff' as const };
    for (let i = 1; i <= 1_050; i++) await write(busy, { kind: 'kisi', action: 'updated', subjectId: i, subject: `Kisi user ${i}` });
    const first = await trail({ kind: 'kisi', pageSize: 10 });
    expect(first).toMatchObject({ page: 0, total: 1_000, totalIsLowerBound: true, next: expect.any(String) });
    expect(first.previous).toBeUndefined();
    const second = await trail({ kind: 'kisi', pageSize: 10, page: 1, next: first.next! });
    expect(second.items.map((e) => e.subject)).toEqual(Array.from({ length: 10 }, (_, i) => `Kisi user ${1_040 - i}`));
    expect(second).toMatchObject({ page: 1, total: 1_010, totalIsLowerBound: true });
    // The time filter keeps its name `before`; the Previous link's cursor is `previous`.
    const back = await trail({ kind: 'kisi', pageSize: 10, page: 0, previous: second.previous!, before: new Date(Date.now() + 60_000).toISOString() });
    expect(back.items.map((e) => e.id)).toEqual(first.items.map((e) => e.id));
    for (const part of ['nightshift', 'NOOR N', 't.shift@front']) {
      const found = await trail({ person: part, pageSize: 5 });
      expect(found.items).toHaveLength(5);
      expect(found.items.every((e) => e.actor?.email === busy.email)).toBe(true);
    }
    await admin.get(`/api/audit?next=${first.next!}&previous=${first.next!}`).expect(400);
  });

  it('exports exactly the filtered entries as CSV, names with commas, quotes and accents intact', async () => {
    const name = 'Zoë "Zed" O’Brien, Jr.';
    await staff.post('/api/gym/owners').send({ name, email: 'zoe.csv@gyms.test', gymName: 'Ørsted Gym' }).expect(201);
    const filtered = await trail({ kind: 'owner' });
    const res = await admin.get('/api/audit/export.csv?kind=owner').expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('audit-trail.csv');
    const text = res.text.replace(/^\uFEFF/, '');
    // Rows are CRLF-ended; a line break inside a quoted cell is a bare LF.
    const rows = text.split('\r\n').filter(Boolean);
    expect(rows[0]).toBe('When (UTC),Who,Email,Role,Kind,Action,Subject,Subject id,Changes');
    expect(rows).toHaveLength(filtered.total + 1);
    expect(text).toContain(`"Zoë ""Zed"" O’Brien, Jr. <zoe.csv@gyms.test>"`);
  });

  it('is for admins only, and no endpoint edits or deletes it', async () => {
    await request(ctx.app).get('/api/audit').expect(401);
    await staff.get('/api/audit').expect(403);
    await staff.get('/api/audit/export.csv').expect(403);
    const { id } = (await newest())!;
    for (const method of ['put', 'patch', 'delete'] as const) await admin[method](`/api/audit/${id}`).send({}).expect(404);
    await admin.post('/api/audit').send({}).expect(404);
    expect((await newest())!.id).toBe(id);
  });
});
