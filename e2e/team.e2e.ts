import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { signIn, startApp } from './harness';
import type { E2eApp } from './harness';

/**
 * The team in the app (issue 49), as an admin and a new runner live it: the admin invites by a link
 * shown once; the runner, in a browser of their own, opens it, chooses a name and password and lands
 * on the runner board with its live stream open; the admin deactivates them, and within 2 s the
 * runner's open tab says it is signed out, its live stream stopped for good (no reconnects against a
 * 401); signing in again is refused.
 */
const NEWCOMER = { email: 'runner-new@frontdesk.test', name: 'Rory Newcomer', password: 'a long runner password' };
/** The promise: an open tab says it is signed out within this long of the deactivation. */
const SIGNED_OUT_WITHIN_MS = 2_000;
/** How long the stopped tab is watched for a reconnect (EventSource's own retry is 3 s; ours starts at 1 s). */
const QUIET_FOR_MS = 3_500;

let app: E2eApp;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

/** Every request the page makes to the live stream, counted as the browser sends them. */
function countStreamRequests(page: Page) {
  const seen = { events: 0, sessionAsks: 0 };
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/api/events') seen.events++;
    if (path === '/api/auth/session') seen.sessionAsks++;
  });
  return seen;
}

describe('the team: invite, join, deactivate', () => {
  it('an invited runner joins by the link and lands on the runner board; deactivated, their open tab is signed out within 2 s and its live stream stops', { timeout: 120_000 }, async () => {
    // The admin makes the invitation.
    const { page: admin, context: adminContext, problems: adminProblems } = await app.newPage();
    await admin.goto('/login?redirect=%2Fshell%2Fteam');
    await signIn(admin);
    await admin.waitForURL((url) => url.pathname === '/shell/team');
    await admin.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await admin.getByRole('button', { name: 'Invite someone' }).first().click();
    const invite = admin.getByRole('dialog', { name: 'Invite someone' });
    await invite.getByLabel('Email').fill(NEWCOMER.email);
    await invite.getByLabel('Role').selectOption('runner');
    await invite.getByRole('button', { name: 'Make the invitation link' }).click();
    // Shown once: the admin reads it off the screen to pass it on.
    const shown = invite.getByText(/\/join#/);
    await shown.waitFor();
    const link = (await shown.textContent())!.trim();
    assert.match(link, new RegExp(`^${app.url}/join#[A-Za-z0-9_-]{40,}$`));
    await invite.getByRole('button', { name: 'Done' }).click();
    await admin.getByRole('table', { name: 'Open invitations' }).getByText(NEWCOMER.email).waitFor();

    // The runner, in a browser of their own.
    const { page: runner, context: runnerContext, problems: runnerProblems } = await app.newPage();
    const seen = countStreamRequests(runner);
    await runner.goto(link);
    await runner.getByText(NEWCOMER.email).first().waitFor();
    await runner.getByLabel('Your name').fill(NEWCOMER.name);
    await runner.getByLabel('Password', { exact: true }).fill(NEWCOMER.password);
    await runner.getByRole('button', { name: 'Join and sign in' }).click();
    await runner.waitForURL((url) => url.pathname === '/pt/runner');
    await runner.getByRole('heading', { name: 'Runner board' }).waitFor();
    const runnerMenu = runner.getByRole('navigation', { name: 'Main' });
    await runnerMenu.getByText(NEWCOMER.name, { exact: true }).waitFor();
    // Its live stream is open.
    await runner.getByTitle('Live orders: Live').waitFor();
    assert.ok(seen.events >= 1, 'the runner board opened the live stream');

    // The admin sees them in the team, and deactivates them.
    await admin.reload();
    const accounts = admin.getByRole('table', { name: 'Accounts' });
    const row = accounts.getByRole('row').filter({ hasText: NEWCOMER.email });
    await row.getByText('Active').waitFor();
    await row.getByRole('button', { name: `Deactivate ${NEWCOMER.name}` }).click();
    const confirm = admin.getByRole('dialog', { name: `Deactivate ${NEWCOMER.name}?` });
    const streamsBefore = seen.events;
    const deactivatedAt = Date.now();
    await confirm.getByRole('button', { name: 'Deactivate', exact: true }).click();

    // Within 2 s the runner's tab says so.
    await runner.getByText(/You are signed out/).waitFor({ timeout: SIGNED_OUT_WITHIN_MS });
    const tookMs = Date.now() - deactivatedAt;
    assert.ok(tookMs <= SIGNED_OUT_WITHIN_MS, `signed out after ${tookMs} ms`);
    await row.getByText('Deactivated').waitFor();
    // The live stream has stopped: its badge says why, and no reconnect knocks at the door.
    await runner.getByTitle('Live orders: Signed out').waitFor();
    const asksBefore = seen.sessionAsks;
    await runner.waitForTimeout(QUIET_FOR_MS);
    assert.equal(seen.events, streamsBefore, 'no new live stream request after the sign-out');
    assert.ok(seen.sessionAsks - asksBefore <= 1, `asked who is signed in ${seen.sessionAsks - asksBefore} times while signed out`);
    // The header no longer names them with a Sign out button: signed out, and a way in (a new tab, keeping this page).
    await runnerMenu.getByText('Signed out', { exact: true }).waitFor();
    assert.equal(await runnerMenu.getByRole('button', { name: 'Sign out' }).count(), 0);
    assert.equal(await runnerMenu.getByRole('link', { name: 'Sign in' }).getAttribute('target'), '_blank');
    // The board is still there, as it was.
    await runner.getByRole('heading', { name: 'Runner board' }).waitFor();

    // Signing in again is refused, and says why (only to whoever knows the password).
    const again = await runnerContext.newPage();
    await again.goto('/login');
    await signIn(again, NEWCOMER.email, NEWCOMER.password);
    await again.getByRole('alert').filter({ hasText: 'This account is deactivated: ask an admin to reactivate it.' }).waitFor();
    assert.equal(new URL(again.url()).pathname, '/login');

    assert.deepEqual(adminProblems.messages, []);
    // The login refused (401) is the only error the runner's browser logs; the stopped stream logs none.
    assert.deepEqual(
      runnerProblems.messages.filter((message) => !/status of 401/.test(message)),
      [],
    );
    await runnerContext.close();
    await adminContext.close();
  });
});
