import request from 'supertest';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../test-support/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, { loginRateLimit: { windowMs: 60_000, perIp: 8, perEmail: 3 } });
});
afterAll(() => ctx.close());

const sidCookie = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('sid='));

describe('auth', () => {
  it('answers getAuth without a session with a 401 problem', async () => {
    const res = await request(ctx.app).get('/api/auth/getAuth').expect(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 401, title: 'Unauthorized' });
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
    const secure = await createTestContext({ TRUST_PROXY: '1' });
    try {
      const agent = await secure.loginAs('staff');
      const res = await agent.post('/api/auth/login').set('X-Forwarded-Proto', 'https').send({ email: 'staff1@frontdesk.test', password: TEST_PASSWORD }).expect(200);
      expect(sidCookie(res)).toMatch(/Secure/);
    } finally {
      await secure.close();
    }
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
      { path: 'body.email', message: 'Expected an email address' },
      { path: 'body.password', message: 'Required' },
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

describe('login rate limit', () => {
  it('answers 429 with Retry-After after too many failures for one email', async () => {
    const limited = await createTestContext({}, { loginRateLimit: { windowMs: 60_000, perIp: 100, perEmail: 3 } });
    try {
      for (let i = 0; i < 3; i++) await request(limited.app).post('/api/auth/login').send({ email: 'target@frontdesk.test', password: 'guess-guess' }).expect(401);
      const res = await request(limited.app).post('/api/auth/login').send({ email: 'TARGET@frontdesk.test', password: 'guess-guess' }).expect(429);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.detail).toMatch(/Too many login attempts/);
      // Another email from the same client is still allowed.
      await request(limited.app).post('/api/auth/login').send({ email: 'someone.else@frontdesk.test', password: 'guess-guess' }).expect(401);
    } finally {
      await limited.close();
    }
  });

  it('limits failures per client IP across emails', async () => {
    const limited = await createTestContext({}, { loginRateLimit: { windowMs: 60_000, perIp: 4, perEmail: 100 } });
    try {
      for (let i = 0; i < 4; i++) await request(limited.app).post('/api/auth/login').send({ email: `spray${i}@frontdesk.test`, password: 'guess-guess' }).expect(401);
      await request(limited.app).post('/api/auth/login').send({ email: 'spray9@frontdesk.test', password: 'guess-guess' }).expect(429);
    } finally {
      await limited.close();
    }
  });
});
