import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import request from 'supertest';
import { LINK_ENDED } from '../contracts/kisi.contract';
import { createLogger } from '../lib/logger';
import { createTestContext, type TestContext } from '../test-support/test-app';

// The proxy in front of the built-in emulator: every request goes over real HTTP with the real key.
let ctx: TestContext;
let admin: Awaited<ReturnType<TestContext['loginAs']>>;
const logLines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  ctx = await createTestContext({}, { logger: createLogger('debug', sink) }, { emulator: true });
  admin = await ctx.loginAs('admin');
});
afterAll(() => ctx.close());

const key = () => ctx.kisi!.settings.apiKey;

describe('Kisi proxy: who may call what', () => {
  it('answers 401 without a session', async () => {
    const res = await request(ctx.app).get('/api/kisi/users').expect(401);
    expect(res.type).toBe('application/problem+json');
  });

  it('lets admins through and keeps Kisi paging in X-Collection-Range', async () => {
    const res = await admin.get('/api/kisi/users?limit=5&offset=10').expect(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(5);
    expect(res.headers['x-collection-range']).toBe('10-14/40');
  });

  it('refuses staff and runners with 403, except that staff may read, create and delete group links', async () => {
    const staff = await ctx.loginAs('staff');
    await staff.get('/api/kisi/users').expect(403);
    await staff.post('/api/kisi/groups').send({ group: { name: 'Staff group' } }).expect(403);
    const links = await staff.get('/api/kisi/group_links?query=pass').expect(200);
    expect(links.body.map((l: { name: string }) => l.name)).toContain('Day pass: Harriet Cole');
    const runner = await ctx.loginAs('runner');
    await runner.get('/api/kisi/group_links').expect(403);
    await runner.post('/api/kisi/group_links').send({ group_link: { name: 'Runner pass' } }).expect(403);
    await runner.delete(`/api/kisi/group_links/${links.body[0].id}`).expect(403);
  });

  it('lets staff issue a day pass (secret and QR code once, in the configured group) and revoke it', async () => {
    const staff = await ctx.loginAs('staff');
    const validUntil = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const created = await staff
      .post('/api/kisi/group_links')
      .send({ group_link: { name: 'Day pass: Staff Test', email: 'staff.test@mail.example', quick_response_code_type: 'online', valid_until: validUntil } })
      .expect(200);
    expect(created.body).toMatchObject({
      group_id: ctx.kisi!.settings.groupId,
      valid_until: validUntil,
      secret: expect.any(String),
      quick_response_code_token: expect.any(String),
      quick_response_code_image: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
    });
    const [listed] = (await staff.get('/api/kisi/group_links?query=staff.test').expect(200)).body as Array<Record<string, unknown>>;
    expect(listed).toMatchObject({ id: created.body.id });
    for (const once of ['secret', 'quick_response_code_token', 'quick_response_code_image']) expect(listed).not.toHaveProperty(once);
    // Only the gym's own group: another group's doors are an admin's to give.
    const other = await staff.post('/api/kisi/group_links').send({ group_link: { name: 'Elsewhere', group_id: ctx.kisi!.settings.groupId + 1 } }).expect(403);
    expect(other.type).toBe('application/problem+json');
    const runner = await ctx.loginAs('runner');
    await runner.delete(`/api/kisi/group_links/${created.body.id}`).expect(403);
    await staff.delete(`/api/kisi/group_links/${created.body.id}`).expect(204);
    expect((await staff.get('/api/kisi/group_links?query=staff.test')).body).toEqual([]);
  });

  it('refuses a day pass that has already ended with a 400 in the form’s words; Kisi never sees it, nothing is audited (issue 52)', async () => {
    const staff = await ctx.loginAs('staff');
    const ended = new Date(Date.now() - 60_000).toISOString();
    const res = await staff
      .post('/api/kisi/group_links')
      .send({ group_link: { name: 'Day pass: yesterday', email: 'late.pass@staff.test', quick_response_code_type: 'online', valid_until: ended } })
      .expect(400);
    expect(res.type).toBe('application/problem+json');
    expect(res.body.errors).toEqual([{ path: 'body.group_link.valid_until', message: LINK_ENDED }]);
    expect((await staff.get('/api/kisi/group_links?query=late.pass').expect(200)).body).toEqual([]);
    const trail = await ctx.database.db.selectFrom('audit_entries').select('subject').where('subject', 'like', '%late.pass%').execute();
    expect(trail).toEqual([]);
    // An end still to come goes through as before.
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const made = await staff.post('/api/kisi/group_links').send({ group_link: { name: 'Day pass: tonight', email: 'late.pass@staff.test', valid_until: later } }).expect(200);
    await staff.delete(`/api/kisi/group_links/${made.body.id}`).expect(204);
  });

  it('answers 404 for anything outside the allowlist and 400 for a malformed id', async () => {
    for (const [method, path] of [
      ['get', '/api/kisi/places'],
      ['delete', '/api/kisi/users/2'],
      ['get', '/api/kisi/users/2/logins'],
      ['patch', '/api/kisi/groups/1'],
      ['post', '/api/kisi/locks/1/lock_down'],
      ['get', '/api/kisi/../users'],
      ['get', '/api/kisi'],
    ] as const) {
      const res = await admin[method](path).expect(404);
      expect(res.type).toBe('application/problem+json');
    }
    const bad = await admin.get('/api/kisi/users/abc').expect(400);
    expect(bad.body.errors).toEqual([{ path: 'params.id', message: 'Expected a positive integer id' }]);
    await admin.delete('/api/kisi/groups/0').expect(400);
  });

  it('answers an id that is not valid percent-encoding with a 400 problem, not a 500, as every endpoint does', async () => {
    for (const path of ['/api/kisi/groups/%', '/api/kisi/users/%ZZ', '/api/kisi/locks/1%/unlock']) {
      const method = path.startsWith('/api/kisi/groups') ? 'delete' : path.endsWith('/unlock') ? 'post' : 'get';
      const res = await admin[method](path);
      expect({ path, status: res.status, type: res.type, errors: res.body.errors }).toEqual({
        path,
        status: 400,
        type: 'application/problem+json',
        errors: [{ path: 'params', message: 'Not valid percent-encoding' }],
      });
    }
  });

  it('refuses text holding a NUL character in the query or body with a 400 naming it, before Kisi sees it', async () => {
    const query = await admin.get('/api/kisi/groups?query=%00').expect(400);
    expect(query.body.errors).toEqual([{ path: 'query.query', message: 'Text may not contain a NUL character' }]);
    const body = await admin.post('/api/kisi/groups').send({ group: { name: 'Night\u0000shift' } }).expect(400);
    expect(body.body.errors).toEqual([{ path: 'body.group.name', message: 'Text may not contain a NUL character' }]);
    expect((await admin.get('/api/kisi/groups?query=night').expect(200)).body).toEqual([]);
  });
});

describe('Kisi proxy: the key stays on the server', () => {
  it('the emulator itself refuses requests without the right key', async () => {
    const none = await fetch(`${ctx.kisi!.settings.baseUrl}/users`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: expect.any(String), code: expect.stringMatching(/^[0-9a-f]{6}$/) });
    const wrong = await fetch(`${ctx.kisi!.settings.baseUrl}/users`, { headers: { Authorization: 'KISI-LOGIN not-the-key' } });
    expect(wrong.status).toBe(401);
  });

  it('never shows the key in a response or a log line, even when the browser sends its own Authorization', async () => {
    const responses = await Promise.all([
      admin.get('/api/kisi/users').set('Authorization', 'KISI-LOGIN browser-guess'),
      admin.get('/api/kisi/users/999999'),
      admin.post('/api/kisi/groups').send({ group: { name: '' } }),
      admin.get('/api/kisi/places'),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 404, 422, 404]);
    for (const res of responses) {
      expect(JSON.stringify(res.headers)).not.toContain(key());
      expect(res.text).not.toContain(key());
    }
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('')).not.toContain(key());
  });
});

describe('Kisi proxy: Kisi semantics pass through', () => {
  it('passes Kisi errors through: 404 {error, code} and 422 {errors: {field: [...]}}', async () => {
    const missing = await admin.get('/api/kisi/users/999999').expect(404);
    expect(missing.body).toEqual({ error: expect.any(String), code: '000404' });
    const invalid = await admin.post('/api/kisi/groups').send({ group: { name: '   ' } }).expect(422);
    expect(invalid.body).toEqual({ errors: { name: ["can't be blank"] } });
  });

  it('switches a user off and on with PATCH (204), scim_access_enabled staying read-only', async () => {
    const [user] = (await admin.get('/api/kisi/users?query=alice').expect(200)).body as Array<{ id: number; access_enabled: boolean }>;
    expect(user?.access_enabled).toBe(true);
    const off = await admin.patch(`/api/kisi/users/${user!.id}`).send({ user: { access_enabled: false, scim_access_enabled: false } }).expect(204);
    expect(off.text).toBe('');
    const after = await admin.get(`/api/kisi/users/${user!.id}`).expect(200);
    expect(after.body).toMatchObject({ access_enabled: false, scim_access_enabled: true });
    await admin.patch(`/api/kisi/users/${user!.id}`).send({ user: { access_enabled: true } }).expect(204);
    expect((await admin.get(`/api/kisi/users/${user!.id}`)).body.access_enabled).toBe(true);
  });

  it('forwards a compressed JSON body as the plain JSON it was inflated to (not labelled gzip any more)', async () => {
    const [user] = (await admin.get('/api/kisi/users?query=alice').expect(200)).body as Array<{ id: number }>;
    const gzipped = (encoding: 'gzip' | 'deflate', access: boolean) => {
      const json = JSON.stringify({ user: { access_enabled: access } });
      return admin
        .patch(`/api/kisi/users/${user!.id}`)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        // The compressed bytes as they are (superagent would write a Buffer under a JSON type as JSON).
        .serialize((bytes: Buffer) => bytes as unknown as string)
        .send(encoding === 'gzip' ? zlib.gzipSync(json) : zlib.deflateSync(json));
    };
    await gzipped('gzip', false).expect(204);
    expect((await admin.get(`/api/kisi/users/${user!.id}`)).body.access_enabled).toBe(false);
    await gzipped('deflate', true).expect(204);
    expect((await admin.get(`/api/kisi/users/${user!.id}`)).body.access_enabled).toBe(true);
  });

  it('creates and deletes a group (200 then 204), and a second delete is Kisi 404', async () => {
    const created = await admin.post('/api/kisi/groups').send({ group: { name: 'Spin Class', description: 'Tuesdays' } }).expect(200);
    expect(created.body).toMatchObject({ resource_type: 'Group', name: 'Spin Class', users_count: 0 });
    const found = await admin.get('/api/kisi/groups?query=spin').expect(200);
    expect(found.body.map((g: { id: number }) => g.id)).toEqual([created.body.id]);
    await admin.delete(`/api/kisi/groups/${created.body.id}`).expect(204);
    await admin.delete(`/api/kisi/groups/${created.body.id}`).expect(404);
  });

  it('creates an access link in the configured group when the body names none, and finds it by search', async () => {
    const created = await admin
      .post('/api/kisi/group_links')
      .send({ group_link: { name: 'Guest: Robin Lake', email: 'robin.lake@mail.example', quick_response_code_type: 'online' } })
      .expect(200);
    expect(created.body).toMatchObject({ group_id: ctx.kisi!.settings.groupId, group: { name: 'Gym Members' }, secret: expect.any(String) });
    const found = await admin.get('/api/kisi/group_links?query=robin.lake').expect(200);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).not.toHaveProperty('secret');
    await admin.delete(`/api/kisi/group_links/${created.body.id}`).expect(204);
    expect((await admin.get('/api/kisi/group_links?query=robin.lake')).body).toEqual([]);
  });

  it('role assignments of one user, by the deprecated user_id filter the app uses', async () => {
    const [user] = (await admin.get('/api/kisi/users?query=nadia').expect(200)).body as Array<{ id: number }>;
    const res = await admin.get(`/api/kisi/role_assignments?user_id=${user!.id}`).expect(200);
    expect(res.body.map((r: { applies_to_type: string }) => r.applies_to_type).sort()).toEqual(['Group', 'Place']);
  });
});
