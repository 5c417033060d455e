import request from 'supertest';
import type { KisiEvent } from '../../contracts/webhook.contract';
import { signBody } from '../../kisi/signature';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { kisiEventsRepository } from './kisi-events.repository';

let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  staff = await ctx.loginAs('staff');
});
afterAll(() => ctx.close());

let seq = 0;
/** Stores an event as the webhook receiver would (lower-cased email, 0/1 success). */
async function store(overrides: Partial<{ type: string; email: string | null; name: string; door: string; at: string; success: boolean; error: string }> = {}) {
  seq++;
  const event = await kisiEventsRepository(ctx.database.db).insertOnce({
    uuid: `inbox-${seq}-${Math.random()}`,
    type: overrides.type ?? 'lock.unlock',
    actor_type: 'User',
    actor_id: seq,
    actor_name: overrides.name ?? `Person ${seq}`,
    actor_email: overrides.email === undefined ? `person${seq}@inbox.test` : overrides.email,
    object_type: 'Lock',
    object_id: 1,
    object_name: overrides.door ?? 'Main Entrance',
    place_id: 1,
    success: overrides.success === false ? 0 : 1,
    error_code: overrides.success === false ? 'afc496' : null,
    error_message: overrides.error ?? null,
    created_at: overrides.at ?? new Date(Date.UTC(2026, 0, 1, 8, 0, seq)).toISOString(),
    received_at: new Date().toISOString(),
    payload: '{}',
  });
  return event!;
}

const clear = () => ctx.database.db.deleteFrom('kisi_events').execute();

describe('access to the inbox', () => {
  it('answers 401 without a session and 403 for a runner on every new endpoint', async () => {
    const anonymous = request(ctx.app);
    for (const res of [
      await anonymous.get('/api/webhook'),
      await anonymous.delete('/api/webhook/1').set('Content-Type', 'application/json'),
      await anonymous.get('/api/webhooks/unlocks?email=a@b.test'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.type).toBe('application/problem+json');
    }
    const runner = await ctx.loginAs('runner');
    await runner.get('/api/webhook').expect(403);
    await runner.delete('/api/webhook/1').expect(403);
    await runner.get('/api/webhooks/unlocks?email=a@b.test').expect(403);
    await (await ctx.loginAs('admin')).get('/api/webhook').expect(200);
  });

  it('keeps the signed receiver public and raw-bodied beside the new routes', async () => {
    const secret = ctx.kisi!.settings.webhookSecret!;
    const body = JSON.stringify({ uuid: 'receiver-still-public', type: 'lock.unlock', actor_email: 'Walk.In@Inbox.test', object_name: 'Side Door', success: true, created_at: '2026-02-01T10:00:00Z' });
    await request(ctx.app).post('/api/webhooks/kisi').set('Content-Type', 'application/json').set('X-Signature', signBody(body, secret)).send(body).expect(200);
    await request(ctx.app).post('/api/webhooks/kisi').set('Content-Type', 'application/json').send(body).expect(401);
    const unlocks = await staff.get('/api/webhooks/unlocks?email=walk.in@inbox.test').expect(200);
    expect(unlocks.body.items.map((e: KisiEvent) => e.uuid)).toEqual(['receiver-still-public']);
    // Other paths under /api/webhooks stay unknown (404), not "log in" (401).
    await request(ctx.app).get('/api/webhooks/kisi').expect(404);
    await request(ctx.app).get('/api/webhooks/nothing').expect(404);
  });
});

describe('GET /api/webhook', () => {
  beforeAll(clear);

  it('pages the received events newest first, page 0 by default', async () => {
    const oldest = await store({ at: '2026-01-01T08:00:00.000Z' });
    const newest = await store({ at: '2026-01-03T08:00:00.000Z', type: 'lock.lockdown' });
    const middle = await store({ at: '2026-01-02T08:00:00.000Z', success: false, error: 'Access denied' });
    const first = await staff.get('/api/webhook').expect(200);
    expect(first.body).toMatchObject({ page: 0, pageSize: 10, total: 3 });
    expect(first.body.items.map((e: KisiEvent) => e.id)).toEqual([newest.id, middle.id, oldest.id]);
    expect(first.body.items[1]).toMatchObject({ success: false, errorMessage: 'Access denied', objectName: 'Main Entrance', actorEmail: middle.actorEmail });

    const second = await staff.get('/api/webhook?page=1&pageSize=2').expect(200);
    expect(second.body).toMatchObject({ page: 1, pageSize: 2, total: 3 });
    expect(second.body.items.map((e: KisiEvent) => e.id)).toEqual([oldest.id]);
    const past = await staff.get('/api/webhook?page=9').expect(200);
    expect(past.body).toMatchObject({ items: [], page: 9, total: 3 });
  });

  it('narrows to one type and to events since a time, counting only those (today\'s unlocks)', async () => {
    const unlocks = await staff.get('/api/webhook?type=lock.unlock&since=2026-01-02T00:00:00Z').expect(200);
    expect(unlocks.body.total).toBe(1);
    expect(unlocks.body.items).toEqual([expect.objectContaining({ type: 'lock.unlock', createdAt: '2026-01-02T08:00:00.000Z' })]);
    expect((await staff.get('/api/webhook?type=lock.lockdown').expect(200)).body.total).toBe(1);
    expect((await staff.get('/api/webhook?since=2026-01-04T00:00:00.000Z').expect(200)).body).toMatchObject({ total: 0, items: [] });
    const bad = await staff.get('/api/webhook?since=yesterday').expect(400);
    expect(bad.body.errors[0]).toMatchObject({ path: 'query.since', message: expect.stringContaining('ISO 8601') });
  });

  it('rejects a page out of range or of the wrong type with a 400 naming the field', async () => {
    for (const query of ['page=-1', 'page=abc', 'page=1.5', 'page=', 'pageSize=0', 'pageSize=101', 'pageSize=x']) {
      const res = await staff.get(`/api/webhook?${query}`).expect(400);
      expect(res.type).toBe('application/problem+json');
      expect(res.body.errors[0].path).toMatch(/^query\.page(Size)?$/);
    }
  });
});

describe('DELETE /api/webhook/:id', () => {
  it('deletes an event (204), then it is gone (404)', async () => {
    const event = await store();
    await staff.delete(`/api/webhook/${event.id}`).expect(204);
    const list = await staff.get('/api/webhook?pageSize=100').expect(200);
    expect(list.body.items.map((e: KisiEvent) => e.id)).not.toContain(event.id);
    const again = await staff.delete(`/api/webhook/${event.id}`).expect(404);
    expect(again.body).toMatchObject({ status: 404, detail: `No Kisi event with id ${event.id}.` });
  });

  it('answers 400 to a malformed id and 404 to an unknown one', async () => {
    for (const id of ['abc', '0', '-3', '1.5', '99999999999999999']) {
      const res = await staff.delete(`/api/webhook/${id}`).expect(400);
      expect(res.body.errors).toEqual([{ path: 'params.id', message: 'Expected a positive integer id' }]);
    }
    await staff.delete('/api/webhook/987654').expect(404);
  });
});

describe('GET /api/webhooks/unlocks', () => {
  it('lists only that email’s lock.unlock events, case-insensitively, newest first', async () => {
    const email = 'ada.lovelace@inbox.test';
    const early = await store({ email, at: '2026-01-05T08:00:00.000Z' });
    const refused = await store({ email, at: '2026-01-06T08:00:00.000Z', success: false, error: 'Access denied (outside booking)' });
    const late = await store({ email, at: '2026-01-07T08:00:00.000Z', door: 'Gym Floor' });
    await store({ email, type: 'lock.lockdown', at: '2026-01-08T08:00:00.000Z' }); // not an unlock
    await store({ email: 'ada.lovelace@inbox.test.other', at: '2026-01-09T08:00:00.000Z' }); // another person
    await store({ email: 'someone@inbox.test', at: '2026-01-09T09:00:00.000Z' });
    await store({ email: null, at: '2026-01-09T10:00:00.000Z' });

    const res = await staff.get(`/api/webhooks/unlocks?email=${encodeURIComponent(' Ada.Lovelace@INBOX.test ')}`).expect(200);
    expect(res.body).toMatchObject({ page: 0, pageSize: 10, total: 3 });
    expect(res.body.items.map((e: KisiEvent) => e.id)).toEqual([late.id, refused.id, early.id]);
    expect(res.body.items.every((e: KisiEvent) => e.type === 'lock.unlock' && e.actorEmail === email)).toBe(true);
    expect(res.body.items[1]).toMatchObject({ success: false, errorMessage: 'Access denied (outside booking)' });

    const paged = await staff.get(`/api/webhooks/unlocks?email=${email}&page=1&pageSize=2`).expect(200);
    expect(paged.body).toMatchObject({ page: 1, pageSize: 2, total: 3 });
    expect(paged.body.items.map((e: KisiEvent) => e.id)).toEqual([early.id]);

    const nobody = await staff.get('/api/webhooks/unlocks?email=nobody@inbox.test').expect(200);
    expect(nobody.body).toEqual({ items: [], page: 0, pageSize: 10, total: 0 });
  });

  it('answers 400 to a missing or invalid email and a bad page', async () => {
    const missing = await staff.get('/api/webhooks/unlocks').expect(400);
    expect(missing.body.errors).toEqual([{ path: 'query.email', message: 'Enter an email address' }]);
    for (const email of ['', 'not-an-email', 'a@', '@b.test']) {
      const res = await staff.get(`/api/webhooks/unlocks?email=${encodeURIComponent(email)}`).expect(400);
      expect(res.body.errors[0].path).toBe('query.email');
    }
    const page = await staff.get('/api/webhooks/unlocks?email=a@b.test&page=minus').expect(400);
    expect(page.body.errors).toEqual([{ path: 'query.page', message: 'Expected a page number of 0 or more' }]);
  });
});
