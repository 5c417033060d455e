import SQLite from 'better-sqlite3';
import pg from 'pg';
import request from 'supertest';
import { loadConfig } from '../config';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../test-support/test-app';
import { testEngine } from '../test-support/test-database';
import { sqliteFileOf } from './engine';

/**
 * A request whose query cannot finish (here: stuck behind a lock another session holds) is answered
 * 503 with Retry-After once the engine gives up on it, instead of holding the request for as long as
 * the lock is held. PostgreSQL: DATABASE_STATEMENT_TIMEOUT_MS. SQLite: its busy timeout (5 s).
 */
jest.setTimeout(30_000);

describe('DATABASE_STATEMENT_TIMEOUT_MS', () => {
  it('defaults to 15 s, takes 0 for no limit, and refuses what is not a sane timeout', () => {
    expect(loadConfig({}).DATABASE_STATEMENT_TIMEOUT_MS).toBe(15_000);
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).DATABASE_STATEMENT_TIMEOUT_MS).toBe(0);
    for (const bad of ['50', '-1', 'soon', '600001']) expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: bad })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
  });
});

describe('a query stuck behind a lock', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ DATABASE_STATEMENT_TIMEOUT_MS: '300' });
  });
  afterAll(() => ctx.close());

  const expectBriefOutage = (res: { status: number; headers: Record<string, string>; body: unknown }) => {
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({ status: 503, detail: 'The service is briefly unavailable. Try again in a few seconds.' });
  };

  (testEngine() === 'postgres' ? it : it.skip)('PostgreSQL: answers 503 with Retry-After after the statement timeout, and serves again once the lock is gone', async () => {
    const holder = new pg.Client({ connectionString: ctx.config.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table stalls in access exclusive mode');
      const started = Date.now();
      const res = await request(ctx.app).get('/api/pt/stalls');
      expectBriefOutage(res);
      expect(Date.now() - started).toBeLessThan(3_000);
      await holder.query('commit');
      await request(ctx.app).get('/api/pt/stalls').expect(200);
    } finally {
      await holder.end();
    }
  });

  (testEngine() === 'sqlite' ? it : it.skip)('SQLite: a write waiting for the write lock answers 503 with Retry-After after the busy timeout', async () => {
    const email = 'busy@frontdesk.test';
    const agent = await ctx.loginAs('staff', email);
    const holder = new SQLite(sqliteFileOf(ctx.config.DATABASE_URL));
    try {
      holder.exec('begin immediate');
      const started = Date.now();
      // Signing in writes a session: it waits for the lock, and the busy timeout ends the wait.
      const res = await agent.post('/api/auth/login').send({ email, password: TEST_PASSWORD });
      expectBriefOutage(res);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
      holder.exec('commit');
      await agent.post('/api/auth/login').send({ email, password: TEST_PASSWORD }).expect(200);
    } finally {
      holder.close();
    }
  });
});
