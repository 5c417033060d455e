import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { KisiEvent } from './contracts/webhook.contract';
import { openDatabase } from './db/database';
import { seedIfEmpty } from './db/seed';
import { emulatorStoreBeside, openEmulatorDatabase } from './kisi/emulator/emulator.database';
import { seedKisiHistory } from './kisi/emulator/emulator.history';
import { seedKisiOrganisation } from './kisi/emulator/emulator.seed';
import { startServer, type RunningServer } from './server';
import { createTestDatabase, type TestDatabase } from './test-support/test-database';

let testDatabase: TestDatabase;

/**
 * The demo's door history (first start, emulator mode only): the emulator's past unlocks, received
 * by the webhook as if Kisi had delivered them then, each person's newest at their Kisi last access.
 */
const ADMIN = { email: 'admin@frontdesk.test', password: 'correct-horse-battery' };
type Page = { items: KisiEvent[]; total: number; page: number; pageSize: number };
type KisiUser = { id: number; email: string; last_accessed_at: string | null };

const env = (dir: string, extra: Record<string, string> = {}) => ({
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  DATABASE_URL: testDatabase.url,
  STATIC_DIR: path.join(dir, 'static'),
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  ...extra,
});

async function adminOf(running: RunningServer) {
  const agent = request.agent(running.server);
  await agent.post('/api/auth/login').send(ADMIN).expect(200);
  return agent;
}

/** Every received event, newest first, through the inbox's pages. */
async function allEvents(agent: ReturnType<typeof request.agent>): Promise<KisiEvent[]> {
  const events: KisiEvent[] = [];
  for (let page = 0; ; page++) {
    const res = await agent.get(`/api/webhook?page=${page}&pageSize=100`).expect(200);
    const body = res.body as Page;
    events.push(...body.items);
    if (events.length >= body.total || body.items.length === 0) return events;
  }
}

describe('the demo door history', () => {
  let dir: string;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-history-'));
    testDatabase = await createTestDatabase(dir, 'app');
  });
  afterEach(async () => {
    await testDatabase.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is in the inbox after the first start in emulator mode, newest first, and a restart does not add it twice', async () => {
    const started = Date.now();
    const first = await startServer(env(dir), () => {});
    const admin = await adminOf(first);

    const page0 = (await admin.get('/api/webhook?page=0').expect(200)).body as Page;
    expect(page0.total).toBeGreaterThanOrEqual(150);
    expect(page0.total).toBeLessThanOrEqual(300);
    expect(page0.items).toHaveLength(10);

    const events = await allEvents(admin);
    expect(events).toHaveLength(page0.total);
    expect(events.slice(0, 10).map((e) => e.uuid)).toEqual(page0.items.map((e) => e.uuid));
    const times = events.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Math.max(...times)).toBeLessThanOrEqual(started);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(started - 29 * 86_400_000);
    for (const e of events) {
      expect(e).toMatchObject({ type: 'lock.unlock', actorType: 'User', objectType: 'Lock' });
      expect(e.actorEmail).toMatch(/@/);
      expect(e.objectName).toBeTruthy();
      // Received as Kisi would have delivered it: a moment after it happened.
      const delay = Date.parse(e.receivedAt) - Date.parse(e.createdAt);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(5_000);
      if (e.success) expect([e.errorCode, e.errorMessage]).toEqual([null, null]);
    }

    // Mostly doors that opened; the refusals carry Kisi's codes and messages.
    const refused = events.filter((e) => !e.success);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(events.length * 0.2);
    const reasons = new Set(refused.map((e) => `${e.errorCode} ${e.errorMessage}`));
    expect(reasons).toEqual(
      new Set(['afc496 Access denied.', 'fad001 The door is currently locked down.', 'fad107 The wireless lock is offline.']),
    );
    expect(refused.filter((e) => e.errorCode === 'fad001').every((e) => e.objectName === 'Server Room')).toBe(true);
    expect(refused.filter((e) => e.errorCode === 'fad107').every((e) => e.objectName === 'Cold Store')).toBe(true);

    // Each person's unlocks tab: their events, the newest one their Kisi user's last access.
    const users = (await admin.get('/api/kisi/users?limit=100').expect(200)).body as KisiUser[];
    const accessed = users.filter((u) => u.last_accessed_at);
    expect(accessed.length).toBeGreaterThan(30);
    const people = new Set(events.map((e) => e.actorEmail));
    expect(people).toEqual(new Set(accessed.map((u) => u.email.toLowerCase())));
    for (const user of accessed) {
      const unlocks = (await admin.get('/api/webhooks/unlocks').query({ email: user.email, pageSize: '100' }).expect(200)).body as Page;
      expect(unlocks.total).toBe(events.filter((e) => e.actorEmail === user.email.toLowerCase()).length);
      expect(unlocks.items.every((e) => e.actorId === user.id)).toBe(true);
      const [newest] = unlocks.items;
      expect(newest).toMatchObject({ success: true });
      expect(Date.parse(newest!.createdAt)).toBe(Date.parse(user.last_accessed_at!));
    }
    await first.close();

    // The emulator's own record, in its own store, holds the same events (same uuids).
    const store = await openEmulatorDatabase(emulatorStoreBeside(testDatabase.url));
    const emulated = await store.db.selectFrom('kisi_emu_events').select(['uuid', 'type', 'payload']).execute();
    await store.close();
    expect(new Set(emulated.map((e) => e.uuid))).toEqual(new Set(events.map((e) => e.uuid)));
    const byUuid = new Map(events.map((e) => [e.uuid, e]));
    for (const row of emulated) {
      const payload = JSON.parse(row.payload) as { actor_id: number; object_id: number; success: boolean; created_at: string };
      const received = byUuid.get(row.uuid)!;
      expect([payload.actor_id, payload.object_id, payload.success, Date.parse(payload.created_at)]).toEqual([
        received.actorId,
        received.objectId,
        received.success,
        Date.parse(received.createdAt),
      ]);
    }

    const second = await startServer(env(dir), () => {});
    const again = (await (await adminOf(second)).get('/api/webhook?page=0').expect(200)).body as Page;
    expect(again.total).toBe(page0.total);
    expect(again.items.map((e) => e.uuid)).toEqual(page0.items.map((e) => e.uuid));
    await second.close();
  });

  it('is not seeded next to a real Kisi (KISI_BASE_URL set)', async () => {
    const running = await startServer(env(dir, { KISI_BASE_URL: 'http://127.0.0.1:9', KISI_API_KEY: 'remote-key', KISI_GROUP_ID: '1' }), () => {});
    const admin = await adminOf(running);
    const page = (await admin.get('/api/webhook?page=0').expect(200)).body as Page;
    expect(page).toMatchObject({ total: 0, items: [] });
    await running.close();
    // No emulator ran: its store, opened here for the first time, is empty (it would hold the seeded organisation).
    const store = await openEmulatorDatabase(emulatorStoreBeside(testDatabase.url));
    const [places, emulated] = await Promise.all([store.db.selectFrom('kisi_emu_places').select('id').execute(), store.db.selectFrom('kisi_emu_events').select('uuid').execute()]);
    await store.close();
    expect([places, emulated]).toEqual([[], []]);
  });

  it('the emulator seeds its own store whatever the database\'s seed marker says: a database seeded long ago gets the organisation', async () => {
    // A first start long ago (its emulator tables since dropped by 012-kisi-emulator-moved-out): the marker is there, the emulator's store is not.
    const database = await openDatabase(testDatabase.url);
    expect(await seedIfEmpty(database.db, [])).toBe(true);
    await database.close();

    const running = await startServer(env(dir), () => {});
    const admin = await adminOf(running);
    const users = (await admin.get('/api/kisi/users?limit=100').expect(200)).body as KisiUser[];
    expect(users.length).toBeGreaterThan(30);
    const groups = (await admin.get('/api/kisi/groups?limit=100').expect(200)).body as Array<{ id: number; name: string }>;
    expect(groups.find((g) => g.name === 'Gym Members')?.id).toBe(running.kisi.settings.groupId);
    await running.close();
  });

  it('is the same history for the same organisation (seeded pseudo-random)', async () => {
    const now = new Date();
    const run = async (name: string) => {
      const target = await createTestDatabase(dir, name);
      const store = await openEmulatorDatabase(emulatorStoreBeside(target.url));
      await seedKisiOrganisation(store.db);
      const delivered: string[] = [];
      const events = await store.db.transaction().execute((trx) => seedKisiHistory(trx, { now, deliver: async (deliveries) => void delivered.push(...deliveries.map((d) => d.event.uuid)) }));
      await store.close();
      await target.drop();
      expect(delivered).toEqual(events.map((e) => e.uuid));
      return events.map(({ created_at: _at, ...rest }) => rest);
    };
    const [a, b] = [await run('a'), await run('b')];
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });
});
