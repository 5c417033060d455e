import { sql } from 'kysely';
import request from 'supertest';
import { createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';
import { testEngine } from '../../test-support/test-database';
import { until } from '../../test-support/until';
import { healthService } from './health.service';

let ctx: TestContext;
beforeAll(async () => {
  // The public name is set, as behind a balancer: probes still name the instance by its address.
  ctx = await createTestContext({ PUBLIC_ORIGIN: 'https://desk.example.com' });
});
afterAll(() => ctx.close());

/** The readiness answer once the live-event listeners have connected (PostgreSQL connects them just after the start; SQLite has none). */
async function readyAnswer() {
  await until(() => ctx.database.listenersConnected(), 'the live-event listeners connected');
  return request(ctx.app).get('/api/health/ready').set('Host', '10.0.0.5:3000');
}

describe('GET /api/health/live and /api/health/ready', () => {
  it('answer a probe that names the instance by its address, where the app itself refuses that host', async () => {
    await request(ctx.app).get('/api').set('Host', '10.0.0.5:3000').expect(421);
    const live = await request(ctx.app).get('/api/health/live').set('Host', '10.0.0.5:3000').expect(200);
    expect(live.body).toEqual({ status: 'live' });
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await readyAnswer();
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', liveEvents: testEngine() === 'postgres' ? 'ok' : 'not needed' } });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('says nothing of the database, versions or addresses', async () => {
    const text = (await readyAnswer()).text + (await request(ctx.app).get('/api/health/live')).text;
    expect(text).not.toMatch(/sqlite|postgres|\d+\.\d+\.\d+|frontdesk-test|127\.0\.0\.1/i);
  });

  it('is not ready while a migration this code needs is missing from the database, and ready again once it is there', async () => {
    const last = (await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(ctx.database.db)).rows[0]!;
    await sql`delete from kysely_migration where name = ${last.name}`.execute(ctx.database.db);
    try {
      const res = await request(ctx.app).get('/api/health/ready').expect(503);
      expect(res.type).toBe('application/problem+json');
      expect(res.body.errors).toEqual([{ path: 'migrations', message: 'The database lacks migrations this instance needs.' }]);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last.name}, ${new Date().toISOString()})`.execute(ctx.database.db);
    }
    expect((await readyAnswer()).status).toBe(200);
  });
});

describe('readiness checks', () => {
  const database = { engine: 'postgres' as const, isMigrated: async () => true, listenersConnected: () => true };
  const stillRunning = () => false;

  it('a database that fails or does not answer in time is a 503 naming it, without its error text', async () => {
    const refused = healthService({ database: { ...database, isMigrated: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432'), { code: 'ECONNREFUSED' })) }, isStopping: stillRunning });
    await expect(refused.ready()).rejects.toMatchObject({ status: 503, options: { errors: [{ path: 'database', message: 'The database cannot be reached.' }] } });
    const silent = healthService({ database: { ...database, isMigrated: () => new Promise<boolean>(() => {}) }, isStopping: stillRunning, timeoutMs: 20 });
    await expect(silent.ready()).rejects.toMatchObject({ status: 503, options: { errors: [{ path: 'database', message: 'The database did not answer within 20 ms.' }] } });
  });

  it('a live-event listener that is down is a 503 naming it', async () => {
    const deaf = healthService({ database: { ...database, listenersConnected: () => false }, isStopping: stillRunning });
    await expect(deaf.ready()).rejects.toMatchObject({ status: 503, options: { errors: [expect.objectContaining({ path: 'liveEvents' })] } });
    await expect(healthService({ database, isStopping: stillRunning }).ready()).resolves.toMatchObject({ status: 'ready' });
  });
});

describe('stopping', () => {
  it('is not ready once the instance drains, stays live, and closes each connection after its answer', async () => {
    await withTestContext({}, async (stopping) => {
      stopping.drain();
      const ready = await request(stopping.app).get('/api/health/ready').expect(503);
      expect(ready.body.errors).toEqual([expect.objectContaining({ path: 'stopping' })]);
      const live = await request(stopping.app).get('/api/health/live').expect(200);
      expect(live.headers.connection).toBe('close');
      expect((await request(stopping.app).get('/api')).headers.connection).toBe('close');
    });
  });
});
