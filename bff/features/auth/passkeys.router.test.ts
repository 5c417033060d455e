import request from 'supertest';
import { softwareAuthenticator } from '../../test-support/software-authenticator';
import { TEST_PASSWORD, createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';

/**
 * Passkeys through the whole app: a software authenticator (ES256, attestation 'none') answers the
 * server's options as a browser would, so every check runs for real: origin, RP id, the challenge
 * taken once, the signature, user verification, the counter. Without PUBLIC_ORIGIN the app answers
 * for this machine's addresses; the page is at http://localhost:5173 (RP id `localhost`).
 */
const ORIGIN = 'http://localhost:5173';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Agent = ReturnType<typeof request.agent>;
type Options = { challenge: string; rp?: { id?: string }; rpId?: string; user?: { id: string }; excludeCredentials?: { id: string }[] };

const sidCookie = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('sid='));
const accountIdOf = async (email: string) => (await ctx.database.db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
const auditOf = async (subjectId: number) =>
  ctx.database.db.selectFrom('audit_entries').select(['action', 'actor_id', 'changes']).where('subject_id', '=', String(subjectId)).orderBy('id').execute();

const registrationOptions = async (agent: Agent, origin = ORIGIN): Promise<Options> => (await agent.post('/api/account/passkeys/options').set('Origin', origin).expect(200)).body;
const signInOptions = async (app = ctx.app, origin = ORIGIN): Promise<Options> => (await request(app).post('/api/auth/passkey/options').set('Origin', origin).expect(200)).body;
const signIn = (response: unknown, app = ctx.app, origin = ORIGIN) => request(app).post('/api/auth/passkey').set('Origin', origin).send({ response });

/** A person with a password session and a passkey on a software authenticator. */
async function personWithPasskey(email: string, name = 'Laptop') {
  const agent = await ctx.loginAs('staff', email);
  const device = softwareAuthenticator({ origin: ORIGIN });
  const added = await agent.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name, response: device.create(await registrationOptions(agent)) }).expect(201);
  return { agent, device, passkey: added.body as { id: number; name: string }, accountId: await accountIdOf(email) };
}

describe('adding a passkey', () => {
  it('offers a discoverable passkey for this site, with the person named and a stable random user handle', async () => {
    const agent = await ctx.loginAs('staff', 'options@frontdesk.test');
    const first = await agent.post('/api/account/passkeys/options').set('Origin', ORIGIN).expect(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toMatchObject({
      rp: { name: 'Frontdesk', id: 'localhost' },
      user: { name: 'options@frontdesk.test', displayName: 'Test staff' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      attestation: 'none',
      excludeCredentials: [],
    });
    expect(first.body.user.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = await registrationOptions(agent);
    expect(second.user!.id).toBe(first.body.user.id);
    expect(second.challenge).not.toBe(first.body.challenge);
  });

  it('keeps the passkey the browser made, says so in the audit trail, and lists it in the next options to exclude', async () => {
    const { agent, device, passkey, accountId } = await personWithPasskey('adds@frontdesk.test', 'Work laptop');
    expect(passkey).toEqual({ id: expect.any(Number), name: 'Work laptop', createdAt: expect.any(String), lastUsedAt: null, backedUp: false });
    const stored = await ctx.database.db.selectFrom('passkeys').selectAll().where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ account_id: accountId, credential_id: device.credentials[0]!.id, transports: '["internal"]', device_type: 'singleDevice' });
    expect(Number(stored.counter)).toBe(0);
    expect((await auditOf(accountId)).at(-1)).toMatchObject({ action: 'passkey added', actor_id: accountId, changes: JSON.stringify([{ field: 'passkey', before: null, after: 'Work laptop' }]) });
    expect((await registrationOptions(agent)).excludeCredentials).toEqual([{ id: device.credentials[0]!.id, type: 'public-key', transports: ['internal'] }]);
  });

  it('marks a synced passkey as backed up', async () => {
    const agent = await ctx.loginAs('staff', 'synced@frontdesk.test');
    const device = softwareAuthenticator({ origin: ORIGIN, synced: true });
    const added = await agent.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name: 'Phone', response: device.create(await registrationOptions(agent)) }).expect(201);
    expect(added.body.backedUp).toBe(true);
  });

  it('takes each challenge once, only from the account it was handed to, and not after 5 minutes', async () => {
    const agent = await ctx.loginAs('staff', 'once@frontdesk.test');
    const other = await ctx.loginAs('staff', 'other-person@frontdesk.test');
    const device = softwareAuthenticator({ origin: ORIGIN });

    const options = await registrationOptions(agent);
    const foreign = await other.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name: 'Not mine', response: device.create(options) }).expect(400);
    expect(foreign.body.detail).toBe('This passkey could not be checked, so it was not added. Add it again.');

    const response = device.create(await registrationOptions(agent));
    await agent.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name: 'First', response }).expect(201);
    await agent.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name: 'Replayed', response }).expect(400);

    const late = await registrationOptions(agent);
    await ctx.database.db.updateTable('webauthn_challenges').set({ expires_at: new Date(Date.now() - 1).toISOString() }).where('challenge', '=', late.challenge).execute();
    await agent.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name: 'Late', response: device.create(late) }).expect(400);

    expect(await ctx.database.db.selectFrom('passkeys').select('name').where('account_id', '=', await accountIdOf('once@frontdesk.test')).execute()).toEqual([{ name: 'First' }]);
  });

  it('refuses a passkey made for another site or at another origin', async () => {
    const agent = await ctx.loginAs('staff', 'phished@frontdesk.test');
    const device = softwareAuthenticator({ origin: ORIGIN });
    await agent.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name: 'Other site', response: device.create(await registrationOptions(agent), { rpId: 'evil.example' }) }).expect(400);
    await agent.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name: 'Other origin', response: device.create(await registrationOptions(agent), { origin: 'https://evil.example' }) }).expect(400);
    // A page elsewhere cannot even ask: the app's origin check stops it first.
    await agent.post('/api/account/passkeys/options').set('Origin', 'https://evil.example').expect(403);
  });

  it('lists a missing name and a malformed answer as fields', async () => {
    const agent = await ctx.loginAs('staff', 'fields@frontdesk.test');
    const res = await agent.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name: ' ', response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } }).expect(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.name', 'body.response.response.clientDataJSON', 'body.response.response.attestationObject']);
  });
});

describe('signing in with a passkey', () => {
  it('signs in with no email asked: the session cookie, the last use, the audit trail', async () => {
    const { device, passkey, accountId } = await personWithPasskey('signs-in@frontdesk.test');
    const options = await request(ctx.app).post('/api/auth/passkey/options').set('Origin', ORIGIN).expect(200);
    expect(options.body).toMatchObject({ rpId: 'localhost', allowCredentials: [], userVerification: 'preferred' });
    expect(options.headers['cache-control']).toBe('no-store');

    const res = await signIn(device.get(options.body)).expect(200);
    expect(res.body.user).toMatchObject({ id: accountId, email: 'signs-in@frontdesk.test', role: 'staff' });
    const cookie = sidCookie(res);
    expect(cookie).toMatch(/HttpOnly/);
    const me = await request(ctx.app).get('/api/auth/getAuth').set('Cookie', cookie!.split(';')[0]!).expect(200);
    expect(me.body.user.email).toBe('signs-in@frontdesk.test');

    const stored = await ctx.database.db.selectFrom('passkeys').select(['counter', 'last_used_at']).where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect(Number(stored.counter)).toBe(1);
    expect(stored.last_used_at).not.toBeNull();
    expect((await auditOf(accountId)).at(-1)).toMatchObject({ action: 'signed in (passkey)' });
  });

  it('signs in as often as the counter moves on, and with authenticators that keep no counter', async () => {
    const { device } = await personWithPasskey('twice@frontdesk.test');
    await signIn(device.get(await signInOptions())).expect(200);
    await signIn(device.get(await signInOptions())).expect(200);
    const synced = await personWithPasskey('no-counter@frontdesk.test');
    await signIn(synced.device.get(await signInOptions(), { counter: 0 })).expect(200);
    await signIn(synced.device.get(await signInOptions(), { counter: 0 })).expect(200);
  });

  it('answers a passkey it does not know with its own message', async () => {
    const stranger = softwareAuthenticator({ origin: ORIGIN });
    stranger.create({ challenge: 'unused', rp: { id: 'localhost' }, user: { id: 'AQID' } });
    const res = await signIn(stranger.get(await signInOptions())).expect(401);
    expect(res.body.detail).toBe('This passkey is not known here.');
    expect(sidCookie(res)).toBeUndefined();
  });

  it('gives one message for every refused answer: replayed, another origin, another site, a challenge not ours, no user verification', async () => {
    const { device } = await personWithPasskey('refused@frontdesk.test');
    const generic = 'Signing in with this passkey did not work. Try again, or sign in with your password.';
    const used = device.get(await signInOptions());
    await signIn(used).expect(200);
    const answers = [
      await signIn(used),
      await signIn(device.get(await signInOptions(), { origin: 'https://evil.example' })),
      await signIn(device.get({ ...(await signInOptions()), rpId: 'evil.example' })),
      await signIn(device.get({ challenge: 'bWFkZS11cA' })),
      await signIn(device.get(await signInOptions(), { userVerified: false })),
    ];
    expect(answers.map((a) => [a.status, a.body.detail])).toEqual(Array(5).fill([401, generic]));
    expect(answers.every((a) => sidCookie(a) === undefined)).toBe(true);
  });

  it('refuses a counter that went back (a copy of the authenticator) and keeps the count it had', async () => {
    const { device, passkey, accountId } = await personWithPasskey('cloned@frontdesk.test', 'Security key');
    await signIn(device.get(await signInOptions(), { counter: 5 })).expect(200);
    await signIn(device.get(await signInOptions(), { counter: 5 })).expect(401);
    await signIn(device.get(await signInOptions(), { counter: 3 })).expect(401);
    const stored = await ctx.database.db.selectFrom('passkeys').select('counter').where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect(Number(stored.counter)).toBe(5);
    const refusals = (await auditOf(accountId)).filter((e) => e.action.startsWith('passkey refused'));
    expect(refusals).toHaveLength(2);
    expect(refusals[1]).toMatchObject({ actor_id: null, changes: JSON.stringify([{ field: 'counter of “Security key”', before: 5, after: 3 }]) });
    await signIn(device.get(await signInOptions(), { counter: 6 })).expect(200);
  });

  it('refuses the passkey of a deactivated account', async () => {
    const { device, accountId } = await personWithPasskey('deactivated@frontdesk.test');
    await ctx.database.db.updateTable('accounts').set({ status: 'deactivated' }).where('id', '=', accountId).execute();
    const res = await signIn(device.get(await signInOptions())).expect(401);
    expect(res.body.detail).toBe('Signing in with this passkey did not work. Try again, or sign in with your password.');
  });

  it('signs in from an address the password limits stopped: a passkey cannot be guessed', async () => {
    const stoppedEarly = { failuresPerAddressAndAccount: 2, firstDelayMs: 1, delayStepMs: 1, accountDelayStepMs: 1, maxDelayMs: 1 };
    await withTestContext({ env: { TRUST_PROXY: '1' }, overrides: { loginLimits: stoppedEarly } }, async (limited) => {
      const email = 'guessed-at@frontdesk.test';
      const agent = await limited.loginAs('staff', email);
      const device = softwareAuthenticator({ origin: ORIGIN });
      await agent.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name: 'Phone', response: device.create(await registrationOptions(agent)) }).expect(201);
      const from = '198.51.100.7';
      const password = (text: string) => request(limited.app).post('/api/auth/login').set('X-Forwarded-For', from).send({ email, password: text });
      for (let i = 0; i < 3; i++) await password('guess-guess');
      await password(TEST_PASSWORD).expect(429);
      const options = (await request(limited.app).post('/api/auth/passkey/options').set('X-Forwarded-For', from).set('Origin', ORIGIN).expect(200)).body;
      const res = await request(limited.app).post('/api/auth/passkey').set('X-Forwarded-For', from).set('Origin', ORIGIN).send({ response: device.get(options) }).expect(200);
      expect(res.body.user.email).toBe(email);
    });
  });

  it('stops an address asking too often', async () => {
    await withTestContext({ overrides: { passkeyTries: 3 } }, async (limited) => {
      for (let i = 0; i < 3; i++) await signInOptions(limited.app);
      const stopped = await request(limited.app).post('/api/auth/passkey/options').set('Origin', ORIGIN).expect(429);
      expect(stopped.body.detail).toMatch(/^Too many passkey sign-ins from this address\. Wait \d+ seconds, then try again\.$/);
      expect(Number(stopped.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  it('takes its RP id and origin from PUBLIC_ORIGIN behind a proxy', async () => {
    const publicOrigin = 'https://desk.example.com';
    await withTestContext({ env: { PUBLIC_ORIGIN: `https://other.example.com, ${publicOrigin}`, TRUST_PROXY: '1' } }, async (deployed) => {
      const email = 'deployed@frontdesk.test';
      const agent = await deployed.loginAs('staff', email);
      const device = softwareAuthenticator({ origin: publicOrigin });
      const options = (await agent.post('/api/account/passkeys/options').set('Origin', publicOrigin).expect(200)).body;
      expect(options.rp.id).toBe('desk.example.com');
      await agent.post('/api/account/passkeys').set('Origin', publicOrigin).send({ name: 'Phone', response: device.create(options) }).expect(201);

      const signInOptions = (await request(deployed.app).post('/api/auth/passkey/options').set('Origin', publicOrigin).expect(200)).body;
      expect(signInOptions.rpId).toBe('desk.example.com');
      const res = await request(deployed.app)
        .post('/api/auth/passkey')
        .set('Origin', publicOrigin)
        .set('X-Forwarded-Proto', 'https')
        .send({ response: device.get(signInOptions) })
        .expect(200);
      expect(sidCookie(res)).toMatch(/Secure/);
      // An origin the app does not answer for is refused before anything else.
      await request(deployed.app).post('/api/auth/passkey/options').set('Origin', 'https://desk.example.org').expect(403);
    });
  });
});

describe('renaming and removing passkeys', () => {
  it('renames and removes one of your own, each in the audit trail', async () => {
    const { agent, passkey, accountId } = await personWithPasskey('keeper@frontdesk.test', 'Old name');
    const renamed = await agent.patch(`/api/account/passkeys/${passkey.id}`).set('Origin', ORIGIN).send({ name: '  New name ' }).expect(200);
    expect(renamed.body).toMatchObject({ id: passkey.id, name: 'New name' });
    await agent.delete(`/api/account/passkeys/${passkey.id}`).set('Origin', ORIGIN).expect(204);
    expect(await ctx.database.db.selectFrom('passkeys').select('id').where('account_id', '=', accountId).execute()).toEqual([]);
    const trail = (await auditOf(accountId)).filter((e) => e.action.startsWith('passkey'));
    expect(trail.map((e) => [e.action, JSON.parse(e.changes)])).toEqual([
      ['passkey added', [{ field: 'passkey', before: null, after: 'Old name' }]],
      ['passkey renamed', [{ field: 'passkey', before: 'Old name', after: 'New name' }]],
      ['passkey removed', [{ field: 'passkey', before: 'New name', after: null }]],
    ]);
  });

  it('reaches no one else’s passkey', async () => {
    const { passkey } = await personWithPasskey('owner@frontdesk.test');
    const intruder = await ctx.loginAs('admin', 'intruder@frontdesk.test');
    const renamed = await intruder.patch(`/api/account/passkeys/${passkey.id}`).set('Origin', ORIGIN).send({ name: 'Mine now' }).expect(404);
    expect(renamed.body.detail).toBe('This passkey is no longer on your account.');
    await intruder.delete(`/api/account/passkeys/${passkey.id}`).set('Origin', ORIGIN).expect(404);
    expect(await ctx.database.db.selectFrom('passkeys').select('name').where('id', '=', passkey.id).executeTakeFirst()).toEqual({ name: 'Laptop' });
  });

  it('keeps the only passkey of an account without a password', async () => {
    const { agent, device, passkey, accountId } = await personWithPasskey('passkey-only@frontdesk.test');
    await ctx.database.db.updateTable('accounts').set({ password_hash: '' }).where('id', '=', accountId).execute();
    const refused = await agent.delete(`/api/account/passkeys/${passkey.id}`).set('Origin', ORIGIN).expect(409);
    expect(refused.body.detail).toBe('This passkey is your only way to sign in. Set a password or add another passkey first.');
    const second = softwareAuthenticator({ origin: ORIGIN });
    await agent.post('/api/account/passkeys').set('Origin', ORIGIN).send({ name: 'Spare', response: second.create(await registrationOptions(agent)) }).expect(201);
    await agent.delete(`/api/account/passkeys/${passkey.id}`).set('Origin', ORIGIN).expect(204);
    await signIn(device.get(await signInOptions())).expect(401);
    await signIn(second.get(await signInOptions())).expect(200);
  });
});

describe('challenges', () => {
  it('are purged once expired by the hourly job', async () => {
    const options = await signInOptions();
    await ctx.database.db.updateTable('webauthn_challenges').set({ expires_at: new Date(Date.now() - 1).toISOString() }).where('challenge', '=', options.challenge).execute();
    const fresh = await signInOptions();
    const purge = ctx.jobs.find((job) => job.name.startsWith('purge of ended sessions'))!;
    // A start runs it at once; stopping waits for that run.
    purge.start();
    await purge.stop();
    const left = (await ctx.database.db.selectFrom('webauthn_challenges').select('challenge').execute()).map((c) => c.challenge);
    expect(left).toContain(fresh.challenge);
    expect(left).not.toContain(options.challenge);
  });
});
