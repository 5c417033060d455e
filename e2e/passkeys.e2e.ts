import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { ADMIN, signIn, startApp } from './harness';
import type { E2eApp } from './harness';

/**
 * Passkeys in Chromium (issue 49), with its virtual authenticator (CDP `WebAuthn`) standing in for a
 * phone's or laptop's: the person signs in with their password, adds a passkey on their account page,
 * signs out, and signs in with the passkey alone (the button); on another device the passkey synced
 * to, the login page's email box offers it and signs in with it; someone invited joins with a
 * passkey instead of a password. The page is opened at http://localhost: a passkey's
 * RP id is a host name (never an IP address), and localhost is a secure context without https.
 */
let app: E2eApp;
let base: string;
before(async () => {
  app = await startApp();
  base = app.url.replace('//127.0.0.1:', '//localhost:');
});
after(async () => {
  await app?.close();
});

/** A platform authenticator that keeps discoverable credentials and always verifies its user (a fingerprint that always matches). */
async function virtualAuthenticator(context: BrowserContext, page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

const stored = () =>
  app.withDatabase(async ({ db }) => ({
    passkeys: await db.selectFrom('passkeys').select(['name', 'credential_id', 'last_used_at', 'counter']).execute(),
    signIns: (await db.selectFrom('audit_entries').select('action').where('kind', '=', 'session').execute()).map((e) => e.action),
  }));

/**
 * A browser that does not offer passkeys among an email box's suggestions: the page's button is the
 * way in. (Chromium's virtual authenticator answers a suggestions request by itself, which would sign
 * in before the button is pressed.) Text, not a function: tsx's helpers do not exist in the page.
 */
const WITHOUT_PASSKEY_AUTOFILL = `Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: async () => false });`;

/** The passkey the first test adds, with its private key (the virtual authenticator gives it): the second puts it on another device. */
let laptopCredential: Awaited<ReturnType<typeof credentialsOf>>['credentials'][number] | undefined;
const credentialsOf = (cdp: CDPSession, authenticatorId: string) => cdp.send('WebAuthn.getCredentials', { authenticatorId });

describe('passkeys', () => {
  it('adds a passkey on the account page, then signs in with it alone (the button)', { timeout: 120_000 }, async () => {
    const { page, context, problems } = await app.newPage();
    await context.addInitScript({ content: WITHOUT_PASSKEY_AUTOFILL });
    const { cdp, authenticatorId } = await virtualAuthenticator(context, page);

    await page.goto(`${base}/login?redirect=%2Fshell%2Faccount`);
    await signIn(page);
    await page.waitForURL((url) => url.pathname === '/shell/account');
    const section = page.getByRole('region', { name: 'Passkeys' });
    await section.getByText('You have no passkeys yet.').waitFor();

    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const naming = section.getByRole('form', { name: 'Name the new passkey' });
    await naming.getByLabel('Name this passkey').fill('Virtual laptop');
    await naming.getByRole('button', { name: 'Save passkey' }).click();
    await page.getByText('Passkey “Virtual laptop” added. Next time, sign in with it.').waitFor();
    const row = section.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
    await row.getByText('Virtual laptop').waitFor();
    assert.match((await row.textContent()) ?? '', /not used yet/);

    // The authenticator keeps a discoverable credential for this site; the server keeps its public half.
    const { credentials } = await credentialsOf(cdp, authenticatorId);
    assert.equal(credentials.length, 1);
    laptopCredential = credentials[0]!;
    assert.equal(laptopCredential.isResidentCredential, true);
    assert.equal(laptopCredential.rpId, 'localhost');
    const base64url = (base64: string) => base64.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    assert.deepEqual((await stored()).passkeys.map((p) => [p.name, p.credential_id]), [['Virtual laptop', base64url(laptopCredential.credentialId)]]);

    // Signed out, no email and no password: the passkey alone.
    await page.getByRole('banner').getByRole('button', { name: /Sign out/ }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((url) => url.pathname === '/shell');
    await page.getByRole('banner').getByText(ADMIN.name, { exact: true }).waitFor();

    // As it is now (its counter moved on), for the next test to carry to another device.
    laptopCredential = (await credentialsOf(cdp, authenticatorId)).credentials[0];
    const afterSignIn = await stored();
    assert.notEqual(afterSignIn.passkeys[0]!.last_used_at, null);
    assert.equal(afterSignIn.signIns.at(-1), 'signed in (passkey)');
    // Its last use shows on the account page.
    await page.goto(`${base}/shell/account`);
    await page.getByRole('region', { name: 'Passkeys' }).getByText(/last used/).waitFor();
    assert.deepEqual(problems.messages, []);
    await context.close();
  });

  it('signs in from the email box’s suggestions on another device the passkey synced to', { timeout: 60_000 }, async () => {
    assert.ok(laptopCredential, 'the first test adds the passkey');
    const { page, context, problems } = await app.newPage({ viewport: { width: 390, height: 844 } });
    const { cdp, authenticatorId } = await virtualAuthenticator(context, page);
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: laptopCredential });
    const before = (await stored()).signIns.length;

    // The page offers the passkey in the email box's suggestions as it opens; Chromium's virtual
    // authenticator answers that request itself, as a person picking the suggestion would.
    await page.goto(`${base}/login`);
    assert.equal(await page.getByLabel('Email').getAttribute('autocomplete'), 'username webauthn');
    await page.waitForURL((url) => url.pathname === '/shell');
    await page.getByText(`Hello, ${ADMIN.name}`).waitFor();
    const signIns = (await stored()).signIns;
    assert.deepEqual(signIns.slice(before), ['signed in (passkey)']);
    assert.deepEqual(problems.messages, []);
    await context.close();
  });

  it('joins by an invitation with a passkey instead of a password, signs out, and signs in again with it', { timeout: 120_000 }, async () => {
    const newcomer = { email: 'passkey-joiner@frontdesk.test', name: 'Pia Passkey' };
    // The admin invites (at the same address, so the link is a localhost one).
    const { page: admin, context: adminContext, problems: adminProblems } = await app.newPage();
    await admin.goto(`${base}/login?redirect=%2Fshell%2Fteam`);
    await signIn(admin);
    await admin.waitForURL((url) => url.pathname === '/shell/team');
    await admin.getByRole('button', { name: 'Invite someone' }).first().click();
    const invite = admin.getByRole('dialog', { name: 'Invite someone' });
    await invite.getByLabel('Email').fill(newcomer.email);
    await invite.getByLabel('Role').selectOption('staff');
    await invite.getByRole('button', { name: 'Make the invitation link' }).click();
    const shown = invite.getByText(/\/join#/);
    await shown.waitFor();
    const link = (await shown.textContent())!.trim();
    assert.ok(link.startsWith(`${base}/join#`), link);

    // The newcomer, in a browser of their own with a platform authenticator.
    const { page, context, problems } = await app.newPage();
    await context.addInitScript({ content: WITHOUT_PASSKEY_AUTOFILL });
    const { cdp, authenticatorId } = await virtualAuthenticator(context, page);
    await page.goto(link);
    await page.getByText(newcomer.email).first().waitFor();
    await page.getByLabel('Your name').fill(newcomer.name);
    await page.getByRole('button', { name: 'Join with a passkey' }).click();
    await page.waitForURL((url) => url.pathname === '/shell');
    await page.getByRole('banner').getByText(newcomer.name, { exact: true }).waitFor();

    // The account has the passkey and no password; the authenticator keeps the credential for this site.
    const account = await app.withDatabase(({ db }) => db.selectFrom('accounts').select(['id', 'role', 'password_hash']).where('email', '=', newcomer.email).executeTakeFirstOrThrow());
    assert.deepEqual([account.role, account.password_hash], ['staff', '']);
    const kept = await app.withDatabase(({ db }) => db.selectFrom('passkeys').select('name').where('account_id', '=', account.id).execute());
    assert.equal(kept.length, 1);
    const { credentials } = await credentialsOf(cdp, authenticatorId);
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0]!.rpId, 'localhost');

    // Signed out, then in again with the passkey alone.
    await page.getByRole('banner').getByRole('button', { name: /Sign out/ }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((url) => url.pathname === '/shell');
    await page.getByRole('banner').getByText(newcomer.name, { exact: true }).waitFor();
    const trail = await app.withDatabase(({ db }) =>
      db.selectFrom('audit_entries').select('action').where('actor_email', '=', newcomer.email).orderBy('id').execute(),
    );
    assert.deepEqual(
      trail.map((e) => e.action),
      ['joined (invitation)', 'passkey added', 'signed in (invitation)', 'signed out', 'signed in (passkey)'],
    );
    assert.deepEqual(problems.messages, []);
    assert.deepEqual(adminProblems.messages, []);
    await context.close();
    await adminContext.close();
  });
});
