import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { KisiEvent } from '../../contracts/webhook.contract';
import { spawnBff, type SpawnedBff } from '../../test-support/spawn-bff';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { freePort } from '../../test-support/free-port';

/**
 * Issue 17, item 6: no door event is lost while the BFF is down. Kisi (the emulator in a process of
 * its own, as a remote Kisi is) posts each unlock's webhook once and gives up on a receiver that is
 * away; when the BFF starts again it reads what it missed from Kisi's event log.
 */
jest.setTimeout(90_000);

const ADMIN = { email: 'admin@catch-up.test', password: 'a-long-admin-password' };
const KEY = 'catch-up-test-kisi-key';
const SECRET = 'catch-up-test-webhook-secret';
/** The integration user that remote unlocks act as (the emulator's seeded API user). */
const INTEGRATION_EMAIL = 'frontdesk-api@harbourside.example';

let dir: string;
let target: TestDatabase;
let kisi: { url: string; groupId: string; child: ChildProcess };
let bff: SpawnedBff | undefined;
let env: Record<string, string>;

/** Starts bff/kisi/emulator/emulator.cli.ts and waits for the address it prints. */
async function startEmulator(extra: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bff/kisi/emulator/emulator.cli.ts'], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const started = new Promise<{ url: string; groupId: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The emulator did not start within 30 s:\n${output}`)), 30_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Kisi emulator is running at (http:\/\/\S+)/.exec(output)?.[1];
      const groupId = /KISI_GROUP_ID=(\d+)/.exec(output)?.[1];
      if (url && groupId) {
        clearTimeout(timer);
        resolve({ url, groupId });
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code) => reject(new Error(`The emulator exited (${code}):\n${output}`)));
  });
  return { ...(await started), child };
}

/** Unlocks a door at Kisi itself (with or without a BFF to hear of it); the event Kisi logged. */
async function unlockAtKisi(lockId: number): Promise<void> {
  const res = await fetch(`${kisi.url}/locks/${lockId}/unlock`, { method: 'POST', headers: { Authorization: `KISI-LOGIN ${KEY}`, 'Content-Type': 'application/json' } });
  await res.arrayBuffer();
}

/** Every lock.unlock in Kisi's log, oldest first. */
async function kisiUnlocks(): Promise<string[]> {
  const res = await fetch(`${kisi.url}/events?type=lock.unlock&limit=250`, { headers: { Authorization: `KISI-LOGIN ${KEY}` } });
  return ((await res.json()) as Array<{ uuid: string }>).map((e) => e.uuid).reverse();
}

async function signIn(server: SpawnedBff) {
  const agent = request.agent(server.url);
  await agent.post('/api/auth/login').send(ADMIN).expect(200);
  return agent;
}

/** The inbox's unlocks, oldest first, once `count` are there (or whatever is there after 15 s). */
async function inboxUnlocks(agent: ReturnType<typeof request.agent>, count: number): Promise<KisiEvent[]> {
  const end = Date.now() + 15_000;
  for (;;) {
    const items = ((await agent.get('/api/webhook?type=lock.unlock&pageSize=100').expect(200)).body as { items: KisiEvent[] }).items.reverse();
    if (items.length >= count || Date.now() > end) return items;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-catch-up-'));
  target = await createTestDatabase(dir, 'catchup');
  // The server refuses to start in production without a client build; an empty page stands in for it.
  fs.mkdirSync(path.join(dir, 'static'));
  fs.writeFileSync(path.join(dir, 'static', 'index.html'), '<!doctype html><title>Frontdesk</title>');
  const port = await freePort();
  kisi = await startEmulator({
    DATABASE_URL: `file:${path.join(dir, 'kisi.db')}`,
    KISI_API_KEY: KEY,
    KISI_WEBHOOK_SECRET: SECRET,
    KISI_WEBHOOK_URL: `http://127.0.0.1:${port}/api/webhooks/kisi`,
  });
  env = {
    DATABASE_URL: target.url,
    PORT: String(port),
    STATIC_DIR: path.join(dir, 'static'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    KISI_BASE_URL: kisi.url,
    KISI_API_KEY: KEY,
    KISI_GROUP_ID: kisi.groupId,
    KISI_WEBHOOK_SECRET: SECRET,
  };
});
afterAll(async () => {
  await bff?.stop();
  if (kisi?.child.exitCode === null) {
    const exited = new Promise((resolve) => kisi.child.once('exit', resolve));
    kisi.child.kill('SIGTERM');
    await exited;
  }
  await target?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('door events while the BFF is down', () => {
  it('reach the inbox and the person’s unlocks once the BFF is back, each exactly once, with no holes', async () => {
    bff = await spawnBff(env);
    let admin = await signIn(bff);
    // Up: an unlock through the BFF's proxy, its webhook delivered.
    await admin.post('/api/kisi/locks/1/unlock').expect(200);
    expect((await inboxUnlocks(admin, 1)).length).toBe(1);

    // Down: Kisi logs three unlocks (one a refusal at the locked-down Server Room); their webhooks fail.
    await bff.stop();
    bff = undefined;
    await unlockAtKisi(2);
    await unlockAtKisi(6);
    await unlockAtKisi(1);
    const logged = await kisiUnlocks();
    expect(logged).toHaveLength(4);

    // Back up: the start-up catch-up stores what was missed.
    bff = await spawnBff(env);
    admin = await signIn(bff);
    let inbox = await inboxUnlocks(admin, 4);
    expect(inbox.map((e) => e.uuid)).toEqual(logged);
    expect(inbox.map((e) => e.success)).toEqual([true, true, false, true]);

    // And live again: the next unlock's webhook arrives as before, nothing is stored twice.
    await admin.post('/api/kisi/locks/2/unlock').expect(200);
    const all = await kisiUnlocks();
    inbox = await inboxUnlocks(admin, 5);
    expect(inbox.map((e) => e.uuid)).toEqual(all);
    const unlocks = (await admin.get(`/api/webhooks/unlocks?email=${INTEGRATION_EMAIL}&pageSize=100`).expect(200)).body as { items: KisiEvent[]; total: number };
    expect(unlocks.total).toBe(5);
    expect(unlocks.items.map((e) => e.uuid).reverse()).toEqual(all);
  });
});
