import request from 'supertest';
import { openDatabase } from '../../db/database';
import { createTestContext, type TestContext } from '../../test-support/test-app';

let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
beforeAll(async () => {
  ctx = await createTestContext();
  staff = await ctx.loginAs('staff');
});
afterAll(() => ctx.close());

let ownerSeq = 0;
async function createOwner(overrides: Record<string, unknown> = {}) {
  ownerSeq++;
  const res = await staff
    .post('/api/gym/owners')
    .send({ name: `Owner ${ownerSeq}`, email: `owner${ownerSeq}@gyms.test`, gymName: `Gym ${ownerSeq}`, ...overrides })
    .expect(201);
  return res.body as { id: number; name: string };
}

describe('gym access rules', () => {
  it('answers 401 without a session and 403 for a runner', async () => {
    await request(ctx.app).get('/api/gym/owners').expect(401);
    const runner = await ctx.loginAs('runner');
    await runner.get('/api/gym/users').expect(403);
    const admin = await ctx.loginAs('admin');
    await admin.get('/api/gym/users').expect(200);
  });
});

describe('gym owners', () => {
  it('creates an owner with a normalised email and shows its member count', async () => {
    const res = await staff.post('/api/gym/owners').send({ name: '  Dana Pike ', email: 'Dana@Harbour.Gym', phone: '+44 20 7946 0000', gymName: 'Harbour Gym' }).expect(201);
    expect(res.body).toMatchObject({ name: 'Dana Pike', email: 'dana@harbour.gym', phone: '+44 20 7946 0000', gymName: 'Harbour Gym', memberCount: 0 });
    const one = await staff.get(`/api/gym/owners/${res.body.id}`).expect(200);
    expect(one.body.name).toBe('Dana Pike');
  });

  it('rejects missing fields, wrong types and a bad phone with a 400 listing each', async () => {
    const res = await staff.post('/api/gym/owners').send({ name: '', email: 'nope', phone: 'call me', gymName: 5 }).expect(400);
    expect(res.body.errors).toEqual([
      { path: 'body.name', message: 'Enter the owner’s name' },
      { path: 'body.email', message: 'Enter an email address such as name@example.com' },
      { path: 'body.phone', message: 'Enter a phone number such as +1 555 123 4567' },
      { path: 'body.gymName', message: 'Enter the gym’s name' },
    ]);
  });

  it('answers 409 for a duplicate owner email', async () => {
    await createOwner({ email: 'twice@gyms.test' });
    const res = await staff.post('/api/gym/owners').send({ name: 'Again', email: 'TWICE@gyms.test', gymName: 'G' }).expect(409);
    expect(res.body.detail).toMatch(/already exists/);
  });

  it('pages and searches owners', async () => {
    for (let i = 0; i < 3; i++) await createOwner({ name: `Zed Search ${i}`, email: `zed${i}@search.test` });
    const first = await staff.get('/api/gym/owners?page=0&pageSize=2&query=zed search').expect(200);
    expect(first.body).toMatchObject({ page: 0, pageSize: 2, total: 3 });
    expect(first.body.items.map((o: { name: string }) => o.name)).toEqual(['Zed Search 0', 'Zed Search 1']);
    const second = await staff.get('/api/gym/owners?page=1&pageSize=2&query=zed search').expect(200);
    expect(second.body.items).toHaveLength(1);
    const past = await staff.get('/api/gym/owners?page=50&pageSize=2&query=zed').expect(200);
    expect(past.body.items).toEqual([]);
  });

  it('treats % and _ in a search as plain characters', async () => {
    const res = await staff.get('/api/gym/owners?query=%25').expect(200);
    expect(res.body.total).toBe(0);
  });

  it('rejects a malformed id, a bad page and an oversize page size', async () => {
    await staff.get('/api/gym/owners/abc').expect(400);
    await staff.get('/api/gym/owners/0').expect(400);
    await staff.get('/api/gym/owners/-3').expect(400);
    const res = await staff.get('/api/gym/owners?page=-1&pageSize=1000').expect(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['query.page', 'query.pageSize']);
    await staff.get('/api/gym/owners?page=1.5').expect(400);
  });

  it('answers 404 for an owner that does not exist', async () => {
    await staff.get('/api/gym/owners/999999').expect(404);
    await staff.delete('/api/gym/owners/999999').expect(404);
  });

  it('refuses to delete an owner with members, saying how many, and deletes an empty one', async () => {
    const owner = await createOwner({ name: 'Busy Owner' });
    for (const n of [1, 2]) await staff.post('/api/gym/users').send({ email: `busy${n}@members.test`, name: `Busy ${n}`, ownerId: owner.id }).expect(201);
    const res = await staff.delete(`/api/gym/owners/${owner.id}`).expect(409);
    expect(res.body.detail).toBe('Busy Owner still has 2 members. Move or delete them first.');
    const empty = await createOwner();
    await staff.delete(`/api/gym/owners/${empty.id}`).expect(204);
    await staff.get(`/api/gym/owners/${empty.id}`).expect(404);
  });
});

describe('gym members', () => {
  let ownerId: number;
  beforeAll(async () => {
    ownerId = (await createOwner({ name: 'Member Owner' })).id;
  });

  it('creates, reads, updates and deletes a member', async () => {
    const created = await staff.post('/api/gym/users').send({ email: ' Alex.Moss@Example.com ', name: 'Alex Moss', ownerId }).expect(201);
    expect(created.body).toMatchObject({ email: 'alex.moss@example.com', name: 'Alex Moss', ownerId, ownerName: 'Member Owner', membership: 'active' });
    const id = created.body.id;
    const patched = await staff.patch(`/api/gym/users/${id}`).send({ name: 'Alex J. Moss', membership: 'paused' }).expect(200);
    expect(patched.body).toMatchObject({ name: 'Alex J. Moss', membership: 'paused' });
    expect((await staff.get(`/api/gym/users/${id}`).expect(200)).body.name).toBe('Alex J. Moss');
    await staff.delete(`/api/gym/users/${id}`).expect(204);
    await staff.get(`/api/gym/users/${id}`).expect(404);
    await staff.delete(`/api/gym/users/${id}`).expect(404);
  });

  it('answers 409 for a duplicate email, whatever its case', async () => {
    await staff.post('/api/gym/users').send({ email: 'dup@members.test', name: 'Dup', ownerId }).expect(201);
    const res = await staff.post('/api/gym/users').send({ email: 'DUP@members.test', name: 'Dup 2', ownerId }).expect(409);
    expect(res.body.detail).toBe('A gym member with email dup@members.test already exists.');
  });

  it('answers 400 for an unknown owner, on create and on update, writing nothing', async () => {
    const res = await staff.post('/api/gym/users').send({ email: 'orphan@members.test', name: 'Orphan', ownerId: 987654 }).expect(400);
    expect(res.body.errors).toEqual([{ path: 'body.ownerId', message: 'No gym owner with id 987654' }]);
    expect((await staff.get('/api/gym/users?query=orphan@').expect(200)).body.total).toBe(0);
    const member = await staff.post('/api/gym/users').send({ email: 'stay@members.test', name: 'Stay', ownerId }).expect(201);
    await staff.patch(`/api/gym/users/${member.body.id}`).send({ ownerId: 987654, name: 'Changed' }).expect(400);
    expect((await staff.get(`/api/gym/users/${member.body.id}`).expect(200)).body.name).toBe('Stay');
  });

  it('rejects wrong types, an unknown membership and an empty patch', async () => {
    const res = await staff.post('/api/gym/users').send({ email: 'x@members.test', name: 'X', ownerId: '12', membership: 'frozen' }).expect(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.ownerId', 'body.membership']);
    const member = await staff.post('/api/gym/users').send({ email: 'patchy@members.test', name: 'Patchy', ownerId }).expect(201);
    const empty = await staff.patch(`/api/gym/users/${member.body.id}`).send({}).expect(400);
    expect(empty.body.errors[0].message).toBe('Send at least one of name, ownerId, membership, pausedUntil');
    await staff.patch('/api/gym/users/nope').send({ name: 'A' }).expect(400);
    await staff.patch('/api/gym/users/999999').send({ name: 'A' }).expect(404);
  });

  it('searches by name or email and filters by owner and membership', async () => {
    const other = await createOwner({ name: 'Filter Owner' });
    await staff.post('/api/gym/users').send({ email: 'f1@filter.test', name: 'Filter One', ownerId: other.id, membership: 'active' }).expect(201);
    await staff.post('/api/gym/users').send({ email: 'f2@filter.test', name: 'Filter Two', ownerId: other.id, membership: 'cancelled' }).expect(201);
    const byOwner = await staff.get(`/api/gym/users?ownerId=${other.id}`).expect(200);
    expect(byOwner.body.total).toBe(2);
    const cancelled = await staff.get(`/api/gym/users?ownerId=${other.id}&membership=cancelled`).expect(200);
    expect(cancelled.body.items.map((m: { name: string }) => m.name)).toEqual(['Filter Two']);
    const byEmail = await staff.get('/api/gym/users?query=f1@filter').expect(200);
    expect(byEmail.body.items.map((m: { name: string }) => m.name)).toEqual(['Filter One']);
    await staff.get('/api/gym/users?membership=frozen').expect(400);
    await staff.get('/api/gym/users?ownerId=abc').expect(400);
  });

  it('lists every change at once, whoever wrote it: this app, or another connection to the same database', async () => {
    const list = async (url: string) => ((await staff.get(url).expect(200)).body as { items: { name: string; ownerName: string }[] }).items.map((m) => `${m.name} (${m.ownerName})`);
    const owner = await createOwner({ name: 'Listed Owner' });
    const url = `/api/gym/users?ownerId=${owner.id}`;
    expect(await list(url)).toEqual([]);
    const member = (await staff.post('/api/gym/users').send({ email: 'listed@members.test', name: 'Listed', ownerId: owner.id }).expect(201)).body as { id: number };
    expect(await list(url)).toEqual(['Listed (Listed Owner)']);
    expect(await list(url)).toEqual(['Listed (Listed Owner)']);
    await staff.patch(`/api/gym/users/${member.id}`).send({ name: 'Listed Again' }).expect(200);
    expect(await list(url)).toEqual(['Listed Again (Listed Owner)']);

    // Another process on the same database (the account CLI, a second instance) tells this one nothing.
    const elsewhere = await openDatabase(ctx.config.DATABASE_URL);
    try {
      await elsewhere.db.updateTable('gym_owners').set({ name: 'Renamed Elsewhere' }).where('id', '=', owner.id).execute();
      expect(await list(url)).toEqual(['Listed Again (Renamed Elsewhere)']);
      await elsewhere.db.deleteFrom('gym_users').where('id', '=', member.id).execute();
      expect(await list(url)).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});
