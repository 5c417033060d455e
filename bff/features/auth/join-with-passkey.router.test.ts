import request from 'supertest';
import { createLogger } from '../../lib/logger';
import { softwareAuthenticator } from '../../test-support/software-authenticator';
import { createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';
import { INVITATION_GONE, JOIN_PASSKEY_REFUSED } from './team.service';

/**
 * Answering an invitation with a passkey instead of a password (issue 49), through the whole app: a
 * software authenticator (ES256, attestation 'none') answers the options as the invitee's browser
 * would, so every check runs for real. The page is at http://localhost:5173 (RP id `localhost`).
 */
const ORIGIN = 'http://localhost:5173';

type Agent = ReturnType<typeof request.agent>;
type Options = { challenge: string; rp?: { id?: string; name?: string }; rpId?: string; user?: { id: string; name: string; displayName: string } };

const logLines: string[] = [];
const secrets: string[] = [];

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, { logger: createLogger('debug', { write: (line: string) => void logLines.push(line) }), linkTries: 1_000 });
});
afterAll(() => ctx.close());

let people = 0;
const nextEmail = (who: string) => `${who}.${++people}@frontdesk.test`;
const sidCookie = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('sid='));

let admin: Agent;
beforeAll(async () => {
  admin = await ctx.loginAs('admin', 'passkey-inviter@frontdesk.test');
});

async function invite(email: string, role = 'runner') {
  const res = await admin.post('/api/team/invitations').send({ email, role }).expect(201);
  secrets.push(res.body.link.token);
  return res.body as { invitation: { id: number; email: string }; link: { token: string } };
}
const passkeyOptions = (token: string, name = 'Pat Passkey', app = ctx.app, origin = ORIGIN) =>
  request(app).post('/api/team/invitations/passkey-options').set('Origin', origin).send({ token, name });
const optionsFor = async (token: string, name?: string): Promise<Options> => (await passkeyOptions(token, name).expect(200)).body;
const acceptWithPasskey = (agent: Agent, token: string, response: unknown, name = 'Pat Passkey', passkeyName = 'Phone', origin = ORIGIN) =>
  agent.post('/api/team/invitations/accept-passkey').set('Origin', origin).send({ token, name, passkey: { name: passkeyName, response } });

const accountOf = (email: string) =>
  ctx.database.db.selectFrom('accounts').select(['id', 'name', 'role', 'password_hash', 'webauthn_user_id']).where('email', '=', email).executeTakeFirst();
const passkeysOf = (accountId: number) => ctx.database.db.selectFrom('passkeys').select(['name', 'credential_id', 'account_id']).where('account_id', '=', accountId).execute();
const auditOf = (email: string) => ctx.database.db.selectFrom('audit_entries').select(['actor_email', 'action', 'changes']).where('subject', 'like', `%${email}%`).orderBy('id').execute();
const linkUsed = async (id: number) => (await ctx.database.db.selectFrom('account_links').select('used_at').where('id', '=', id).executeTakeFirstOrThrow()).used_at !== null;

describe('joining with a passkey', () => {
  it('offers a discoverable passkey for the invited email, under the name typed, with a fresh user handle each time', async () => {
    const email = nextEmail('options');
    const { link } = await invite(email);
    const first = await passkeyOptions(link.token, 'Olga Options').expect(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toMatchObject({
      rp: { name: 'Frontdesk', id: 'localhost' },
      user: { name: email, displayName: 'Olga Options' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      attestation: 'none',
      excludeCredentials: [],
    });
    expect(first.body.user.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Kept as any registration's challenge, with no account yet.
    expect(await ctx.database.db.selectFrom('webauthn_challenges').select(['purpose', 'account_id']).where('challenge', '=', first.body.challenge).executeTakeFirst()).toEqual({
      purpose: 'register',
      account_id: null,
    });
    const second = await optionsFor(link.token);
    expect(second.user!.id).not.toBe(first.body.user.id);
    expect(second.challenge).not.toBe(first.body.challenge);
    // Asking changes nothing of the invitation.
    await request(ctx.app).post('/api/team/invitations/preview').send({ token: link.token }).expect(200);
  });

  it('creates the account with the passkey and no password, signs it in; later the passkey alone signs it in again', async () => {
    const email = nextEmail('joiner');
    const { invitation, link } = await invite(email, 'runner');
    const device = softwareAuthenticator({ origin: ORIGIN });
    const options = await optionsFor(link.token, 'Pat Passkey');
    const invitee = request.agent(ctx.app);
    const joined = await acceptWithPasskey(invitee, link.token, device.create(options), 'Pat Passkey', 'My phone').expect(201);
    expect(joined.body).toEqual({ user: { id: expect.any(Number), email, name: 'Pat Passkey', role: 'runner' } });
    expect(sidCookie(joined)).toMatch(/HttpOnly/);
    expect((await invitee.get('/api/auth/getAuth').expect(200)).body.user).toMatchObject({ email, role: 'runner' });
    await invitee.get('/api/pt/orders').expect(200);

    // One account, no password, the handle the passkey was made with, the passkey; the link used.
    const account = (await accountOf(email))!;
    expect(account).toMatchObject({ name: 'Pat Passkey', role: 'runner', password_hash: '', webauthn_user_id: options.user!.id });
    expect(await passkeysOf(account.id)).toEqual([{ name: 'My phone', credential_id: device.credentials[0]!.id, account_id: account.id }]);
    expect(await linkUsed(invitation.id)).toBe(true);
    expect((await invitee.get('/api/account').expect(200)).body).toMatchObject({ hasPassword: false, passkeys: [expect.objectContaining({ name: 'My phone' })] });
    expect((await auditOf(email)).map((e) => [e.actor_email, e.action])).toEqual([
      ['passkey-inviter@frontdesk.test', 'invited'],
      [email, 'joined (invitation)'],
      [email, 'passkey added'],
      [email, 'signed in (invitation)'],
    ]);
    const team = (await admin.get('/api/team').expect(200)).body as { accounts: Array<Record<string, unknown>> };
    expect(team.accounts).toContainEqual(expect.objectContaining({ email, status: 'active', passkeys: 1, openSessions: 1 }));

    // The link is spent, for a password or a passkey alike.
    expect((await passkeyOptions(link.token).expect(404)).body.detail).toBe(INVITATION_GONE);
    expect((await request(ctx.app).post('/api/team/invitations/accept').send({ token: link.token, name: 'Again', password: 'a-long-enough-password' }).expect(404)).body.detail).toBe(INVITATION_GONE);

    // No password works (none was set), the passkey does, with the user handle it carries.
    await request(ctx.app).post('/api/auth/login').send({ email, password: '' }).expect(400);
    const signInOptions = (await request(ctx.app).post('/api/auth/passkey/options').set('Origin', ORIGIN).expect(200)).body as Options;
    const signedIn = await request(ctx.app).post('/api/auth/passkey').set('Origin', ORIGIN).send({ response: device.get(signInOptions) }).expect(200);
    expect(signedIn.body.user).toMatchObject({ id: account.id, email });
    expect(device.credentials[0]!.userHandle).toBe(options.user!.id);
  });

  it('answers a link that does not open with the link’s 404, asking or answering', async () => {
    expect((await passkeyOptions('no-such-link').expect(404)).body.detail).toBe(INVITATION_GONE);
    const withdrawn = await invite(nextEmail('withdrawn'));
    const options = await optionsFor(withdrawn.link.token);
    await admin.delete(`/api/team/invitations/${withdrawn.invitation.id}`).expect(204);
    await passkeyOptions(withdrawn.link.token).expect(404);
    const device = softwareAuthenticator({ origin: ORIGIN });
    expect((await acceptWithPasskey(request.agent(ctx.app), withdrawn.link.token, device.create(options)).expect(404)).body.detail).toBe(INVITATION_GONE);
    expect(await accountOf(withdrawn.invitation.email)).toBeUndefined();
  });

  it('takes only a challenge made for this link, once, within 5 minutes, answered at this site', async () => {
    const email = nextEmail('checked');
    const { invitation, link } = await invite(email);
    const other = await invite(nextEmail('other-link'));
    const device = softwareAuthenticator({ origin: ORIGIN });
    const refused = async (response: unknown) => {
      const res = await acceptWithPasskey(request.agent(ctx.app), link.token, response).expect(400);
      expect(res.body.detail).toBe(JOIN_PASSKEY_REFUSED);
      expect(res.body.errors).toEqual([{ path: 'body.passkey.response', message: JOIN_PASSKEY_REFUSED }]);
    };

    // Another link's challenge; a signed-in account's own registration challenge.
    await refused(device.create(await optionsFor(other.link.token)));
    const someone = await ctx.loginAs('staff', nextEmail('someone'));
    await refused(device.create((await someone.post('/api/account/passkeys/options').set('Origin', ORIGIN).expect(200)).body));
    // Made for another site, answered at another origin, or run out.
    await refused(device.create(await optionsFor(link.token), { rpId: 'evil.example' }));
    await refused(device.create(await optionsFor(link.token), { origin: 'https://evil.example' }));
    const late = await optionsFor(link.token);
    await ctx.database.db.updateTable('webauthn_challenges').set({ expires_at: new Date(Date.now() - 1).toISOString() }).where('challenge', '=', late.challenge).execute();
    await refused(device.create(late));
    // A page elsewhere cannot even ask.
    await passkeyOptions(link.token, 'Pat', ctx.app, 'https://evil.example').expect(403);

    // None of that used the link or made an account; a good answer still joins, and only once.
    expect(await linkUsed(invitation.id)).toBe(false);
    expect(await accountOf(email)).toBeUndefined();
    const response = device.create(await optionsFor(link.token));
    await acceptWithPasskey(request.agent(ctx.app), link.token, response).expect(201);
    await acceptWithPasskey(request.agent(ctx.app), link.token, response).expect(404);
  });

  it('refuses when the email got an account meanwhile (409), and makes one account of two answers at once', async () => {
    const email = nextEmail('late');
    const { link } = await invite(email);
    const device = softwareAuthenticator({ origin: ORIGIN });
    const options = await optionsFor(link.token);
    await ctx.loginAs('staff', email);
    expect((await acceptWithPasskey(request.agent(ctx.app), link.token, device.create(options)).expect(409)).body.detail).toMatch(/already has an account/);
    expect((await passkeyOptions(link.token).expect(409)).body.detail).toMatch(/already has an account/);

    const raced = nextEmail('race');
    const race = await invite(raced);
    const [first, second] = [softwareAuthenticator({ origin: ORIGIN }), softwareAuthenticator({ origin: ORIGIN })];
    const answers = [first.create(await optionsFor(race.link.token)), second.create(await optionsFor(race.link.token))];
    const results = await Promise.all(answers.map((answer, i) => acceptWithPasskey(request.agent(ctx.app), race.link.token, answer, `Racer ${i}`)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 404]);
    const account = (await accountOf(raced))!;
    expect(await passkeysOf(account.id)).toHaveLength(1);
  });

  it('checks the name, the passkey’s name and the answer’s shape as fields', async () => {
    const { link } = await invite(nextEmail('fields'));
    const res = await request(ctx.app)
      .post('/api/team/invitations/accept-passkey')
      .set('Origin', ORIGIN)
      .send({ token: link.token, name: ' ', passkey: { name: '', response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } } })
      .expect(400);
    expect(res.body.errors.map((e: { path: string; message: string }) => [e.path, e.message])).toEqual([
      ['body.name', 'Enter your name'],
      ['body.passkey.name', 'Name this passkey'],
      ['body.passkey.response.response.clientDataJSON', "The browser's passkey answer could not be read: try again."],
      ['body.passkey.response.response.attestationObject', "The browser's passkey answer could not be read: try again."],
    ]);
    expect((await passkeyOptions(link.token, '').expect(400)).body.errors).toEqual([{ path: 'body.name', message: 'Enter your name' }]);
  });
});

describe('the links’ limit per address', () => {
  it('counts asking for passkey options and answering with a passkey as tries with links', async () => {
    await withTestContext({ overrides: { linkTries: 2 } }, async (own) => {
      await passkeyOptions('guess-1', 'Pat', own.app).expect(404);
      await acceptWithPasskey(request.agent(own.app), 'guess-2', softwareAuthenticator({ origin: ORIGIN }).create({ challenge: 'Y2hhbGxlbmdl' })).expect(404);
      const limited = await request(own.app).post('/api/team/invitations/preview').send({ token: 'guess-3' }).expect(429);
      expect(limited.body.detail).toMatch(/^Too many tries with invitation and reset links from this address\./);
    });
  });
});

// Last: every link these tests were handed, looked for in everything the app logged meanwhile.
it('never writes a link’s secret to the log', () => {
  expect(secrets.length).toBeGreaterThan(5);
  const log = logLines.join('');
  expect(secrets.filter((secret) => log.includes(secret))).toEqual([]);
});
