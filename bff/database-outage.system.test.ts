import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnBff, type SpawnedBff } from './test-support/spawn-bff';
import { testEngine } from './test-support/test-database';
import { startThrowawayPostgres, type ThrowawayPostgres } from './test-support/throwaway-postgres';

/**
 * PostgreSQL stopped (a fast shutdown, as a restart or a failover does) under a running instance:
 * requests get a 503 problem with Retry-After, never a 500, readiness says not ready; PostgreSQL
 * back on the same port, the instance serves again by itself, its pool and live-event listener
 * reconnected. Runs under `npm run test:postgres` (it needs PostgreSQL's programs), on a cluster of its own.
 */
jest.setTimeout(90_000);
const onPostgres = testEngine() === 'postgres' ? describe : describe.skip;

onPostgres('a PostgreSQL outage', () => {
  let dir: string;
  let postgres: ThrowawayPostgres;
  let bff: SpawnedBff;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-outage-'));
    postgres = await startThrowawayPostgres();
    bff = await spawnBff({ DATABASE_URL: postgres.url, DATABASE_CONNECT_TIMEOUT_MS: '1000', UPLOADS_DIR: path.join(dir, 'uploads'), ADMIN_PASSWORD: 'outage-test-admin-password' });
  });
  afterAll(async () => {
    await bff?.stop();
    await postgres?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (route: string) => fetch(`${bff.url}${route}`);
  async function until(route: string, status: number) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await get(route);
      if (res.status === status || Date.now() > deadline) return res;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('answers 503 with Retry-After while PostgreSQL is away, and serves again by itself when it is back', async () => {
    expect((await until('/api/health/ready', 200)).status).toBe(200);
    expect((await get('/api/pt/stalls')).status).toBe(200);

    await postgres.pause();
    const away = await get('/api/pt/stalls');
    expect(away.status).toBe(503);
    expect(away.headers.get('retry-after')).toBe('5');
    expect(away.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await away.json()).toMatchObject({ status: 503, detail: 'The service is briefly unavailable. Try again in a few seconds.' });
    const notReady = await get('/api/health/ready');
    expect(notReady.status).toBe(503);
    expect(((await notReady.json()) as { errors: Array<{ path: string }> }).errors.map((e) => e.path)).toContain('database');
    expect((await get('/api/health/live')).status).toBe(200);

    await postgres.resume();
    expect((await until('/api/health/ready', 200)).status).toBe(200);
    expect((await get('/api/pt/stalls')).status).toBe(200);
    expect(bff.child.exitCode).toBeNull();
  });
});
