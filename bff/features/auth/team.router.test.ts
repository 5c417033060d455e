import crypto from 'node:crypto';
import request from 'supertest';
import { createLogger } from '../../lib/logger';
import { stopWallClock } from '../../test-support/clock';
import { createTestContext, TEST_PASSWORD, withTestContext, type TestContext } from '../../test-support/test-app';
import { DEACTIVATED, WRONG_CREDENTIALS } from './auth.service';
import { INVITATION_GONE, RESET_GONE } from './team.service';

type Agent = ReturnType<typeof request.agent>;

/** Every line the app logs (at debug and above), to look for link secrets in. */
const logLines: string[] = [];
/** Every link secret the tests were handed. */
const secrets: string[] = [];

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, { logger: createLogger('debug', { write: (line: string) => void logLines.push(line) }), linkTries: 1_000 });
});
afterAll(() => ctx.close());
afterEach(() => jest.useRealTimers());

let people = 0;
const nextEmail = (who: string) => `${who}.${++people}@frontdesk.test`;
const NEW_PASSWORD = 'a-brand-new-long-password';

const sidCookie = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('sid='));

async function invite(admin: Agent, email: string, role = 'runner', more: Record<string, unknown> = {}) {
  const res = await admin.post('/api/team/invitations').send({ email, role, ...more }).expect(201);
  secrets.push(res.body.link.token);
  return res.body as { invitation: { id: number; email: string; role: string; expiresAt: string; invitedBy: string }; link: { token: string; expiresAt: string } };
}
async function resetLink(admin: Agent, accountId: number, more: Record<string, unknown> = {}) {
  const res = await admin.post(`/api/team/accounts/${accountId}/reset-link`).send(more).expect(201);
  secrets.push(res.body.token);
  return res.body as { token: string; expiresAt: string };
}
const previewInvitation = (token: string) => request(ctx.app).post('/api/team/invitations/preview').send({ token });
const accept = (agent: Agent, token: string, name = 'New Person', password = NEW_PASSWORD) => agent.post('/api/team/invitations/accept').send({ token, name, password });
const previewReset = (token: string) => request(ctx.app).post('/api/account/reset/preview').send({ token });
const useReset = (agent: Agent, token: string, password = NEW_PASSWORD) => agent.post('/api/account/reset').send({ token, password });
const login = (email: string, password: string) => request(ctx.app).post('/api/auth/login').send({ email, password });

/** A signed-in person and their account's id. */
async function person(role: 'admin' | 'staff' | 'runner', who: string = role) {
  const email = nextEmail(who);
  const agent = await ctx.loginAs(role, email);
  const { user } = (await agent.get('/api/auth/getAuth').expect(200)).body as { user: { id: number; name: string } };
  return { agent, email, id: user.id, name: user.name };
}

const teamOf = async (admin: Agent) => (await admin.get('/api/team').expect(200)).body as { accounts: Array<Record<string, unknown>>; invitations: Array<Record<string, unknown>> };
const auditOf = (subject: string) =>
  ctx.database.db.selectFrom('audit_entries').select(['actor_email', 'kind', 'action', 'subject', 'changes']).where('subject', 'like', `%${subject}%`).orderBy('id').execute();

describe('invitations', () => {
  it("takes an admin's open links with them when they leave: deactivated, demoted or deleted, the invitations and reset links they made stop working", async () => {
    const staying = await person('admin', 'staying');
    for (const leave of [
      (id: number) => staying.agent.put(`/api/team/accounts/${id}/status`).send({ status: 'deactivated' }).expect(200),
      (id: number) => staying.agent.put(`/api/team/accounts/${id}/role`).send({ role: 'staff' }).expect(200),
      (id: number) => staying.agent.delete(`/api/team/accounts/${id}`).expect(204),
    ]) {
      const leaving = await person('admin', 'leaving');
      const { link: invitation } = await invite(leaving.agent, nextEmail('their.friend'), 'admin', { expiresInHours: 336 });
      const { token: reset } = await resetLink(leaving.agent, staying.id);
      await leave(leaving.id);
      await previewInvitation(invitation.token).expect(404);
      await previewReset(reset).expect(404);
    }
    // The admin who stays still signs in with their own password.
    await login(staying.email, TEST_PASSWORD).expect(200);
  });

  it('invites by a link shown once; the invitee opens it, chooses a name and password, and is signed in with the role', async () => {
    const admin = await person('admin', 'inviter');
    const email = nextEmail('new.runner');
    const { invitation, link } = await invite(admin.agent, `  ${email.toUpperCase()} `, 'runner', { expiresInHours: 24 });
    expect(invitation).toMatchObject({ email, role: 'runner', invitedBy: admin.name });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    // Stored as its hash only.
    const stored = await ctx.database.db.selectFrom('account_links').select('token_hash').where('id', '=', invitation.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(crypto.createHash('sha256').update(link.token).digest('hex'));
    expect((await teamOf(admin.agent)).invitations).toContainEqual(expect.objectContaining({ id: invitation.id, email, role: 'runner', invitedBy: admin.name }));

    expect((await previewInvitation(link.token).expect(200)).body).toEqual({ email, role: 'runner', expiresAt: link.expiresAt });
    const invitee = request.agent(ctx.app);
    const joined = await accept(invitee, link.token, 'Rita Runner').expect(201);
    expect(joined.body).toEqual({ user: { id: expect.any(Number), email, name: 'Rita Runner', role: 'runner' } });
    expect(sidCookie(joined)).toMatch(/HttpOnly/);
    expect((await invitee.get('/api/auth/getAuth').expect(200)).body.user).toMatchObject({ email, role: 'runner' });
    await invitee.get('/api/pt/orders').expect(200);
    await invitee.get('/api/gym/users').expect(403);

    // Used: the link opens no more, and the team shows the new account, signed in.
    for (const again of [await previewInvitation(link.token), await accept(request.agent(ctx.app), link.token)]) {
      expect(again.status).toBe(404);
      expect(again.body.detail).toBe(INVITATION_GONE);
    }
    const team = await teamOf(admin.agent);
    expect(team.invitations.map((i) => i.id)).not.toContain(invitation.id);
    expect(team.accounts).toContainEqual(
      expect.objectContaining({ email, name: 'Rita Runner', role: 'runner', status: 'active', lastSignInAt: expect.any(String), openSessions: 1, passkeys: 0 }),
    );
    expect((await auditOf(email)).map((e) => [e.actor_email, e.action])).toEqual([
      [admin.email, 'invited'],
      [email, 'joined (invitation)'],
      [email, 'signed in (invitation)'],
    ]);
  });

  it('answers every link that does not open the same: unknown, withdrawn or run out', async () => {
    const admin = await person('admin');
    expect((await previewInvitation('no-such-link').expect(404)).body.detail).toBe(INVITATION_GONE);

    const withdrawn = await invite(admin.agent, nextEmail('withdrawn'));
    await admin.agent.delete(`/api/team/invitations/${withdrawn.invitation.id}`).expect(204);
    expect((await previewInvitation(withdrawn.link.token).expect(404)).body.detail).toBe(INVITATION_GONE);
    expect((await accept(request.agent(ctx.app), withdrawn.link.token).expect(404)).body.detail).toBe(INVITATION_GONE);
    await admin.agent.delete(`/api/team/invitations/${withdrawn.invitation.id}`).expect(404);
    expect((await auditOf(withdrawn.invitation.email)).map((e) => e.action)).toEqual(['invited', 'invitation withdrawn']);

    const clock = stopWallClock();
    const expiring = await invite(admin.agent, nextEmail('expiring'), 'staff', { expiresInHours: 1 });
    clock.advance(3_600_000 - 1_000);
    await previewInvitation(expiring.link.token).expect(200);
    clock.advance(1_000);
    expect((await previewInvitation(expiring.link.token).expect(404)).body.detail).toBe(INVITATION_GONE);
    expect((await accept(request.agent(ctx.app), expiring.link.token).expect(404)).body.detail).toBe(INVITATION_GONE);
    expect((await teamOf(admin.agent)).invitations.map((i) => i.id)).not.toContain(expiring.invitation.id);
  });

  it('replaces an open invitation for the same email with the new one', async () => {
    const admin = await person('admin');
    const email = nextEmail('twice');
    const first = await invite(admin.agent, email, 'runner');
    const second = await invite(admin.agent, email, 'staff');
    await previewInvitation(first.link.token).expect(404);
    expect((await previewInvitation(second.link.token).expect(200)).body.role).toBe('staff');
    expect((await teamOf(admin.agent)).invitations.filter((i) => i.email === email).map((i) => i.id)).toEqual([second.invitation.id]);
  });

  it('refuses to invite an email that has an account (409), and an invitation answered after the email got one', async () => {
    const admin = await person('admin');
    const taken = await person('staff', 'taken');
    const refused = await admin.agent.post('/api/team/invitations').send({ email: taken.email, role: 'runner' }).expect(409);
    expect(refused.body.detail).toBe(`${taken.email} already has an account: change that one instead (its role, its status or a reset link).`);

    const email = nextEmail('late');
    const { link } = await invite(admin.agent, email);
    await ctx.loginAs('staff', email);
    expect((await accept(request.agent(ctx.app), link.token).expect(409)).body.detail).toMatch(/already has an account/);
  });

  it('makes one account of two answers to one link at once: one is signed in, the other gets the link’s 404', async () => {
    const admin = await person('admin');
    const email = nextEmail('race');
    const { link } = await invite(admin.agent, email);
    const answers = await Promise.all([accept(request.agent(ctx.app), link.token, 'First'), accept(request.agent(ctx.app), link.token, 'Second')]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 404]);
    const accounts = await ctx.database.db.selectFrom('accounts').select('name').where('email', '=', email).execute();
    expect(accounts).toHaveLength(1);
  });

  it('checks the name and password the invitee chooses', async () => {
    const admin = await person('admin');
    const { link } = await invite(admin.agent, nextEmail('short'));
    const res = await accept(request.agent(ctx.app), link.token, '', 'short').expect(400);
    expect(res.body.errors).toEqual([
      { path: 'body.name', message: 'Enter your name' },
      { path: 'body.password', message: 'Use at least 12 characters' },
    ]);
    await previewInvitation(link.token).expect(200);
  });
});

describe('roles and statuses', () => {
  it('changes a role from the next request on', async () => {
    const admin = await person('admin');
    const desk = await person('staff', 'desk');
    await desk.agent.get('/api/gym/users').expect(200);
    const changed = await admin.agent.put(`/api/team/accounts/${desk.id}/role`).send({ role: 'runner' }).expect(200);
    expect(changed.body).toMatchObject({ id: desk.id, role: 'runner', status: 'active', openSessions: 1 });
    await desk.agent.get('/api/gym/users').expect(403);
    expect((await desk.agent.get('/api/auth/getAuth').expect(200)).body.user.role).toBe('runner');
    const [entry] = (await auditOf(desk.email)).filter((e) => e.action === 'role changed');
    expect(entry).toMatchObject({ actor_email: admin.email, kind: 'account' });
    expect(JSON.parse(entry!.changes)).toEqual([{ field: 'role', before: 'staff', after: 'runner' }]);
  });

  it('deactivates: that person’s session ends at once and they cannot sign in; reactivated, they can again', async () => {
    const admin = await person('admin');
    const runner = await person('runner', 'leaving');
    await runner.agent.get('/api/auth/getAuth').expect(200);
    const deactivated = await admin.agent.put(`/api/team/accounts/${runner.id}/status`).send({ status: 'deactivated' }).expect(200);
    expect(deactivated.body).toMatchObject({ id: runner.id, status: 'deactivated', openSessions: 0 });
    await runner.agent.get('/api/auth/getAuth').expect(401);
    const refused = await login(runner.email, TEST_PASSWORD).expect(403);
    expect(refused.body.detail).toBe(DEACTIVATED);
    // A wrong password learns nothing of the account's status.
    expect((await login(runner.email, 'not-the-password-at-all').expect(401)).body.detail).toBe(WRONG_CREDENTIALS);
    expect(sidCookie(refused)).toBeUndefined();
    // Listed after the active accounts.
    const team = await teamOf(admin.agent);
    expect(team.accounts.findIndex((a) => a.id === runner.id)).toBeGreaterThan(team.accounts.findLastIndex((a) => a.status === 'active'));

    await admin.agent.put(`/api/team/accounts/${runner.id}/status`).send({ status: 'active' }).expect(200);
    await runner.agent.get('/api/auth/getAuth').expect(401);
    await login(runner.email, TEST_PASSWORD).expect(200);
    expect((await auditOf(runner.email)).filter((e) => e.kind === 'account').map((e) => e.action)).toEqual(['created', 'deactivated', 'reactivated']);
  });

  it('never leaves the team without an active admin, and an admin does not deactivate or delete themselves', async () => {
    await withTestContext({}, async (own) => {
      const sole = await own.loginAs('admin', 'sole@frontdesk.test');
      const { user } = (await sole.get('/api/auth/getAuth')).body as { user: { id: number; name: string } };
      const demoted = await sole.put(`/api/team/accounts/${user.id}/role`).send({ role: 'staff' }).expect(409);
      expect(demoted.body.detail).toBe(`${user.name} is the last active admin: make another admin first.`);
      expect((await sole.put(`/api/team/accounts/${user.id}/status`).send({ status: 'deactivated' }).expect(409)).body.detail).toBe('You cannot deactivate your own account: another admin can.');
      expect((await sole.delete(`/api/team/accounts/${user.id}`).expect(409)).body.detail).toBe('You cannot delete your own account: another admin can.');
      await sole.get('/api/team').expect(200);

      // With a second admin, the first may step down; the second is then the last.
      const second = await own.loginAs('admin', 'second@frontdesk.test');
      const secondId = ((await second.get('/api/auth/getAuth')).body as { user: { id: number } }).user.id;
      await sole.put(`/api/team/accounts/${user.id}/role`).send({ role: 'staff' }).expect(200);
      await sole.get('/api/team').expect(403);
      await second.put(`/api/team/accounts/${secondId}/role`).send({ role: 'runner' }).expect(409);
      const admins = await own.database.db.selectFrom('accounts').select('email').where('role', '=', 'admin').execute();
      expect(admins).toEqual([{ email: 'second@frontdesk.test' }]);
      // A refused change wrote nothing to the trail.
      const entries = await own.database.db.selectFrom('audit_entries').select('action').where('kind', '=', 'account').where('action', '=', 'role changed').execute();
      expect(entries).toHaveLength(1);
    });
  });

  it('leaves one admin when two demote each other at once', async () => {
    await withTestContext({}, async (own) => {
      const a = await own.loginAs('admin', 'a@frontdesk.test');
      const b = await own.loginAs('admin', 'b@frontdesk.test');
      const idOf = async (agent: Agent) => ((await agent.get('/api/auth/getAuth')).body as { user: { id: number } }).user.id;
      const [aId, bId] = [await idOf(a), await idOf(b)];
      const answers = await Promise.all([a.put(`/api/team/accounts/${bId}/role`).send({ role: 'staff' }), b.put(`/api/team/accounts/${aId}/role`).send({ role: 'staff' })]);
      // One wins; the other is refused, as the last admin's change (409) or, when its session was read after the first, as staff (403).
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 409 || answer.status === 403)).toHaveLength(1);
      const admins = await own.database.db.selectFrom('accounts').select('id').where('role', '=', 'admin').where('status', '=', 'active').execute();
      expect(admins).toHaveLength(1);
    });
  });

  it('answers 404 for an account that is not there', async () => {
    const admin = await person('admin');
    await admin.agent.put('/api/team/accounts/999999/role').send({ role: 'staff' }).expect(404);
    await admin.agent.put('/api/team/accounts/999999/status').send({ status: 'deactivated' }).expect(404);
    await admin.agent.post('/api/team/accounts/999999/reset-link').send({}).expect(404);
    await admin.agent.delete('/api/team/accounts/999999').expect(404);
    await admin.agent.delete('/api/team/invitations/999999').expect(404);
  });
});

describe('reset links', () => {
  it('sets a new password by a one-use link: the old sessions end, the old password stops working, this browser is signed in', async () => {
    const admin = await person('admin');
    const forgot = await person('staff', 'forgetful');
    const replaced = await resetLink(admin.agent, forgot.id);
    const { token, expiresAt } = await resetLink(admin.agent, forgot.id, { expiresInHours: 1 });
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect((await previewReset(replaced.token).expect(404)).body.detail).toBe(RESET_GONE);
    expect((await previewReset(token).expect(200)).body).toEqual({ email: forgot.email, name: forgot.name, expiresAt });

    const browser = request.agent(ctx.app);
    const reset = await useReset(browser, token).expect(200);
    expect(reset.body).toEqual({ user: { id: forgot.id, email: forgot.email, name: forgot.name, role: 'staff' } });
    expect(sidCookie(reset)).toBeDefined();
    await browser.get('/api/auth/getAuth').expect(200);
    await forgot.agent.get('/api/auth/getAuth').expect(401);
    expect((await login(forgot.email, TEST_PASSWORD).expect(401)).body.detail).toBe(WRONG_CREDENTIALS);
    await login(forgot.email, NEW_PASSWORD).expect(200);
    expect((await useReset(request.agent(ctx.app), token, 'yet-another-long-password').expect(404)).body.detail).toBe(RESET_GONE);
    expect((await auditOf(forgot.email)).filter((e) => e.kind === 'account').map((e) => [e.actor_email, e.action])).toEqual([
      [null, 'created'],
      [admin.email, 'reset link made'],
      [admin.email, 'reset link made'],
      [forgot.email, 'password reset (link)'],
    ]);
  });

  it('opens no reset link of a deactivated account, and makes none for it', async () => {
    const admin = await person('admin');
    const gone = await person('runner', 'gone');
    const { token } = await resetLink(admin.agent, gone.id);
    await admin.agent.put(`/api/team/accounts/${gone.id}/status`).send({ status: 'deactivated' }).expect(200);
    expect((await previewReset(token).expect(404)).body.detail).toBe(RESET_GONE);
    expect((await useReset(request.agent(ctx.app), token).expect(404)).body.detail).toBe(RESET_GONE);
    expect((await admin.agent.post(`/api/team/accounts/${gone.id}/reset-link`).send({}).expect(409)).body.detail).toMatch(/deactivated: reactivate it first/);
    // Reactivated, the link made before stays withdrawn.
    await admin.agent.put(`/api/team/accounts/${gone.id}/status`).send({ status: 'active' }).expect(200);
    await previewReset(token).expect(404);
  });
});

describe('deleting an account', () => {
  it('ends its sessions and keeps what it wrote under its name', async () => {
    const admin = await person('admin');
    const leaver = await person('staff', 'leaver');
    const posted = await leaver.agent.post('/api/chat/channels/1/messages').send({ body: 'Last shift, bye all' }).expect(201);
    await admin.agent.delete(`/api/team/accounts/${leaver.id}`).expect(204);
    await leaver.agent.get('/api/auth/getAuth').expect(401);
    await login(leaver.email, TEST_PASSWORD).expect(401);
    expect((await teamOf(admin.agent)).accounts.map((a) => a.id)).not.toContain(leaver.id);
    const message = await ctx.database.db.selectFrom('messages').select(['author_name', 'author_account_id', 'body']).where('id', '=', posted.body.id).executeTakeFirstOrThrow();
    expect(message).toEqual({ author_name: leaver.name, author_account_id: null, body: 'Last shift, bye all' });
    const [entry] = (await auditOf(leaver.email)).filter((e) => e.action === 'deleted');
    expect(entry).toMatchObject({ actor_email: admin.email, subject: `${leaver.name} <${leaver.email}>` });
    await admin.agent.delete(`/api/team/accounts/${leaver.id}`).expect(404);
  });
});

describe('the links’ limit per address', () => {
  it('answers 429 with Retry-After past the tries an address may make', async () => {
    await withTestContext({ overrides: { linkTries: 3 } }, async (own) => {
      for (let i = 0; i < 3; i++) await request(own.app).post('/api/team/invitations/preview').send({ token: `guess-${i}` }).expect(404);
      const limited = await request(own.app).post('/api/account/reset/preview').send({ token: 'guess-4' }).expect(429);
      expect(limited.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
      expect(limited.body.detail).toMatch(/^Too many tries with invitation and reset links from this address\. Try again in 15 minute\(s\)\.$/);
    });
  });
});

// Last: every link these tests were handed, looked for in everything the app logged meanwhile.
it('never writes a link’s secret to the log', () => {
  expect(secrets.length).toBeGreaterThan(10);
  expect(logLines.length).toBeGreaterThan(50);
  const log = logLines.join('');
  expect(secrets.filter((secret) => log.includes(secret))).toEqual([]);
});
