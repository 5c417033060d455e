import request from 'supertest';
import { createTestContext, withTestContext, TEST_PASSWORD, type TestContext } from '../../test-support/test-app';
import type { LoginLimits } from './login-throttle';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, { loginLimits: { firstDelayMs: 1, delayStepMs: 1, accountDelayStepMs: 1 } });
});
afterAll(() => ctx.close());

const sidCookie = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('sid='));

describe('auth', () => {
  it('answers getAuth without a session with a 401 problem', async () => {
    const res = await request(ctx.app).get('/api/auth/getAuth').expect(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 401, title: 'Unauthorized' });
  });

  it('answers the session read with user null for a visitor, the user when signed in, never an error status', async () => {
    const visitor = await request(ctx.app).get('/api/auth/session').expect(200);
    expect(visitor.body).toEqual({ user: null });
    expect(visitor.headers['cache-control']).toBe('no-store');
    const agent = await ctx.loginAs('staff', 'session.reader@frontdesk.test');
    const me = await agent.get('/api/auth/session').expect(200);
    expect(me.body.user).toMatchObject({ email: 'session.reader@frontdesk.test', role: 'staff' });
    await agent.post('/api/auth/logout').expect(204);
    expect((await agent.get('/api/auth/session').expect(200)).body).toEqual({ user: null });
  });

  it('logs in, knows the user, logs out, and forgets the session', async () => {
    const agent = await ctx.loginAs('staff', 'front.desk@frontdesk.test');
    const me = await agent.get('/api/auth/getAuth').expect(200);
    expect(me.body.user).toEqual({ id: expect.any(Number), email: 'front.desk@frontdesk.test', name: 'Test staff', role: 'staff' });
    await agent.post('/api/auth/logout').expect(204);
    await agent.get('/api/auth/getAuth').expect(401);
  });

  it('sets an httpOnly, SameSite=Lax session cookie with the email normalised', async () => {
    await ctx.loginAs('runner', 'runner.one@frontdesk.test');
    const res = await request(ctx.app).post('/api/auth/login').send({ email: '  Runner.One@FrontDesk.test ', password: TEST_PASSWORD }).expect(200);
    const cookie = sidCookie(res);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    expect(res.body.user.role).toBe('runner');
  });

  it('marks the cookie Secure behind HTTPS', async () => {
    await withTestContext({ env: { TRUST_PROXY: '1' } }, async (secure) => {
      const agent = await secure.loginAs('staff');
      const res = await agent.post('/api/auth/login').set('X-Forwarded-Proto', 'https').send({ email: 'staff1@frontdesk.test', password: TEST_PASSWORD }).expect(200);
      expect(sidCookie(res)).toMatch(/Secure/);
    });
  });

  it('gives one generic 401 for a wrong password and for an unknown email', async () => {
    await ctx.loginAs('staff', 'known@frontdesk.test');
    const wrongPassword = await request(ctx.app).post('/api/auth/login').send({ email: 'known@frontdesk.test', password: 'nope-nope-nope' }).expect(401);
    const unknownEmail = await request(ctx.app).post('/api/auth/login').send({ email: 'ghost@frontdesk.test', password: 'nope-nope-nope' }).expect(401);
    expect(wrongPassword.body.detail).toBe('Wrong email or password.');
    expect(unknownEmail.body.detail).toBe(wrongPassword.body.detail);
    expect(sidCookie(wrongPassword)).toBeUndefined();
  });

  it('lists missing and mistyped login fields as a 400 problem', async () => {
    const res = await request(ctx.app).post('/api/auth/login').send({ email: 42 }).expect(400);
    expect(res.body.errors).toEqual([
      { path: 'body.email', message: 'Enter an email address' },
      { path: 'body.password', message: 'Enter your password' },
    ]);
  });

  it('rejects an expired session', async () => {
    const agent = await ctx.loginAs('staff', 'expiring@frontdesk.test');
    await ctx.database.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
    await agent.get('/api/auth/getAuth').expect(401);
  });

  it('rejects a revoked session while other accounts stay logged in', async () => {
    const revoked = await ctx.loginAs('staff', 'revoked@frontdesk.test');
    const other = await ctx.loginAs('staff', 'other@frontdesk.test');
    const account = await ctx.database.db.selectFrom('accounts').select('id').where('email', '=', 'revoked@frontdesk.test').executeTakeFirstOrThrow();
    await ctx.database.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('account_id', '=', account.id).execute();
    await revoked.get('/api/auth/getAuth').expect(401);
    await other.get('/api/auth/getAuth').expect(200);
  });

  it('ignores a forged session cookie', async () => {
    await request(ctx.app).get('/api/auth/getAuth').set('Cookie', 'sid=forged-token').expect(401);
  });
});

describe('login limits', () => {
  // Small limits and 1 ms waits (the waits themselves are login-throttle.test.ts's); TRUST_PROXY so each test picks its client address.
  const limited = (limits: Partial<LoginLimits>) => createTestContext({ TRUST_PROXY: '1' }, { loginLimits: { firstDelayMs: 1, delayStepMs: 1, accountDelayStepMs: 1, maxDelayMs: 1, ...limits } });
  const login = (app: TestContext['app'], from: string, email: string, password: string) =>
    request(app).post('/api/auth/login').set('X-Forwarded-For', from).send({ email, password });

  it('leaves the owner able to sign in after 20 wrong passwords from 20 addresses (the default limits, their waits shortened)', async () => {
    const c = await limited({});
    try {
      await c.loginAs('admin', 'owner@frontdesk.test');
      for (let i = 1; i <= 20; i++) await login(c.app, `198.51.100.${i}`, 'owner@frontdesk.test', 'guess-guess').expect(401);
      const signedIn = await login(c.app, '203.0.113.21', 'OWNER@frontdesk.test', TEST_PASSWORD).expect(200);
      expect(sidCookie(signedIn)).toBeDefined();
    } finally {
      await c.close();
    }
  });

  it('stops the address that guesses at an account, the right password from it too, and nobody else', async () => {
    const c = await limited({ failuresPerAddressAndAccount: 3 });
    try {
      await c.loginAs('staff', 'target@frontdesk.test');
      await c.loginAs('staff', 'bystander@frontdesk.test');
      const guesser = '198.51.100.1';
      const answers: number[] = [];
      for (let i = 0; i < 4; i++) answers.push((await login(c.app, guesser, 'target@frontdesk.test', 'guess-guess')).status);
      expect(answers).toEqual([401, 401, 429, 429]);
      const stopped = await login(c.app, guesser, 'TARGET@frontdesk.test', TEST_PASSWORD).expect(429);
      expect(stopped.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(Number(stopped.headers['retry-after'])).toBeGreaterThan(800);
      expect(stopped.body.detail).toBe('Too many wrong passwords for this account from your network. Try again in 15 minutes.');
      expect(sidCookie(stopped)).toBeUndefined();
      await login(c.app, '203.0.113.9', 'target@frontdesk.test', TEST_PASSWORD).expect(200);
      await login(c.app, guesser, 'bystander@frontdesk.test', TEST_PASSWORD).expect(200);
    } finally {
      await c.close();
    }
  });

  it('keeps the front desk signing in while someone on the same connection sprays passwords at many accounts', async () => {
    const c = await limited({ ceilingPerAddress: 10 });
    try {
      await c.loginAs('staff', 'desk@frontdesk.test');
      const desk = '192.0.2.10';
      const answers: number[] = [];
      for (let i = 0; i < 14; i++) answers.push((await login(c.app, desk, `guess${i}@frontdesk.test`, 'guess-guess')).status);
      // Up to the ceiling a wrong password is a 401; past it, a 429 that says the right one still works.
      expect(answers).toEqual([...Array(10).fill(401), ...Array(4).fill(429)]);
      const refused = await login(c.app, desk, 'guess99@frontdesk.test', 'guess-guess').expect(429);
      expect(refused.body.detail).toMatch(/a correct password still signs in/);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      await login(c.app, desk, 'desk@frontdesk.test', TEST_PASSWORD).expect(200);
    } finally {
      await c.close();
    }
  });

  it('signs in with the right password after a few wrong ones from the same address, and forgets them', async () => {
    const c = await limited({ freeFailuresPerAddressAndAccount: 2 });
    try {
      await c.loginAs('staff', 'typo@frontdesk.test');
      for (let i = 0; i < 4; i++) await login(c.app, '192.0.2.20', 'typo@frontdesk.test', 'typo-typo').expect(401);
      await login(c.app, '192.0.2.20', 'typo@frontdesk.test', TEST_PASSWORD).expect(200);
      const pair = await c.database.db.selectFrom('rate_limit_counters').select('key').where('key', 'like', 'login-pair:%').execute();
      expect(pair).toEqual([]);
    } finally {
      await c.close();
    }
  });
});
