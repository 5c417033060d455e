import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, signIn, startApp } from './harness';
import type { E2eApp } from './harness';

let app: E2eApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

describe('sign in and out', () => {
  it('/shell sends a visitor to /login, and signing in returns them to /shell', async () => {
    const { page, context, problems } = await app.newPage();
    await page.goto('/shell');
    await page.waitForURL((url) => url.pathname === '/login');
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('redirect'), '/shell');
    assert.equal(url.searchParams.get('flash'), 'Please sign in to continue.');
    await page.getByText('Please sign in to continue.').waitFor();

    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/shell');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    const header = page.getByRole('banner');
    await header.getByText(ADMIN.name, { exact: true }).waitFor();
    assert.deepEqual(problems.messages, []);
    await context.close();
  });

  it('a wrong password is refused with a message', async () => {
    const { page, context } = await app.newPage();
    await page.goto('/login');
    await signIn(page, ADMIN.email, 'not-the-password');
    await page.getByRole('alert').getByText('Wrong email or password.').waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
    await context.close();
  });

  it('ignores a redirect to another site', async () => {
    const { page, context } = await app.newPage();
    await page.goto('/login?redirect=%2F%2Fevil.example%2F');
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/shell');
    assert.equal(new URL(page.url()).host, new URL(app.url).host);
    await context.close();
  });

  it('the shell pages work when signed in, and sign out locks them again', async () => {
    const { page, context, problems } = await app.newPage();
    await page.goto('/login?redirect=%2Fshell%2Fapi');
    await signIn(page);
    await page.getByRole('heading', { name: 'Service status' }).waitFor();
    await page.getByText('Operational').waitFor();
    for (const [tab, heading] of [
      ['Door events', 'Door events'],
      ['Files', 'Upload files'],
      ['Overview', 'Your account'],
    ]) {
      await page.getByRole('navigation', { name: 'Staff shell' }).getByRole('link', { name: tab }).click();
      await page.getByRole('heading', { name: heading }).first().waitFor();
    }
    await page.getByRole('banner').getByRole('button', { name: /Sign out/ }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByText('You have signed out.').first().waitFor();
    await page.goto('/shell/empty');
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === '/shell/empty');
    assert.deepEqual(problems.messages, []);
    await context.close();
  });
});
