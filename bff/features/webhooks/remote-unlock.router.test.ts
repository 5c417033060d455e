import crypto from 'node:crypto';
import request from 'supertest';
import type { LiveEvent } from '../../contracts/events.contract';
import type { KisiEvent } from '../../contracts/webhook.contract';
import { remoteUnlockRequests } from '../../db/remote-unlocks';
import { unlockEvent } from '../../kisi/emulator/emulator.events';
import { emulatorStore } from '../../kisi/emulator/emulator.store';
import { createLogger } from '../../lib/logger';
import { signBody } from '../../kisi/signature';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { kisiEventWrites } from './kisi-event.receive';
import { kisiEventsCatchUp } from './kisi-events.catch-up';
import { kisiEventsRepository } from './kisi-events.repository';

/**
 * Who pressed a remote unlock (issue 52 defect 4, decision 0103), on this run's engine (the PostgreSQL
 * pass runs it again): Kisi names the integration's own user as the actor, and the event is credited
 * to the account that pressed it in Frontdesk; never a member's own unlock at that door, each request
 * once, only near in time, and not a request Kisi refused with another outcome.
 */
let ctx: TestContext;
let secret: string;
let apiUser: number;
/** The account the requests recorded straight to the table belong to. */
let desk: number;
const published: LiveEvent[] = [];
const MIN = 60_000;

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  secret = ctx.kisi!.settings.webhookSecret!;
  apiUser = await ctx.kisi!.apiAccountId();
  await staffAgent();
  desk = (await ctx.database.db.selectFrom('accounts').select('id').where('role', '=', 'staff').executeTakeFirstOrThrow()).id;
  ctx.bus.subscribe((event) => published.push(event));
});
afterAll(() => ctx.close());

let seq = 0;
/** A door event delivered as Kisi's webhook, by default the integration's own unlock at `lock`. */
async function deliver(lock: number, overrides: Record<string, unknown> = {}): Promise<KisiEvent> {
  const body = JSON.stringify({
    uuid: `remote-unlock-${++seq}-${Date.now()}`,
    type: 'lock.unlock',
    actor_type: 'User',
    actor_id: apiUser,
    actor_name: 'Frontdesk Integration',
    object_type: 'Lock',
    object_id: lock,
    object_name: `Door ${lock}`,
    success: true,
    created_at: new Date().toISOString(),
    ...overrides,
  });
  const res = await request(ctx.app).post('/api/webhooks/kisi').set('Content-Type', 'application/json').set('X-Signature', signBody(body, secret)).send(body).expect(200);
  return eventById(res.body.id as number);
}

async function eventById(id: number): Promise<KisiEvent> {
  const admin = await staffAgent();
  const page = (await admin.get('/api/webhook').query({ pageSize: 100 }).expect(200)).body as { items: KisiEvent[] };
  return page.items.find((e) => e.id === id)!;
}

let staff: Awaited<ReturnType<TestContext['loginAs']>> | undefined;
const staffAgent = async () => (staff ??= await ctx.loginAs('staff'));

/** A request recorded as the proxy records it, `minutes` from now. */
const recorded = (lockId: number, name: string, minutes = 0) =>
  remoteUnlockRequests(ctx.database.db).record({ lockId, kisiUserId: apiUser, account: { id: desk, name, email: `${name.toLowerCase().replace(/ /g, '.')}@frontdesk.test` }, at: new Date(Date.now() + minutes * MIN).toISOString() });
const requestRow = (id: number) => ctx.database.db.selectFrom('remote_unlock_requests').selectAll().where('id', '=', id).executeTakeFirst();

describe('a remote unlock pressed in Frontdesk', () => {
  it('is credited to the account that pressed it: in Door events, on the live stream and in the export', async () => {
    const admin = await ctx.loginAs('admin', 'sam.staff@frontdesk.test');
    const locks = (await admin.get('/api/kisi/locks').expect(200)).body as Array<{ id: number; name: string }>;
    const entrance = locks.find((l) => l.name === 'Main Entrance')!;
    published.length = 0;
    await admin.post(`/api/kisi/locks/${entrance.id}/unlock`).expect(200);
    await ctx.kisi!.emulator!.settle();
    await ctx.bus.idle();

    const list = (await admin.get('/api/webhook').query({ doorId: entrance.id }).expect(200)).body as { items: KisiEvent[] };
    expect(list.items[0]).toMatchObject({ actorId: apiUser, actorName: 'Frontdesk Integration', success: true, requestedBy: { name: 'Test admin', email: 'sam.staff@frontdesk.test' } });
    const announced = published.find((e) => e.type === 'webhook' && (e.data as KisiEvent).id === list.items[0]!.id);
    expect((announced?.data as KisiEvent).requestedBy).toEqual({ name: 'Test admin', email: 'sam.staff@frontdesk.test' });
    const csv = (await admin.get('/api/webhook/export.csv').query({ doorId: entrance.id }).expect(200)).text;
    expect(csv).toContain('Frontdesk Integration,frontdesk-api@harbourside.example,Test admin,sam.staff@frontdesk.test,Main Entrance');
    expect(await ctx.database.db.selectFrom('remote_unlock_requests').select(['status', 'event_id']).where('requested_by_email', '=', 'sam.staff@frontdesk.test').execute()).toEqual([
      { status: 'accepted', event_id: list.items[0]!.id },
    ]);
  });

  it('credits a door that Kisi refused (locked down) on the refused event, not on a later opening', async () => {
    const admin = await ctx.loginAs('admin', 'refused.press@frontdesk.test');
    const locks = (await admin.get('/api/kisi/locks').expect(200)).body as Array<{ id: number; name: string; locked_down: boolean }>;
    const lockedDown = locks.find((l) => l.locked_down)!;
    await admin.post(`/api/kisi/locks/${lockedDown.id}/unlock`).expect(409);
    await ctx.kisi!.emulator!.settle();
    const list = (await admin.get('/api/webhook').query({ doorId: lockedDown.id }).expect(200)).body as { items: KisiEvent[] };
    expect(list.items[0]).toMatchObject({ success: false, requestedBy: { name: 'Test admin', email: 'refused.press@frontdesk.test' } });

    // A refusal not yet matched waits only for a refused event: an opening at that door is not its.
    const refused = await recorded(lockedDown.id, 'Rita Refused');
    await remoteUnlockRequests(ctx.database.db).settle(refused, 'refused');
    expect((await deliver(lockedDown.id)).requestedBy).toBeNull();
    expect((await deliver(lockedDown.id, { success: false, error_code: 'fad001' })).requestedBy).toEqual({ name: 'Rita Refused', email: 'rita.refused@frontdesk.test' });
  });

  it('leaves no request behind when Kisi gave no answer, so a later unlock of the integration is not credited to it', async () => {
    const lost = await recorded(41, 'Lou Lost');
    await remoteUnlockRequests(ctx.database.db).settle(lost, 'lost');
    expect(await requestRow(lost)).toBeUndefined();
    expect((await deliver(41)).requestedBy).toBeNull();
  });

  it('never credits a member’s own unlock at that door, only the integration’s', async () => {
    const request = await recorded(42, 'Dana Desk');
    expect((await deliver(42, { actor_id: 2, actor_name: 'Nadia Okoye' })).requestedBy).toBeNull();
    expect((await deliver(42, { actor_type: 'Device', actor_name: 'Frontdesk Integration' })).requestedBy).toBeNull();
    expect((await deliver(42, { type: 'lock.opened' })).requestedBy).toBeNull();
    expect((await requestRow(request))?.event_id).toBeNull();
    const credited = await deliver(42);
    expect(credited.requestedBy).toEqual({ name: 'Dana Desk', email: 'dana.desk@frontdesk.test' });
    expect((await requestRow(request))?.event_id).toBe(credited.id);
  });

  it('credits each request once: a second unlock of the integration gets the next request, or none', async () => {
    const first = await recorded(43, 'Ann First');
    const second = await recorded(43, 'Ben Second');
    expect((await deliver(43)).requestedBy?.name).toBe('Ann First');
    expect((await deliver(43)).requestedBy?.name).toBe('Ben Second');
    expect((await deliver(43)).requestedBy).toBeNull();
    const rows = await Promise.all([requestRow(first), requestRow(second)]);
    expect(new Set(rows.map((r) => r?.event_id)).size).toBe(2);
  });

  it('credits each request once when its events arrive at the same moment', async () => {
    await Promise.all([recorded(44, 'Cy One'), recorded(44, 'Di Two')]);
    const events = await Promise.all(Array.from({ length: 6 }, () => deliver(44)));
    expect(events.map((e) => e.requestedBy?.name ?? null).sort()).toEqual(['Cy One', 'Di Two', null, null, null, null]);
    const rows = await ctx.database.db.selectFrom('remote_unlock_requests').select('event_id').where('lock_id', '=', 44).execute();
    expect(rows.every((r) => r.event_id !== null)).toBe(true);
  });

  it('matches only within two minutes of the request, either way', async () => {
    const request = await recorded(45, 'Tim Window');
    expect((await deliver(45, { created_at: new Date(Date.now() + 3 * MIN).toISOString() })).requestedBy).toBeNull();
    expect((await deliver(45, { created_at: new Date(Date.now() - 3 * MIN).toISOString() })).requestedBy).toBeNull();
    expect((await deliver(45, { created_at: new Date(Date.now() + MIN).toISOString() })).requestedBy?.name).toBe('Tim Window');
    expect((await requestRow(request))?.event_id).not.toBeNull();
  });

  it('names an erased person once the account that pressed it is deleted with erase, and keeps the name without', async () => {
    const boss = await ctx.loginAs('admin', 'boss.remote@frontdesk.test');
    const pressOnce = async (email: string) => {
      const agent = await ctx.loginAs('admin', email);
      const account = await ctx.database.db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const entrance = ((await agent.get('/api/kisi/locks').expect(200)).body as Array<{ id: number; name: string }>).find((l) => l.name === 'Main Entrance')!;
      await agent.post(`/api/kisi/locks/${entrance.id}/unlock`).expect(200);
      await ctx.kisi!.emulator!.settle();
      const event = ((await boss.get('/api/webhook').query({ doorId: entrance.id }).expect(200)).body as { items: KisiEvent[] }).items[0]!;
      expect(event.requestedBy?.email).toBe(email);
      return { account: account.id, event: event.id };
    };
    const leaver = await pressOnce('leaving.remote@frontdesk.test');
    await boss.delete(`/api/team/accounts/${leaver.account}`).query({ erase: 'true' }).expect(204);
    expect((await eventById(leaver.event)).requestedBy).toEqual({ name: 'Erased person', email: null });
    expect(JSON.stringify(await ctx.database.db.selectFrom('remote_unlock_requests').selectAll().execute())).not.toContain('leaving.remote');

    const stayer = await pressOnce('staying.remote@frontdesk.test');
    await boss.delete(`/api/team/accounts/${stayer.account}`).expect(204);
    expect((await eventById(stayer.event)).requestedBy).toEqual({ name: 'Test admin', email: 'staying.remote@frontdesk.test' });
  });

  it('credits the event the catch-up stores from Kisi’s log when its webhook never came', async () => {
    const store = emulatorStore(ctx.kisi!.emulator!.database.db);
    const integration = (await store.findUserByEmail('frontdesk-api@harbourside.example'))!;
    const lock = (await store.lockRow(1))!;
    // Later than every event stored so far (the catch-up reads from the newest one; a test above stored one 3 minutes ahead).
    await recorded(lock.id, 'Cat Chup', 10);
    const missed = unlockEvent(crypto.randomUUID(), integration, lock, undefined, new Date(Date.now() + 10 * MIN).toISOString());
    await store.recordEvent(missed);
    const catchUp = kisiEventsCatchUp({
      events: kisiEventsRepository(ctx.database.db),
      readLog: (query, stop) => ctx.kisi!.client.listEvents(query, stop),
      emailOfKisiUser: async (id) => (await ctx.kisi!.client.getUser(id))?.email ?? null,
      inTransaction: kisiEventWrites(ctx.bus),
      logger: createLogger('silent'),
    });
    expect(await catchUp.run()).toMatchObject({ status: 'done' });
    const page = (await (await staffAgent()).get('/api/webhook').query({ pageSize: 100 }).expect(200)).body as { items: KisiEvent[] };
    expect(page.items.find((e) => e.uuid === missed.uuid)?.requestedBy).toEqual({ name: 'Cat Chup', email: 'cat.chup@frontdesk.test' });
  });

  it('goes with its event when the event is deleted from the inbox', async () => {
    const request = await recorded(46, 'Del Gone');
    const event = await deliver(46);
    await (await staffAgent()).delete(`/api/webhook/${event.id}`).expect(204);
    expect(await requestRow(request)).toBeUndefined();
  });
});
