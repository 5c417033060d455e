import request from 'supertest';
import type { OwnAccount } from '../../contracts/account.contract';
import { createTestContext, TEST_PASSWORD, type TestContext } from '../../test-support/test-app';
import { WRONG_CURRENT_PASSWORD } from './own-account.service';

const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36';
const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const TABLET = 'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1';
const NEW_PASSWORD = 'a-brand-new-password';
type Agent = ReturnType<typeof request.agent>;

let ctx: TestContext;
beforeAll(async () => {
  // TRUST_PROXY: each test says which address it signs in from. Wrong current passwords count as failed logins: 3 stop an address here.
  ctx = await createTestContext({ TRUST_PROXY: '1' }, { loginLimits: { failuresPerAddressAndAccount: 3, freeFailuresPerAddressAndAccount: 1, firstDelayMs: 1, delayStepMs: 1, accountDelayStepMs: 1 } });
});
afterAll(() => ctx.close());

let seq = 0;
/** A new account of `role`, signed in from each of `browsers` (the first is the one the test holds). */
async function person(browsers: string[], role: 'admin' | 'staff' | 'runner' = 'staff') {
  const email = `own-${++seq}@frontdesk.test`;
  const first = await ctx.loginAs(role, email);
  // loginAs' own session is the oldest, "Unknown browser" (supertest names none): ended here so each test starts with its browsers only.
  await first.post('/api/auth/logout').expect(204);
  const agents: Agent[] = [];
  for (const [i, browser] of browsers.entries()) agents.push(await signIn(email, browser, `198.51.100.${seq}${i}`));
  return { email, agents };
}
async function signIn(email: string, browser: string, address: string, password = TEST_PASSWORD) {
  const agent = request.agent(ctx.app);
  await agent.post('/api/auth/login').set('User-Agent', browser).set('X-Forwarded-For', address).send({ email, password }).expect(200);
  return agent;
}
const accountOf = async (agent: Agent) => (await agent.get('/api/account').expect(200)).body as OwnAccount;
const auditOf = (email: string) =>
  ctx.database.db.selectFrom('audit_entries').select(['actor_email as actor', 'kind', 'action', 'changes']).where('subject', 'like', `%<${email}>`).orderBy('id').execute();

describe('your account', () => {
  it('shows your account and where you are signed in, this browser marked, the latest seen first; nobody else’s', async () => {
    const { email, agents } = await person([PHONE, LAPTOP, TABLET]);
    const [phone, laptop] = agents as [Agent, Agent];
    await person([PHONE]);
    // Seen just now on the phone, 30 s ago on the laptop, 5 minutes ago on the tablet (a read of a session writes when it was seen, at most once a minute).
    const seenAgo = (browser: string, ms: number) =>
      ctx.database.db
        .updateTable('sessions')
        .set({ last_seen_at: new Date(Date.now() - ms).toISOString() })
        .where('user_agent', '=', browser)
        .where('account_id', 'in', (eb) => eb.selectFrom('accounts').select('id').where('email', '=', email))
        .execute();
    await Promise.all([seenAgo(PHONE, 0), seenAgo(LAPTOP, 30_000), seenAgo(TABLET, 300_000)]);

    const seenFromPhone = await phone.get('/api/account').expect(200);
    expect(seenFromPhone.headers['cache-control']).toBe('no-store');
    const account = seenFromPhone.body as OwnAccount;
    expect(account).toMatchObject({ email, name: 'Test staff', role: 'staff', hasPassword: true, passkeys: [] });
    const from = (i: number) => `198.51.100.${seq - 1}${i}`;
    expect(account.sessions.map(({ browser, address, current }) => ({ browser, address, current }))).toEqual([
      { browser: 'Chrome on Android', address: from(0), current: true },
      { browser: 'Firefox on Windows', address: from(1), current: false },
      { browser: 'Safari on iPad', address: from(2), current: false },
    ]);
    const lastSeen = account.sessions.map((s) => Date.parse(s.lastSeenAt));
    expect(lastSeen).toEqual([...lastSeen].sort((a, b) => b - a));
    expect(account.sessions.every((s) => Date.now() - Date.parse(s.signedInAt) < 60_000)).toBe(true);
    expect((await accountOf(laptop)).sessions.filter((s) => s.current).map((s) => s.browser)).toEqual(['Firefox on Windows']);
  });

  it('lists your passkeys', async () => {
    const { email, agents } = await person([PHONE]);
    const { id } = await ctx.database.db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await ctx.database.db
      .insertInto('passkeys')
      .values({ account_id: id, credential_id: `cred-${id}`, public_key: 'key', device_type: 'multiDevice', backed_up: 1, name: 'My phone', created_at: '2026-11-29T08:00:00.000Z' })
      .execute();
    expect((await accountOf(agents[0]!)).passkeys).toEqual([{ id: expect.any(Number), name: 'My phone', createdAt: '2026-11-29T08:00:00.000Z', lastUsedAt: null, backedUp: true }]);
  });

  it('changes your name, at once for every request of yours, in the audit trail', async () => {
    const { email, agents } = await person([PHONE, LAPTOP]);
    const [phone, laptop] = agents as [Agent, Agent];
    await laptop.get('/api/auth/getAuth').expect(200);
    const renamed = await phone.patch('/api/account').send({ name: '  Ada Lovelace ' }).expect(200);
    expect(renamed.body).toEqual({ id: expect.any(Number), email, name: 'Ada Lovelace', role: 'staff' });
    expect((await laptop.get('/api/auth/getAuth').expect(200)).body.user.name).toBe('Ada Lovelace');
    expect(await auditOf(email)).toContainEqual({ actor: email, kind: 'account', action: 'changed', changes: JSON.stringify([{ field: 'name', before: 'Test staff', after: 'Ada Lovelace' }]) });
    const empty = await phone.patch('/api/account').send({ name: '   ' }).expect(400);
    expect(empty.body.errors).toEqual([{ path: 'body.name', message: 'Enter your name' }]);
  });

  it('signs you out of one of your sessions, this one too (its cookie cleared); another person’s is not found', async () => {
    const { email, agents } = await person([PHONE, LAPTOP]);
    const [phone, laptop] = agents as [Agent, Agent];
    const stranger = (await person([TABLET])).agents[0]!;
    const strangersSession = (await accountOf(stranger)).sessions[0]!.id;
    const answer = await phone.delete(`/api/account/sessions/${strangersSession}`).expect(404);
    expect(answer.body.detail).toBe('You have no such session: it may have ended already.');
    await stranger.get('/api/auth/getAuth').expect(200);

    const sessions = (await accountOf(phone)).sessions;
    const laptopSession = sessions.find((s) => !s.current)!.id;
    await phone.delete(`/api/account/sessions/${laptopSession}`).expect(204);
    await laptop.get('/api/auth/getAuth').expect(401);
    await phone.delete(`/api/account/sessions/${laptopSession}`).expect(404);
    const ended = (await auditOf(email)).find((e) => e.action === 'signed out (elsewhere)');
    expect(ended).toMatchObject({ actor: email, kind: 'session' });
    expect(ended!.changes).toContain('Firefox on Windows');

    const own = await phone.delete(`/api/account/sessions/${sessions.find((s) => s.current)!.id}`).expect(204);
    expect(String(own.headers['set-cookie'])).toMatch(/^sid=;/);
    await phone.get('/api/auth/getAuth').expect(401);
  });

  it('signs you out everywhere else', async () => {
    const { email, agents } = await person([PHONE, LAPTOP, TABLET]);
    const [phone, laptop, tablet] = agents as [Agent, Agent, Agent];
    await laptop.get('/api/auth/getAuth').expect(200);
    expect((await phone.post('/api/account/sessions/end-others').expect(200)).body).toEqual({ ended: 2 });
    await laptop.get('/api/auth/getAuth').expect(401);
    await tablet.get('/api/auth/getAuth').expect(401);
    expect((await accountOf(phone)).sessions.map((s) => s.browser)).toEqual(['Chrome on Android']);
    expect((await phone.post('/api/account/sessions/end-others').expect(200)).body).toEqual({ ended: 0 });
    expect((await auditOf(email)).filter((e) => e.action === 'signed out everywhere else')).toHaveLength(1);
  });
});

describe('your password', () => {
  it('changes with your current one; your other sessions end, this one stays, the new one signs in', async () => {
    const { email, agents } = await person([PHONE, LAPTOP]);
    const [phone, laptop] = agents as [Agent, Agent];
    await laptop.get('/api/auth/getAuth').expect(200);
    const changed = await phone.put('/api/account/password').send({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD }).expect(200);
    expect(changed.body).toEqual({ ended: 1 });
    await phone.get('/api/auth/getAuth').expect(200);
    await laptop.get('/api/auth/getAuth').expect(401);
    await request(ctx.app).post('/api/auth/login').send({ email, password: TEST_PASSWORD }).expect(401);
    await signIn(email, LAPTOP, '203.0.113.1', NEW_PASSWORD);
    const entry = (await auditOf(email)).find((e) => e.action === 'password changed');
    expect(entry).toEqual({ actor: email, kind: 'account', action: 'password changed', changes: JSON.stringify([{ field: 'otherSessions', before: 1, after: 0 }]) });
    expect(JSON.stringify(await auditOf(email))).not.toContain(NEW_PASSWORD);
  });

  it('asks for your current password, and says when it is not right', async () => {
    const { agents } = await person([PHONE]);
    const missing = await agents[0]!.put('/api/account/password').send({ newPassword: NEW_PASSWORD }).expect(400);
    expect(missing.body.errors).toEqual([{ path: 'body.currentPassword', message: 'Enter your current password' }]);
    const wrong = await agents[0]!.put('/api/account/password').send({ currentPassword: 'not-my-password', newPassword: NEW_PASSWORD }).expect(400);
    expect(wrong.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(wrong.body).toMatchObject({ status: 400, detail: WRONG_CURRENT_PASSWORD, errors: [{ path: 'body.currentPassword', message: WRONG_CURRENT_PASSWORD }] });
    const short = await agents[0]!.put('/api/account/password').send({ currentPassword: TEST_PASSWORD, newPassword: 'short' }).expect(400);
    expect(short.body.errors).toEqual([{ path: 'body.newPassword', message: 'Use at least 12 characters' }]);
  });

  it('is no way around the login limits: wrong current passwords count as failed logins from your address', async () => {
    const { email, agents } = await person([PHONE]);
    const phone = agents[0]!;
    const address = `198.51.100.${seq}0`;
    const change = () => phone.put('/api/account/password').set('X-Forwarded-For', address).send({ currentPassword: 'guess-guess-guess', newPassword: NEW_PASSWORD });
    expect([(await change()).status, (await change()).status, (await change()).status]).toEqual([400, 400, 429]);
    const stopped = await phone.put('/api/account/password').set('X-Forwarded-For', address).send({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD }).expect(429);
    expect(stopped.headers['retry-after']).toMatch(/^\d+$/);
    // The login from that address on that account is stopped as well; from another it signs in.
    await request(ctx.app).post('/api/auth/login').set('X-Forwarded-For', address).send({ email, password: TEST_PASSWORD }).expect(429);
    await signIn(email, LAPTOP, '203.0.113.2');
  });

  it('asks for no current password when you have none (you joined with a passkey)', async () => {
    const { email, agents } = await person([PHONE]);
    await ctx.database.db.updateTable('accounts').set({ password_hash: '' }).where('email', '=', email).execute();
    expect((await accountOf(agents[0]!)).hasPassword).toBe(false);
    await agents[0]!.put('/api/account/password').send({ newPassword: NEW_PASSWORD }).expect(200);
    expect((await accountOf(agents[0]!)).hasPassword).toBe(true);
    await signIn(email, LAPTOP, '203.0.113.3', NEW_PASSWORD);
  });
});

it('answers none of it without a session', async () => {
  await request(ctx.app).get('/api/account').expect(401);
  await request(ctx.app).post('/api/account/sessions/end-others').expect(401);
});
