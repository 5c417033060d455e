import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from './db/database';
import { authServiceOn } from './features/auth/auth.service';
import { startServer } from './server';
import { fakeTimersBesideIo } from './test-support/clock';
import { createTestDatabase, type TestDatabase } from './test-support/test-database';

let testDatabase: TestDatabase;

const env = (dir: string, extra: Record<string, string> = {}) => ({
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  DATABASE_URL: testDatabase.url,
  STATIC_DIR: path.join(dir, 'static'),
  ...extra,
});

describe('startServer', () => {
  let dir: string;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-server-'));
    testDatabase = await createTestDatabase(dir, 'app');
  });
  afterEach(async () => {
    await testDatabase.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates the admin with a generated password printed once, then only says how to log in', async () => {
    const lines: string[] = [];
    const first = await startServer(env(dir), (l) => lines.push(l));
    expect(lines[0]).toBe(`Frontdesk is running at ${first.url}`);
    const password = lines.join('\n').match(/password: (\S+)/)?.[1];
    expect(password).toBeDefined();
    const login = await fetch(`${first.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'admin@frontdesk.local', password }),
    });
    expect(login.status).toBe(200);
    await first.close();

    lines.length = 0;
    const second = await startServer(env(dir), (l) => lines.push(l));
    expect(lines.join('\n')).not.toMatch(/password:/);
    expect(lines.join('\n')).toMatch(/Log in at .*\/login/);
    await second.close();
  });

  it('uses ADMIN_PASSWORD when given and does not print it', async () => {
    const lines: string[] = [];
    const running = await startServer(env(dir, { ADMIN_EMAIL: 'boss@frontdesk.test', ADMIN_PASSWORD: 'a-long-enough-secret' }), (l) => lines.push(l));
    expect(lines.join('\n')).not.toContain('a-long-enough-secret');
    const login = await fetch(`${running.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'boss@frontdesk.test', password: 'a-long-enough-secret' }),
    });
    expect(login.status).toBe(200);
    await running.close();
  });

  /** Signs in over HTTP; the status says whether the password works. */
  const loginStatus = async (url: string, email: string, password: string | undefined) =>
    (await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })).status;

  it('a first start that fails after creating the admin leaves the next start showing a password that works', async () => {
    // The uploads directory cannot be made: the start fails after the admin and the demo data, before announcing.
    const blocker = path.join(dir, 'not-a-directory');
    fs.writeFileSync(blocker, '');
    const lines: string[] = [];
    await expect(startServer(env(dir, { UPLOADS_DIR: path.join(blocker, 'uploads') }), (l) => lines.push(l))).rejects.toThrow(/ENOTDIR/);
    expect(lines.join('\n')).not.toMatch(/password:/);

    const next = await startServer(env(dir), (l) => lines.push(l));
    const output = lines.join('\n');
    expect(output).toMatch(/First start: created the admin account\. Log in at .* with\n {2}email: {4}admin@frontdesk\.local\n {2}password: \S+/);
    expect(await loginStatus(next.url, 'admin@frontdesk.local', output.match(/password: (\S+)/)?.[1])).toBe(200);
    await next.close();

    // Announced once: the start after that only says where to log in.
    lines.length = 0;
    const third = await startServer(env(dir), (l) => lines.push(l));
    expect(lines.join('\n')).not.toMatch(/password:|First start/);
    await third.close();
  });

  it('a first start after an admin was added by hand names that admin and claims to have created none', async () => {
    const database = await openDatabase(testDatabase.url);
    const auth = authServiceOn(database.db, { sessionTtlMs: 0 });
    await auth.addAccount(null, { email: 'owner@frontdesk.test', name: 'Owner', role: 'admin', password: 'owner-chose-this-one' });
    await database.close();

    const lines: string[] = [];
    const running = await startServer(env(dir), (l) => lines.push(l));
    const output = lines.join('\n');
    expect(output).toContain(`Log in at ${running.url}/login (admin: owner@frontdesk.test;`);
    expect(output).not.toMatch(/First start|admin@frontdesk\.local|password:/);
    expect(await loginStatus(running.url, 'admin@frontdesk.local', 'anything-at-all-here')).toBe(401);
    await running.close();
  });

  it('a first start after only a staff account was added still creates the admin, and never promotes that account', async () => {
    const database = await openDatabase(testDatabase.url);
    const auth = authServiceOn(database.db, { sessionTtlMs: 0 });
    await auth.addAccount(null, { email: 'desk@frontdesk.test', name: 'Desk', role: 'staff', password: 'desk-chose-this-one' });
    await database.close();

    const lines: string[] = [];
    const first = await startServer(env(dir), (l) => lines.push(l));
    expect(lines.join('\n')).toMatch(/First start: created the admin account\. .*\n {2}email: {4}admin@frontdesk\.local/);
    await first.close();

    // ADMIN_EMAIL naming the staff account on a database without an admin: no promotion, and it says so.
    await testDatabase.drop();
    testDatabase = await createTestDatabase(dir, 'app2');
    const again = await openDatabase(testDatabase.url);
    await authServiceOn(again.db, { sessionTtlMs: 0 }).addAccount(null, {
      email: 'desk@frontdesk.test',
      name: 'Desk',
      role: 'staff',
      password: 'desk-chose-this-one',
    });
    await again.close();
    lines.length = 0;
    const second = await startServer(env(dir, { ADMIN_EMAIL: 'desk@frontdesk.test' }), (l) => lines.push(l));
    expect(lines.join('\n')).toContain('No admin account was created: desk@frontdesk.test (ADMIN_EMAIL) has another role');
    await second.close();
  });

  it('finishes a request in flight on shutdown and then refuses new connections', async () => {
    const running = await startServer(env(dir), () => {});
    // A slow upload: the server has the request, not yet its whole body, when close() starts.
    let req!: http.ClientRequest;
    const inFlight = new Promise<number>((resolve, reject) => {
      req = http.request(`${running.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"email":"nobody@frontdesk.test",');
    });
    await once(running.server, 'request');
    // The shutdown's timers (its sweep of idle connections, its 10 s grace) on a clock that moves only when told.
    fakeTimersBesideIo();
    try {
      const closed = running.close();
      req.end('"password":"wrong-password"}');
      expect(await inFlight).toBe(401);
      // The answered request's keep-alive connection does not hold the shutdown up: one sweep lets it go, long before the grace is over.
      await jest.advanceTimersByTimeAsync(100);
      await closed;
    } finally {
      jest.useRealTimers();
    }
    await expect(fetch(`${running.url}/api`)).rejects.toThrow();
  });
});
