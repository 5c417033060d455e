import { EventEmitter, once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { openDatabase } from './db/database';
import { emulatorStoreBeside, openEmulatorDatabase } from './kisi/emulator/emulator.database';
import { KISI_RATE_MARGIN_MS, KISI_RATE_WINDOW_MS } from './kisi/rate-limiter';
import { signBody } from './kisi/signature';
import { spawnBff, type SpawnedBff } from './test-support/spawn-bff';
import { createTestDatabase, testEngine, type TestDatabase } from './test-support/test-database';

/**
 * Two BFF instances on one PostgreSQL — two processes, as `npm run serve` twice — started at the
 * same moment as a deployment would start them, behave as one product: sessions, live events, webhook de-duplication and the limits hold
 * across them. (SQLite is one instance by design: this runs in the PostgreSQL pass.)
 */
const onPostgres = testEngine() === 'postgres' ? describe : describe.skip;
jest.setTimeout(30_000);

const ADMIN = { email: 'admin@scale.test', password: 'a-long-admin-password' };
const SECRET = 'scale-out-webhook-secret';
let dir: string;
let target: TestDatabase;
let a: SpawnedBff;
let b: SpawnedBff;

onPostgres('two instances on one PostgreSQL', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-scale-'));
    target = await createTestDatabase(dir, 'scale');
    const env = {
      DATABASE_URL: target.url,
      STATIC_DIR: path.join(dir, 'static'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      KISI_WEBHOOK_SECRET: SECRET,
      // The login limit counts by client address: the test names one per attempt.
      TRUST_PROXY: '1',
    };
    [a, b] = await Promise.all([spawnBff(env), spawnBff(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await target.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const login = async (server: SpawnedBff, credentials = ADMIN) => {
    const res = await request(server.url).post('/api/auth/login').send(credentials);
    return { status: res.status, cookie: String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '' };
  };

  /** Holds `GET /api/events` open and collects its text. */
  function openStream(server: SpawnedBff, cookie: string, headers: Record<string, string> = {}) {
    let text = '';
    let isEnded = false;
    let onEnd = () => {};
    const ended = new Promise<void>((resolve) => (onEnd = resolve));
    const req = http.get(`${server.url}/api/events`, { headers: { cookie, ...headers } });
    req.on('error', () => {}); // close() destroys it
    const news = new EventEmitter();
    const ready = new Promise<number>((resolve) => {
      req.on('response', (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => news.emit('news', (text += chunk)));
        res.on('end', () => {
          isEnded = true;
          onEnd();
          news.emit('news');
        });
        resolve(res.statusCode ?? 0);
      });
    });
    /** The text once `pattern` matches it, looking again as each piece arrives; fails when the stream ends first. */
    const waitFor = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        if (isEnded) throw new Error(`The stream ended without ${pattern}:\n${text}`);
        await once(news, 'news');
      }
      return text;
    };
    return { ready, waitFor, ended, isEnded: () => isEnded, text: () => text, close: () => req.destroy() };
  }

  let seq = 0;
  const webhookBody = () =>
    JSON.stringify({
      uuid: `5ca1e000-0000-4000-8000-${String(++seq).padStart(12, '0')}`,
      actor_type: 'User',
      actor_email: 'nadia.okoye@harbourside.example',
      actor_name: 'Nadia Okoye',
      object_type: 'Lock',
      object_id: 1,
      object_name: 'Main Entrance',
      success: true,
      type: 'lock.unlock',
      created_at: new Date().toISOString(),
    });
  const deliver = (server: SpawnedBff, body: string) =>
    request(server.url).post('/api/webhooks/kisi').set('Content-Type', 'application/json').set('X-Signature', signBody(body, SECRET)).send(body);

  it('started together, they created one admin and seeded the demo data once', async () => {
    const { cookie } = await login(a);
    const owners = await request(b.url).get('/api/gym/owners?page=0&pageSize=100').set('Cookie', cookie).expect(200);
    const { items, total } = owners.body as { items: Array<{ email: string }>; total: number };
    expect(total).toBeGreaterThan(0);
    expect(items).toHaveLength(total);
    expect(new Set(items.map((o) => o.email)).size).toBe(total);
    const database = await openDatabase(target.url);
    const accounts = await database.db.selectFrom('accounts').select(['email', 'role']).execute();
    const seeded = await database.db.selectFrom('app_meta').select('key').where('key', '=', 'seeded_at').execute();
    const received = await database.db.selectFrom('kisi_events').select('uuid').execute();
    await database.close();
    expect(accounts).toEqual([{ email: ADMIN.email, role: 'admin' }]);
    expect(seeded).toHaveLength(1);
    // Each instance runs its own emulator over the one store: one organisation, one past, delivered once.
    const emulator = await openEmulatorDatabase(emulatorStoreBeside(target.url));
    const places = await emulator.db.selectFrom('kisi_emu_places').select('name').execute();
    const recorded = await emulator.db.selectFrom('kisi_emu_events').select('uuid').execute();
    await emulator.close();
    expect(places).toHaveLength(2);
    expect(recorded.length).toBeGreaterThan(100);
    expect(received.map((e) => e.uuid).sort()).toEqual(recorded.map((e) => e.uuid).sort());
  });

  it('a session made through A works on B, and logging out on A ends it on B at once', async () => {
    const { status, cookie } = await login(a);
    expect(status).toBe(200);
    await request(b.url).get('/api/auth/getAuth').set('Cookie', cookie).expect(200);
    await request(a.url).post('/api/auth/logout').set('Cookie', cookie).set('Content-Type', 'application/json').send('{}').expect(204);
    // B hears of it through PostgreSQL's NOTIFY, a moment after A answers: well before B's 5 s session cache would let it go.
    const askedAt = performance.now();
    while ((await request(b.url).get('/api/auth/getAuth').set('Cookie', cookie)).status !== 401) {
      expect(performance.now() - askedAt).toBeLessThan(3_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('logging out on A closes that session\'s event stream on B at once, long before a heartbeat would', async () => {
    const { cookie } = await login(a);
    const { cookie: other } = await login(a);
    const leaving = openStream(b, cookie);
    const staying = openStream(b, other);
    await Promise.all([leaving.ready, staying.ready]);
    await Promise.all([leaving.waitFor(/retry/), staying.waitFor(/retry/)]);
    await request(a.url).post('/api/auth/logout').set('Cookie', cookie).set('Content-Type', 'application/json').send('{}').expect(204);
    await leaving.ended;
    // Ended by the logout, not by a heartbeat finding the session gone (the first is 15 s away): none came.
    // Its last frame tells the tab on B it is signed out, so it does not reconnect into a 401.
    expect(leaving.text()).toMatch(/^retry: 3000\nid: \d+\n\nevent: session-ended\ndata: \{\}\n\n$/);
    expect(staying.isEnded()).toBe(false);
    staying.close();
  });

  it('a signed webhook posted to A reaches an event stream held on B', async () => {
    const { cookie } = await login(b);
    const stream = openStream(b, cookie);
    expect(await stream.ready).toBe(200);
    await stream.waitFor(/retry: 3000/);
    const body = webhookBody();
    const uuid = (JSON.parse(body) as { uuid: string }).uuid;
    await deliver(a, body).expect(200);
    expect(await stream.waitFor(new RegExp(uuid))).toMatch(new RegExp(`id: \\d+\\nevent: webhook\\ndata: .*${uuid}`));
    stream.close();
  });

  it('20 identical deliveries split across A and B store the event once and send it live once', async () => {
    const { cookie } = await login(a);
    const stream = openStream(a, cookie);
    await stream.ready;
    const body = webhookBody();
    const uuid = (JSON.parse(body) as { uuid: string }).uuid;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => deliver(i % 2 ? a : b, body)));
    const statuses = answers.map((res) => (res.body as { status: string }).status);
    expect(statuses.filter((s) => s === 'stored')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'duplicate')).toHaveLength(19);

    const unlocks = await request(b.url).get('/api/webhooks/unlocks?email=nadia.okoye@harbourside.example&page=0&pageSize=100').set('Cookie', cookie).expect(200);
    expect((unlocks.body as { items: Array<{ uuid: string }> }).items.filter((e) => e.uuid === uuid)).toHaveLength(1);
    await stream.waitFor(new RegExp(uuid));
    // Events go out in id order: once a later one has come, a second copy of this one never will.
    const later = webhookBody();
    await deliver(b, later).expect(200);
    await stream.waitFor(new RegExp((JSON.parse(later) as { uuid: string }).uuid));
    expect(stream.text().split(uuid).length - 1).toBe(1);
    stream.close();
  });

  it('a browser that reconnects to the other instance resumes after its Last-Event-ID', async () => {
    const { cookie } = await login(a);
    const first = openStream(a, cookie);
    await first.ready;
    const before = webhookBody();
    await deliver(a, before).expect(200);
    const seen = await first.waitFor(new RegExp((JSON.parse(before) as { uuid: string }).uuid));
    const lastId = [...seen.matchAll(/^id: (\d+)$/gm)].at(-1)![1]!;
    first.close();

    // While it is away, two more events arrive, one through each instance.
    const missed = [webhookBody(), webhookBody()];
    await deliver(b, missed[0]!).expect(200);
    await deliver(a, missed[1]!).expect(200);

    const resumed = openStream(b, cookie, { 'Last-Event-ID': lastId });
    await resumed.ready;
    const text = await resumed.waitFor(new RegExp((JSON.parse(missed[1]!) as { uuid: string }).uuid));
    const uuids = missed.map((m) => (JSON.parse(m) as { uuid: string }).uuid);
    expect(text.indexOf(uuids[0]!)).toBeGreaterThan(-1);
    expect(text.indexOf(uuids[0]!)).toBeLessThan(text.indexOf(uuids[1]!));
    expect(text).not.toContain((JSON.parse(before) as { uuid: string }).uuid);
    resumed.close();
  });

  it("an instance that lost its database listening connection reads what it missed once it is back", async () => {
    const { cookie } = await login(b);
    const stream = openStream(b, cookie);
    await stream.ready;
    await stream.waitFor(/retry: 3000/);
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'frontdesk-listen' and datname = current_database()");
    await admin.end();
    // Posted while B hears nothing: the notification is lost, the row is not.
    const body = webhookBody();
    await deliver(a, body).expect(200);
    expect(await stream.waitFor(new RegExp((JSON.parse(body) as { uuid: string }).uuid))).toContain((JSON.parse(body) as { uuid: string }).uuid);
    stream.close();
  });

  it('counts login failures for one account across both instances: after 20, from 20 addresses, either slows the account down and neither locks it', async () => {
    const wrong = { email: 'nobody@scale.test', password: 'not-the-password' };
    const attempt = (server: SpawnedBff, address: string) => request(server.url).post('/api/auth/login').set('X-Forwarded-For', address).send(wrong);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(i % 2 ? a : b, `198.51.100.${i + 1}`)));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(401));
    for (const [server, address] of [[a, '203.0.113.1'], [b, '203.0.113.2']] as const) {
      const started = Date.now();
      // Checked (a 401, not a 429), after the account's wait: 0.25 s a failure past 10 of both instances' 20, 2.75 s.
      expect((await attempt(server, address)).status).toBe(401);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
    }
  });

  it("keeps Kisi's 5 requests/s for both together: of 20 proxied reads, 10 on each, no more than 5 start in any window", async () => {
    const { cookie } = await login(a);
    // Every start the shared window grants, as the database's clock timed it (the window itself forgets old ones).
    const database = new pg.Client({ connectionString: target.url });
    await database.connect();
    await database.query('create table seen_kisi_starts (started_at_ms bigint not null)');
    await database.query(`create function note_kisi_start() returns trigger language plpgsql as $$
      begin if new.bucket = 'kisi' then insert into seen_kisi_starts values (new.started_at_ms); end if; return new; end $$`);
    await database.query('create trigger note_kisi_start after insert on rate_window_starts for each row execute function note_kisi_start()');
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => request((i % 2 ? a : b).url).get('/api/kisi/users?limit=1').set('Cookie', cookie)),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
      const starts = (await database.query<{ at: string }>('select started_at_ms as at from seen_kisi_starts order by started_at_ms')).rows.map((r) => Number(r.at));
      expect(starts.length).toBeGreaterThanOrEqual(20);
      // Per instance, 10 calls would fit in two windows; shared, any sixth start is a whole window (1 s and its margin) after the first of five.
      const tooClose = starts.slice(5).filter((at, i) => at - starts[i]! < KISI_RATE_WINDOW_MS + KISI_RATE_MARGIN_MS);
      expect(tooClose).toEqual([]);
    } finally {
      await database.query('drop trigger note_kisi_start on rate_window_starts; drop function note_kisi_start(); drop table seen_kisi_starts');
      await database.end();
    }
  });
});
