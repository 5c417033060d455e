import request from 'supertest';
import type { LiveEvent } from '../../contracts/events.contract';
import type { KisiEvent } from '../../contracts/webhook.contract';
import { signBody } from '../../kisi/signature';
import { createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';

let ctx: TestContext;
let secret: string;
const published: LiveEvent[] = [];

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  secret = ctx.kisi!.settings.webhookSecret!;
  ctx.bus.subscribe((event) => published.push(event));
});
afterAll(() => ctx.close());
beforeEach(() => {
  published.length = 0;
});

const stored = () => ctx.database.db.selectFrom('kisi_events').selectAll().orderBy('id').execute();
let seq = 0;
const unlockEvent = (overrides: Record<string, unknown> = {}) => ({
  uuid: `6f1c2a90-0000-4000-8000-${String(++seq).padStart(12, '0')}`,
  actor_type: 'User',
  actor_id: 2,
  actor_name: 'Nadia Okoye',
  object_type: 'Lock',
  object_id: 1,
  object_name: 'Main Entrance',
  organization_id: 1,
  place_id: 1,
  success: true,
  type: 'lock.unlock',
  error_code: null,
  error_message: null,
  created_at: '2026-03-02T08:15:00Z',
  ...overrides,
});

const post = (body: string, signature?: string) => {
  const req = request(ctx.app).post('/api/webhooks/kisi').set('Content-Type', 'application/json');
  if (signature !== undefined) req.set('X-Signature', signature);
  return req.send(body);
};

describe('POST /api/webhooks/kisi signatures', () => {
  it('stores a correctly signed event (plain hex), resolves the actor email from Kisi, and publishes it', async () => {
    const event = unlockEvent();
    const body = JSON.stringify(event);
    const res = await post(body, signBody(body, secret)).expect(200);
    expect(res.body).toEqual({ status: 'stored', uuid: event.uuid, id: expect.any(Number) });
    const rows = await stored();
    expect(rows.at(-1)).toMatchObject({ uuid: event.uuid, type: 'lock.unlock', actor_email: 'nadia.okoye@harbourside.example', object_name: 'Main Entrance', success: 1 });
    // The announcement goes out after the commit, not before the answer: wait for the bus to deliver it.
    await ctx.bus.idle();
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ type: 'webhook', data: { uuid: event.uuid, actorEmail: 'nadia.okoye@harbourside.example', objectId: 1, success: true } });
    expect((published[0]!.data as KisiEvent).createdAt).toBe('2026-03-02T08:15:00.000Z');
  });

  it('accepts the sha256= prefixed form, in any case', async () => {
    const body = JSON.stringify(unlockEvent());
    await post(body, `sha256=${signBody(body, secret)}`).expect(200);
    const other = JSON.stringify(unlockEvent());
    await post(other, `SHA256=${signBody(other, secret).toUpperCase()}`).expect(200);
  });

  it('refuses a missing, malformed, wrong-key or other-body signature with 401 and stores nothing', async () => {
    const before = (await stored()).length;
    const body = JSON.stringify(unlockEvent());
    for (const signature of [undefined, '', 'abc', `sha256=${signBody(body, 'some-other-secret-value')}`, signBody(`${body} `, secret), `${signBody(body, secret)}00`]) {
      const res = await post(body, signature).expect(401);
      expect(res.type).toBe('application/problem+json');
    }
    expect((await stored()).length).toBe(before);
    await ctx.bus.idle();
    expect(published).toHaveLength(0);
  });
});

describe('POST /api/webhooks/kisi bodies', () => {
  it('answers 200 to a repeat delivery and stores the event once', async () => {
    const body = JSON.stringify(unlockEvent());
    const first = await post(body, signBody(body, secret)).expect(200);
    const again = await post(body, signBody(body, secret)).expect(200);
    expect(again.body).toEqual({ status: 'duplicate', uuid: first.body.uuid });
    const rows = (await stored()).filter((r) => r.uuid === first.body.uuid);
    expect(rows).toHaveLength(1);
    await ctx.bus.idle();
    expect(published).toHaveLength(1);
  });

  it('moves the member’s last visit with their successful unlock, never back, and not for a refused one', async () => {
    const now = new Date().toISOString();
    const { db } = ctx.database;
    const owner = await db.insertInto('gym_owners').values({ name: 'Visit Owner', email: 'visit.owner@gyms.test', gym_name: 'Visit Gym', created_at: now }).returning('id').executeTakeFirstOrThrow();
    const { id } = await db
      .insertInto('gym_users')
      .values({ email: 'visit.member@harbourside.example', name: 'Visit Member', owner_id: owner.id, membership: 'active', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const lastVisit = async () => (await ctx.database.db.selectFrom('gym_users').select('last_visit_at').where('id', '=', id).executeTakeFirstOrThrow()).last_visit_at;
    const deliver = async (overrides: Record<string, unknown>) => {
      const body = JSON.stringify(unlockEvent({ actor_email: 'Visit.Member@harbourside.example', ...overrides }));
      await post(body, signBody(body, secret)).expect(200);
    };
    await deliver({ created_at: '2026-04-02T08:00:00Z' });
    expect(await lastVisit()).toBe('2026-04-02T08:00:00.000Z');
    // A late delivery of an earlier unlock, a refusal and another kind of event leave it.
    await deliver({ created_at: '2026-04-01T08:00:00Z' });
    await deliver({ created_at: '2026-04-03T08:00:00Z', success: false });
    await deliver({ created_at: '2026-04-04T08:00:00Z', type: 'lock.lock' });
    expect(await lastVisit()).toBe('2026-04-02T08:00:00.000Z');
    await db.deleteFrom('gym_users').where('id', '=', id).execute();
    await db.deleteFrom('gym_owners').where('id', '=', owner.id).execute();
  });

  it('answers 413 to an oversize body, 400 to malformed JSON or a non-object', async () => {
    const huge = JSON.stringify(unlockEvent({ object_name: 'x'.repeat(70_000) }));
    await post(huge, signBody(huge, secret)).expect(413);
    const broken = '{"uuid": "abc", ';
    const res = await post(broken, signBody(broken, secret)).expect(400);
    expect(res.body.detail).toMatch(/not valid JSON/);
    await post('[1,2]', signBody('[1,2]', secret)).expect(400);
    await request(ctx.app).get('/api/auth/getAuth').expect(401); // still serving
  });

  it('refuses a signed body nested deeper than the JSON depth limit (400), as every JSON body is, and stores nothing', async () => {
    const before = (await stored()).length;
    const event = unlockEvent();
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    // The event is the first level: 5,000 more are refused; 63 more (64 in all) are read as an event like any other.
    const deep = `${JSON.stringify(event).slice(0, -1)},"extra":${nested(5000)}}`;
    const refused = await post(deep, signBody(deep, secret)).expect(400);
    expect(refused.type).toBe('application/problem+json');
    expect(refused.body.detail).toBe('The request body is nested too deeply (at most 64 levels of objects and arrays).');
    expect((await stored()).length).toBe(before);
    const deepest = JSON.stringify(unlockEvent({ extra: JSON.parse(nested(63)) }));
    await post(deepest, signBody(deepest, secret)).expect(200);
    // An unsigned deep body is refused for its signature first (401): its depth is not looked at for a stranger.
    await post(deep, 'sha256=00').expect(401);
  });

  it('reads older and partial payloads tolerantly (no uuid, action + references, success as a string)', async () => {
    const old = JSON.stringify({
      actor_type: 'User',
      actor_id: 3,
      action: 'unlock',
      object_type: 'Lock',
      object_id: 2,
      success: 'true',
      code: 'ffffff',
      message: 'tomas unlocked lock Gym Floor',
      references: [{ type: 'Place', id: 1 }, { type: 'Lock', id: 2 }],
      created_at: '2017-12-02T10:28:29+00:00',
    });
    const res = await post(old, signBody(old, secret)).expect(200);
    expect(res.body.uuid).toMatch(/^sha256:[0-9a-f]{64}$/);
    const row = (await stored()).find((r) => r.uuid === res.body.uuid);
    expect(row).toMatchObject({ type: 'lock.unlock', object_id: 2, place_id: 1, success: 1, actor_email: 'tomas.herrera@harbourside.example', created_at: '2017-12-02T10:28:29.000Z' });
    await post(old, signBody(old, secret)).expect(200, { status: 'duplicate', uuid: res.body.uuid });
  });

  it('keeps the actor email the payload carries, and stores an unknown actor without one', async () => {
    const withEmail = JSON.stringify(unlockEvent({ actor_email: 'Someone@Example.com' }));
    await post(withEmail, signBody(withEmail, secret)).expect(200);
    const unknown = JSON.stringify(unlockEvent({ actor_id: 999_999 }));
    await post(unknown, signBody(unknown, secret)).expect(200);
    const rows = await stored();
    expect(rows.at(-2)?.actor_email).toBe('someone@example.com');
    expect(rows.at(-1)?.actor_email).toBeNull();
  });

  it('stores an event whose text holds NUL characters without them (PostgreSQL cannot store one) rather than failing the delivery', async () => {
    const body = JSON.stringify(unlockEvent({ object_name: 'Front\u0000 door', actor_name: '\u0000', error_message: 'a\u0000b' }));
    const res = await post(body, signBody(body, secret)).expect(200);
    const row = (await stored()).find((r) => r.uuid === res.body.uuid);
    expect(row).toMatchObject({ object_name: 'Front door', actor_name: null, error_message: 'ab' });
  });
});

describe('unlocks in the emulator deliver signed webhooks back to the BFF', () => {
  it('a remote unlock through the proxy answers Unlocked! and its lock.unlock event arrives', async () => {
    const admin = await ctx.loginAs('admin');
    const res = await admin.post('/api/kisi/locks/1/unlock').expect(200);
    expect(res.body).toEqual({ message: 'Unlocked!' });
    await ctx.kisi!.emulator!.settle();
    expect((await stored()).at(-1)).toMatchObject({ type: 'lock.unlock', object_id: 1, actor_email: 'frontdesk-api@harbourside.example', success: 1 });
  });

  it('refuses a locked-down door (409) and an offline one (503), still recording the failed attempts', async () => {
    const admin = await ctx.loginAs('admin');
    const locks = (await admin.get('/api/kisi/locks').expect(200)).body as Array<{ id: number; name: string }>;
    const id = (name: string) => locks.find((l) => l.name === name)!.id;
    expect((await admin.post(`/api/kisi/locks/${id('Server Room')}/unlock`).expect(409)).body.code).toBe('fad001');
    expect((await admin.post(`/api/kisi/locks/${id('Cold Store')}/unlock`).expect(503)).body.code).toBe('fad107');
    expect((await admin.post('/api/kisi/locks/9999/unlock').expect(404)).body.code).toBe('fad10e');
    await ctx.kisi!.emulator!.settle();
    const last = (await stored()).slice(-2);
    expect(last.map((r) => [r.object_name, r.success, r.error_code])).toEqual([
      ['Server Room', 0, 'fad001'],
      ['Cold Store', 0, 'fad107'],
    ]);
  });

  it('the control endpoint simulates an unlock by email (admin only), including a refused one', async () => {
    const admin = await ctx.loginAs('admin');
    const ok = await admin.post('/api/kisi-emulator/unlocks').send({ email: 'Alice.Moreau@mail.example' }).expect(200);
    expect(ok.body).toMatchObject({ success: true, message: 'Alice Moreau unlocked Main Entrance.', event: { type: 'lock.unlock', actor_name: 'Alice Moreau' } });
    await ctx.kisi!.emulator!.settle();
    expect((await stored()).at(-1)).toMatchObject({ uuid: ok.body.event.uuid, actor_email: 'alice.moreau@mail.example', success: 1 });

    // A vendor has no right to the gym floor: the door stays shut and the refusal is an event too.
    const locks = (await admin.get('/api/kisi/locks?query=gym').expect(200)).body as Array<{ id: number }>;
    const denied = await admin.post('/api/kisi-emulator/unlocks').send({ email: 'kofi@jollofhouse.example', lockId: locks[0]!.id }).expect(200);
    expect(denied.body).toMatchObject({ success: false, event: { error_code: 'afc496' } });

    await admin.post('/api/kisi-emulator/unlocks').send({ email: 'nobody@mail.example' }).expect(404);
    await admin.post('/api/kisi-emulator/unlocks').send({ email: 'not-an-email', lockId: 'x' }).expect(400);
    await (await ctx.loginAs('staff')).post('/api/kisi-emulator/unlocks').send({ email: 'alice.moreau@mail.example' }).expect(403);
    await request(ctx.app).post('/api/kisi-emulator/unlocks').send({ email: 'alice.moreau@mail.example' }).expect(401);
  });
});

describe('without the emulator', () => {
  it('has no control endpoint, and refuses every webhook when no secret is configured', async () => {
    await withTestContext({}, async (plain) => {
      const admin = await plain.loginAs('admin');
      await admin.post('/api/kisi-emulator/unlocks').send({ email: 'alice.moreau@mail.example' }).expect(404);
      await admin.get('/api/kisi/users').expect(503);
      const body = JSON.stringify(unlockEvent());
      await request(plain.app).post('/api/webhooks/kisi').set('Content-Type', 'application/json').set('X-Signature', signBody(body, 'anything-at-all-here')).send(body).expect(401);
    });
  });
});
