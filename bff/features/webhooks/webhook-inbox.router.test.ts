import request from 'supertest';
import { parse } from 'csv-parse/sync';
import type { KisiEvent } from '../../contracts/webhook.contract';
import { signBody } from '../../kisi/signature';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { fillKisiEventChoices } from '../../db/kisi-event-choices';
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
async function store(overrides: Partial<{ type: string; email: string | null; name: string; door: string; doorId: number; objectType: string; at: string; success: boolean; error: string }> = {}) {
  seq++;
  const event = await kisiEventsRepository(ctx.database.db).insertOnce({
    uuid: `inbox-${seq}-${Math.random()}`,
    type: overrides.type ?? 'lock.unlock',
    actor_type: 'User',
    actor_id: seq,
    actor_name: overrides.name ?? `Person ${seq}`,
    actor_email: overrides.email === undefined ? `person${seq}@inbox.test` : overrides.email,
    object_type: overrides.objectType ?? 'Lock',
    object_id: overrides.doorId ?? 1,
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

/** Events written around the app (a clear, a bulk insert) are counted again into the filter choices, as migration 031 counts them. */
const recount = () => fillKisiEventChoices(ctx.database.db);
const clear = async () => {
  await ctx.database.db.deleteFrom('kisi_events').execute();
  await recount();
};

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

describe('the inbox filters and their CSV export', () => {
  // Two doors, three people, both results, two types, three days (UTC): every filter has something to leave out.
  let fixtures: Record<'ana1' | 'ana2' | 'bo' | 'zoe' | 'lockdown' | 'userEvent', KisiEvent>;
  beforeAll(async () => {
    await clear();
    fixtures = {
      ana1: await store({ name: 'Ana Lima', email: 'ana.lima@inbox.test', door: 'Front Door', doorId: 11, at: '2026-03-01T09:00:00.000Z' }),
      ana2: await store({ name: 'Ana Lima', email: 'ana.lima@inbox.test', door: 'Gym Floor', doorId: 12, at: '2026-03-02T23:30:00.000Z', success: false, error: 'Outside booking' }),
      bo: await store({ name: 'Bo Berg', email: 'bo@elsewhere.test', door: 'Front Door', doorId: 11, at: '2026-03-02T10:00:00.000Z', success: false }),
      zoe: await store({ name: 'Zoë "Zed" O\'Brien, Jr.', email: 'zoe@inbox.test', door: 'Gym Floor', doorId: 12, at: '2026-03-03T07:00:00.000Z' }),
      lockdown: await store({ type: 'lock.lockdown', name: 'Ana Lima', email: 'ana.lima@inbox.test', door: 'Front Door', doorId: 11, at: '2026-03-03T08:00:00.000Z' }),
      // A user event whose object id happens to be a door's: the door filter must not take it for one.
      userEvent: await store({ type: 'user.update', name: 'Bo Berg', objectType: 'User', doorId: 11, door: 'Bo Berg', at: '2026-03-03T09:00:00.000Z' }),
    };
  });

  const ids = (body: { items: KisiEvent[] }) => body.items.map((e) => e.id);
  const list = async (query: string) => (await staff.get(`/api/webhook?${query}`).expect(200)).body as { items: KisiEvent[]; total: number };

  it('finds a person by part of the name or the email, in any case', async () => {
    expect(ids(await list('person=ANA'))).toEqual([fixtures.lockdown.id, fixtures.ana2.id, fixtures.ana1.id]);
    expect(ids(await list('person=elsewhere.TEST'))).toEqual([fixtures.bo.id]);
    expect(ids(await list(`person=${encodeURIComponent('"Zed" O\'b')}`))).toEqual([fixtures.zoe.id]);
    // % and _ are text, not wildcards.
    expect((await list('person=%25')).total).toBe(0);
    expect((await list('person=a_a')).total).toBe(0);
    // Blank is no filter.
    expect((await list('person=%20%20')).total).toBe(6);
  });

  it('narrows to one door by its lock id, a result, an event type, and a time range', async () => {
    expect(ids(await list('doorId=11'))).toEqual([fixtures.lockdown.id, fixtures.bo.id, fixtures.ana1.id]);
    expect(ids(await list('doorId=12'))).toEqual([fixtures.zoe.id, fixtures.ana2.id]);
    expect((await list('doorId=99')).total).toBe(0);
    expect(ids(await list('result=denied'))).toEqual([fixtures.ana2.id, fixtures.bo.id]);
    expect((await list('result=granted')).total).toBe(4);
    expect(ids(await list('type=lock.lockdown'))).toEqual([fixtures.lockdown.id]);
    // since is inclusive, before exclusive: exactly the events of 2 March (UTC).
    expect(ids(await list('since=2026-03-02T00:00:00.000Z&before=2026-03-03T00:00:00.000Z'))).toEqual([fixtures.ana2.id, fixtures.bo.id]);
    expect(ids(await list('since=2026-03-02T10:00:00.000Z&before=2026-03-02T23:30:00.000Z'))).toEqual([fixtures.bo.id]);
    // A day in a venue at UTC+1 (the page sends its local midnights): 2 March there ends at 23:00 UTC.
    expect(ids(await list('since=2026-03-01T23:00:00%2B00:00&before=2026-03-02T23:00:00Z'))).toEqual([fixtures.bo.id]);
  });

  it('combines the filters (all must hold) and counts only what matches, page by page', async () => {
    expect(ids(await list('person=ana&doorId=12&result=denied'))).toEqual([fixtures.ana2.id]);
    expect((await list('person=ana&doorId=12&result=granted')).total).toBe(0);
    expect(ids(await list('person=ana&type=lock.unlock&since=2026-03-01T00:00:00Z&before=2026-03-02T00:00:00Z'))).toEqual([fixtures.ana1.id]);
    const paged = await staff.get('/api/webhook?doorId=11&page=1&pageSize=2').expect(200);
    expect(paged.body).toMatchObject({ page: 1, pageSize: 2, total: 3 });
    expect(ids(paged.body)).toEqual([fixtures.ana1.id]);
  });

  it('answers 400 naming each bad filter, never a 500', async () => {
    const cases: Array<[string, string]> = [
      ['doorId=front', 'query.doorId'],
      ['doorId=0', 'query.doorId'],
      ['result=maybe', 'query.result'],
      ['since=2026-13-45', 'query.since'],
      ['before=yesterday', 'query.before'],
      ['since=2026-03-03T00:00:00Z&before=2026-03-02T00:00:00Z', 'query.before'],
      ['since=2026-03-02T00:00:00Z&before=2026-03-02T00:00:00Z', 'query.before'],
      [`person=${'x'.repeat(201)}`, 'query.person'],
    ];
    for (const [query, path] of cases) {
      for (const url of [`/api/webhook?${query}`, `/api/webhook/export.csv?${query}`]) {
        const res = await staff.get(url);
        expect({ url, status: res.status, type: res.type }).toEqual({ url, status: 400, type: 'application/problem+json' });
        expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
      }
    }
    const reversed = await staff.get('/api/webhook?since=2026-03-03T00:00:00Z&before=2026-03-02T00:00:00Z').expect(400);
    expect(reversed.body.errors[0].message).toBe('The end of the time range (before) must be after its start (since)');
  });

  const exported = async (query: string) => {
    const res = await staff.get(`/api/webhook/export.csv?${query}`).buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    }).expect(200);
    const text = (res.body as Buffer).toString('utf8');
    return { res, text, rows: parse(text.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[] };
  };

  it('exports exactly the filtered events, as many rows as the list counts, newest first', async () => {
    for (const query of ['', 'person=ana', 'doorId=11', 'result=denied', 'type=lock.unlock&doorId=12', 'since=2026-03-02T00:00:00Z&before=2026-03-03T00:00:00Z', 'person=nobody']) {
      const { total, items } = await list(`${query}&pageSize=100`);
      const { rows } = await exported(query);
      expect({ query, rows: rows.length }).toEqual({ query, rows: total });
      expect(rows.map((r) => r['Kisi event uuid'])).toEqual(items.map((e) => e.uuid));
    }
  });

  it('writes a CSV attachment a spreadsheet reads as written: quotes, commas and non-ASCII names', async () => {
    const { res, text, rows } = await exported('person=zo%C3%AB');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?door-events-\d{4}-\d{2}-\d{2}\.csv"?$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(text.startsWith('\uFEFFTime (UTC),Event,Person,Email,Requested by,Requested by email,Door,Door id,Result,Error code,Error message,Kisi event uuid\r\n')).toBe(true);
    expect(text).toContain('"Zoë ""Zed"" O\'Brien, Jr."');
    expect(rows).toEqual([
      expect.objectContaining({ 'Time (UTC)': '2026-03-03T07:00:00.000Z', Person: 'Zoë "Zed" O\'Brien, Jr.', Email: 'zoe@inbox.test', Door: 'Gym Floor', 'Door id': '12', Result: 'granted' }),
    ]);
    const denied = (await exported('result=denied')).rows;
    expect(denied.map((r) => [r.Person, r.Result, r['Error message']])).toEqual([
      ['Ana Lima', 'denied', 'Outside booking'],
      ['Bo Berg', 'denied', ''],
    ]);
  });

  it('streams an export larger than one batch, every event once, in the list order', async () => {
    // 1 200 events (more than two batches of 500), half of them at the same instant: the keyset must not skip or repeat ties.
    const at = '2026-04-01T12:00:00.000Z';
    const rows1200 = Array.from({ length: 1200 }, (_, i) => ({
      uuid: `bulk-${i}`, type: 'lock.unlock', actor_type: 'User', actor_id: i, actor_name: `Bulk ${i}`, actor_email: `bulk${i}@inbox.test`,
      object_type: 'Lock', object_id: 30, object_name: 'Bulk Door', place_id: 1, success: 1, error_code: null, error_message: null,
      created_at: i % 2 ? at : new Date(Date.UTC(2026, 3, 2, 0, 0, i)).toISOString(), received_at: at, payload: '{}',
    }));
    for (let i = 0; i < rows1200.length; i += 200) await ctx.database.db.insertInto('kisi_events').values(rows1200.slice(i, i + 200)).execute();
    await recount();
    const { rows } = await exported('doorId=30');
    expect(rows).toHaveLength(1200);
    expect(new Set(rows.map((r) => r['Kisi event uuid'])).size).toBe(1200);
    const first = await list('doorId=30&pageSize=100');
    expect(rows.slice(0, 100).map((r) => r['Kisi event uuid'])).toEqual(first.items.map((e) => e.uuid));
    await ctx.database.db.deleteFrom('kisi_events').where('object_id', '=', 30).execute();
    await recount();
  });

  it('exports a person stored by the signed webhook with the name as Kisi sent it', async () => {
    const secret = ctx.kisi!.settings.webhookSecret!;
    const body = JSON.stringify({ uuid: 'csv-webhook-zoe', type: 'lock.unlock', actor_name: 'Zoë "Zed" O\'Brien, Jr.', actor_email: 'Zed@Inbox.test', object_type: 'Lock', object_id: 12, object_name: 'Gym Floor, north', success: true, created_at: '2026-03-04T10:00:00Z' });
    await request(ctx.app).post('/api/webhooks/kisi').set('Content-Type', 'application/json').set('X-Signature', signBody(body, secret)).send(body).expect(200);
    const { rows } = await exported('person=zed%40inbox');
    expect(rows).toEqual([expect.objectContaining({ Person: 'Zoë "Zed" O\'Brien, Jr.', Email: 'zed@inbox.test', Door: 'Gym Floor, north', 'Kisi event uuid': 'csv-webhook-zoe' })]);
    await ctx.database.db.deleteFrom('kisi_events').where('uuid', '=', 'csv-webhook-zoe').execute();
    await recount();
  });

  it('is a plain GET a link can start: the CSRF guard lets it through (it changes nothing), the session still decides', async () => {
    await staff.get('/api/webhook/export.csv').set('Origin', 'https://evil.example').expect(200);
    await request(ctx.app).get('/api/webhook/export.csv').expect(401);
    await (await ctx.loginAs('runner')).get('/api/webhook/export.csv').expect(403);
  });

  it('offers the doors (locks only, by their newest name) and the types seen', async () => {
    const res = await staff.get('/api/webhook/filters').expect(200);
    expect(res.body).toEqual({
      doors: [
        { id: 11, name: 'Front Door' },
        { id: 12, name: 'Gym Floor' },
      ],
      types: ['lock.lockdown', 'lock.unlock', 'user.update'],
    });
  });

  it('offers a new door after its first event, by the name of its newest, and no longer once its last event is deleted', async () => {
    const choices = async () => (await staff.get('/api/webhook/filters').expect(200)).body as { doors: { id: number; name: string }[]; types: string[] };
    expect((await choices()).doors.map((d) => d.id)).not.toContain(21);
    const first = await store({ doorId: 21, door: 'Annex', type: 'lock.tailgate', at: '2026-03-05T08:00:00.000Z' });
    expect((await choices()).doors).toContainEqual({ id: 21, name: 'Annex' });
    expect((await choices()).types).toContain('lock.tailgate');
    const renamed = await store({ doorId: 21, door: 'Annex (east)', at: '2026-03-05T09:00:00.000Z' });
    expect((await choices()).doors).toContainEqual({ id: 21, name: 'Annex (east)' });
    await staff.delete(`/api/webhook/${renamed.id}`).expect(204);
    expect((await choices()).doors).toContainEqual({ id: 21, name: 'Annex' });
    await staff.delete(`/api/webhook/${first.id}`).expect(204);
    const after = await choices();
    expect(after.doors.map((d) => d.id)).not.toContain(21);
    expect(after.types).not.toContain('lock.tailgate');
    expect(after).toEqual({ doors: [{ id: 11, name: 'Front Door' }, { id: 12, name: 'Gym Floor' }], types: ['lock.lockdown', 'lock.unlock', 'user.update'] });
  });

  it('finds a person by their email once Kisi names it (stored first without one), and by name all along', async () => {
    const counts = async () => ({
      types: await ctx.database.db.selectFrom('kisi_event_types').select(['type', 'events']).orderBy('type').execute(),
      doors: await ctx.database.db.selectFrom('kisi_event_doors').select(['id', 'events']).orderBy('id').execute(),
    });
    const before = await counts();
    const event = await store({ name: 'Cleo Park', email: null, at: '2026-03-06T08:00:00.000Z' });
    expect(ids(await list('person=cleo.park'))).toEqual([]);
    expect(ids(await list('person=Cleo'))).toEqual([event.id]);
    await kisiEventsRepository(ctx.database.db).fillActorEmail(event.actorId!, 'cleo.park@inbox.test');
    expect(ids(await list('person=cleo.park'))).toEqual([event.id]);
    expect(ids(await list('person=Cleo'))).toEqual([event.id]);
    await staff.delete(`/api/webhook/${event.id}`).expect(204);
    expect(ids(await list('person=Cleo'))).toEqual([]);
    // The email filled in changed only who it was: the event's type and door were counted once, and went with it.
    expect(await counts()).toEqual(before);
  });
});

describe('a long inbox, page by page', () => {
  // 1,100 events of 1,100 people "Crowd <i>" a minute apart, 5 of them at one instant (ties broken by the id).
  const crowd = 1_100;
  beforeAll(async () => {
    await clear();
    const at = (i: number) => (i % 220 === 0 ? '2026-05-01T12:00:00.000Z' : new Date(Date.UTC(2026, 4, 1, 12, 0, 0) - (i + 1) * 60_000).toISOString());
    const rows = Array.from({ length: crowd }, (_, i) => ({
      uuid: `crowd-${i}`, type: 'lock.unlock', actor_type: 'User', actor_id: 5000 + i, actor_name: `Crowd ${i}`, actor_email: `crowd${i}@inbox.test`,
      object_type: 'Lock', object_id: 40 + (i % 3), object_name: `Crowd door ${i % 3}`, place_id: 1, success: i % 7 === 0 ? 0 : 1, error_code: null, error_message: null,
      created_at: at(i), received_at: at(i), payload: '{}',
    }));
    for (let i = 0; i < rows.length; i += 200) await ctx.database.db.insertInto('kisi_events').values(rows.slice(i, i + 200)).execute();
    await recount();
  });
  afterAll(clear);

  type EventPage = { items: KisiEvent[]; page: number; total: number; totalIsLowerBound?: boolean; next?: string; previous?: string };
  const get = async (query: string) => (await staff.get(`/api/webhook?${query}`).expect(200)).body as EventPage;
  /** Every page from the first by its Next link: the uuids in order, and each page's answer. */
  async function walk(filter: string, pageSize = 100) {
    const pages: EventPage[] = [await get(`${filter}&pageSize=${pageSize}`)];
    while (pages.at(-1)!.next) pages.push(await get(`${filter}&pageSize=${pageSize}&page=${pages.length}&next=${pages.at(-1)!.next}`));
    return { pages, uuids: pages.flatMap((p) => p.items.map((e) => e.uuid)) };
  }
  const everyUuid = async (filter: string) => (await exportedUuids(filter));
  async function exportedUuids(filter: string) {
    const res = await staff.get(`/api/webhook/export.csv?${filter}`).buffer(true).expect(200);
    return (parse(res.text.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[]).map((r) => r['Kisi event uuid']);
  }

  it('says 1,000+ past a thousand, and Next still reaches every event once, in order', async () => {
    const first = await get('pageSize=10');
    expect(first).toMatchObject({ page: 0, total: 1000, totalIsLowerBound: true });
    expect(first.previous).toBeUndefined();
    const { pages, uuids } = await walk('');
    expect(uuids).toHaveLength(crowd);
    expect(new Set(uuids).size).toBe(crowd);
    expect(uuids).toEqual(await everyUuid(''));
    // Near the end the count is exact again, and the last page has no Next.
    expect(pages.at(-1)).toMatchObject({ page: 10, total: crowd });
    expect(pages.at(-1)!.totalIsLowerBound).toBeUndefined();
    // Previous from the third page gives the second again.
    const back = await get(`pageSize=100&page=1&previous=${pages[2]!.previous}`);
    expect(back.items.map((e) => e.uuid)).toEqual(pages[1]!.items.map((e) => e.uuid));
  });

  it('pages a filter along its own index the same way (denied, one door)', async () => {
    for (const filter of ['result=denied', 'doorId=41', 'doorId=41&result=granted']) {
      const { uuids } = await walk(filter, 50);
      expect({ filter, uuids }).toEqual({ filter, uuids: await everyUuid(filter) });
    }
    expect((await get('result=denied')).total).toBe(Math.ceil(crowd / 7));
  });

  it('gives the same events for a person whether their people are many (along the time order) or few (off their names)', async () => {
    // "crowd": every one of the 1,100; "Crowd 1": 1, 10–19, 100–199, 1000–1099 (211).
    for (const [filter, expected] of [
      ['person=crowd', crowd],
      ['person=Crowd%201', 211],
      ['person=crowd7%40', 1],
      ['person=Crowd%201&result=denied', 30],
    ] as const) {
      const { uuids } = await walk(filter);
      expect({ filter, n: uuids.length }).toEqual({ filter, n: expected });
      expect(uuids).toEqual(await everyUuid(filter));
    }
    expect(await get('person=crowd&pageSize=10')).toMatchObject({ total: 1000, totalIsLowerBound: true });
    expect((await get('person=Crowd%201&pageSize=10')).total).toBe(211);
  });

  it('pages a member\'s unlocks by cursor', async () => {
    const email = 'crowd.member@inbox.test';
    await ctx.database.db.updateTable('kisi_events').set({ actor_email: email }).where('object_id', '=', 42).execute();
    const first = (await staff.get(`/api/webhooks/unlocks?email=${email}&pageSize=100`).expect(200)).body as EventPage;
    expect(first.total).toBe(366);
    const second = (await staff.get(`/api/webhooks/unlocks?email=${email}&pageSize=100&page=1&next=${first.next}`).expect(200)).body as EventPage;
    expect(second.items[0]!.createdAt <= first.items.at(-1)!.createdAt).toBe(true);
    expect(second.items.map((e) => e.id)).not.toContain(first.items.at(-1)!.id);
    expect(second).toMatchObject({ page: 1, total: 366 });
  });
});
