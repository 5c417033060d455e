import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { DoorSyncStatus, GymMember, GymMemberRow } from './contracts/gym.contract';
import { startKisiEmulator, type KisiEmulator } from './kisi/emulator/emulator';
import { createLogger } from './lib/logger';
import { spawnBff, type SpawnedBff } from './test-support/spawn-bff';
import { tcpLink, type TcpLink } from './test-support/tcp-link';
import { createTestDatabase, testEngine, type TestDatabase } from './test-support/test-database';
import { untilAsync } from './test-support/until';

/**
 * Issue 53, whole processes: the BFF reaches Kisi (an emulator in this process, as a remote Kisi)
 * through a link the test cuts. Kisi away → a membership paused and another cancelled → the door
 * card answers a 502 problem and the members say they wait → the BFF restarts while they wait →
 * Kisi comes back → both have door access off in Kisi within a minute, with no click. On PostgreSQL
 * two instances send waiting switches together, each once.
 */
jest.setTimeout(120_000);

const ADMIN = { email: 'admin@away.test', password: 'a-long-admin-password' };
const SECRET = 'door-access-webhook-secret';
let dir: string;
let target: TestDatabase;
let emulator: KisiEmulator;
let link: TcpLink;
let env: Record<string, string>;
const running: SpawnedBff[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-door-away-'));
  target = await createTestDatabase(dir, 'away');
  emulator = await startKisiEmulator({ storeUrl: `file:${path.join(dir, 'kisi.db')}`, logger: createLogger('silent'), webhookSecret: SECRET, webhookUrl: () => undefined });
  link = await tcpLink(emulator.url);
  env = {
    DATABASE_URL: target.url,
    STATIC_DIR: path.join(dir, 'static'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    KISI_BASE_URL: link.url,
    KISI_API_KEY: emulator.apiKey,
    KISI_GROUP_ID: String(await emulator.defaultGroupId()),
    KISI_WEBHOOK_SECRET: SECRET,
  };
});
afterAll(async () => {
  await Promise.all(running.map((bff) => bff.stop()));
  await link?.close();
  await emulator?.close();
  await target?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const start = async () => {
  const bff = await spawnBff(env);
  running.push(bff);
  return bff;
};
const signIn = async (bff: SpawnedBff) => {
  const res = await request(bff.url).post('/api/auth/login').send(ADMIN).expect(200);
  const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0]!;
  const origin = new URL(bff.url).origin;
  return {
    get: (url: string) => request(bff.url).get(url).set('Cookie', cookie),
    patch: (url: string, body: object) => request(bff.url).patch(url).set('Cookie', cookie).set('Origin', origin).send(body),
  };
};
type Desk = Awaited<ReturnType<typeof signIn>>;
/** What Kisi has for a person, read in its own store (past the link). */
const kisiAccessOf = async (email: string) => (await emulator.database.db.selectFrom('kisi_emu_users').select('access_enabled').where('email', '=', email).executeTakeFirstOrThrow()).access_enabled;
const isOn = (value: unknown) => value === true || value === 1;
/** Seeded members with a Kisi account whose doors open: the first `n` not used yet. */
const used = new Set<number>();
async function activeKisiMembers(desk: Desk, n: number): Promise<GymMemberRow[]> {
  const page = (await desk.get('/api/gym/users?membership=active&pageSize=100').expect(200)).body as { items: GymMemberRow[] };
  const found = page.items.filter((m) => m.door.doors === 'open' && !used.has(m.id)).slice(0, n);
  expect(found).toHaveLength(n);
  for (const m of found) used.add(m.id);
  return found;
}

it('a pause and a cancel made while Kisi is away reach Kisi after a restart, once it is back, with no click', async () => {
  const first = await start();
  const desk = await signIn(first);
  const [paused, cancelled] = await activeKisiMembers(desk, 2);
  expect(isOn(await kisiAccessOf(paused!.email))).toBe(true);

  await link.cut();
  const pause = (await desk.patch(`/api/gym/users/${paused!.id}`, { membership: 'paused' }).expect(200)).body as GymMember;
  const cancel = (await desk.patch(`/api/gym/users/${cancelled!.id}`, { membership: 'cancelled' }).expect(200)).body as GymMember;
  for (const answer of [pause, cancel]) expect(answer.accessSync).toMatchObject({ state: 'pending', wantEnabled: false, waiting: expect.objectContaining({ nextTryAt: expect.any(String) }) });
  const card = await desk.get(`/api/gym/users/${paused!.id}/access`).expect(502);
  expect(card.body).toMatchObject({ status: 502, detail: expect.stringContaining('Kisi could not be reached') });
  expect((await desk.get('/api/gym/door-sync').expect(200)).body as DoorSyncStatus).toMatchObject({ kisi: 'unreachable', waiting: 2 });
  await request(first.url).get('/api/health/ready').expect(200);

  // A restart while the switches wait: they are in the database, not in the process.
  await first.stop();
  const second = await start();
  const again = await signIn(second);
  expect(((await again.get(`/api/gym/users/${paused!.id}`).expect(200)).body as GymMember).accessSync).toMatchObject({ state: 'pending', waiting: expect.anything() });
  expect(isOn(await kisiAccessOf(paused!.email))).toBe(true);

  await link.restore();
  const back = performance.now();
  await untilAsync(async () => !isOn(await kisiAccessOf(paused!.email)) && !isOn(await kisiAccessOf(cancelled!.email)), 'both switched off in Kisi', 60_000);
  console.info(`after a restart, door access followed ${Math.round(performance.now() - back)} ms after Kisi came back`);
  await untilAsync(async () => ((await again.get('/api/gym/door-sync')).body as DoorSyncStatus).waiting === 0, 'nothing waits', 10_000);
  expect(((await again.get(`/api/gym/users/${cancelled!.id}`).expect(200)).body as GymMember).accessSync).toMatchObject({ state: 'synced', confirmedEnabled: false, waiting: null });
  await second.stop();
});

(testEngine() === 'postgres' ? it : it.skip)('two instances send the waiting switches together, each once', async () => {
  const [a, b] = [await start(), await start()];
  const [deskA, deskB] = [await signIn(a), await signIn(b)];
  const members = await activeKisiMembers(deskA, 6);
  await link.cut();
  for (const [i, m] of members.entries()) await (i % 2 ? deskA : deskB).patch(`/api/gym/users/${m.id}`, { membership: 'paused' }).expect(200);
  const kisiIds = new Map<string, number>();
  for (const m of members) kisiIds.set(m.email, (await emulator.database.db.selectFrom('kisi_emu_users').select('id').where('email', '=', m.email).executeTakeFirstOrThrow()).id);
  const sentBefore = link.requests.length;

  await link.restore();
  await untilAsync(async () => (await Promise.all(members.map((m) => kisiAccessOf(m.email)))).every((on) => !isOn(on)), 'all six switched off in Kisi', 60_000);
  await untilAsync(async () => ((await deskB.get('/api/gym/door-sync')).body as DoorSyncStatus).waiting === 0, 'nothing waits', 10_000);
  const patches = link.requests.slice(sentBefore).filter((r) => r.startsWith('PATCH /users/'));
  for (const m of members) expect({ email: m.email, sends: patches.filter((r) => r === `PATCH /users/${kisiIds.get(m.email)}`).length }).toEqual({ email: m.email, sends: 1 });
});
