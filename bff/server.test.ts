import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './server';
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

  it('finishes a request in flight on shutdown and then refuses new connections', async () => {
    const running = await startServer(env(dir), () => {});
    // A slow upload: the request is in flight when close() starts.
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = http.request(`${running.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"email":"nobody@frontdesk.test",');
      setTimeout(() => req.end('"password":"wrong-password"}'), 150);
    });
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const closed = running.close();
    expect(await inFlight).toBe(401);
    await closed;
    // The answered request's keep-alive connection does not hold the shutdown up.
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(fetch(`${running.url}/api`)).rejects.toThrow();
  });
});
