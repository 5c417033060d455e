import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { signIn, startApp, watchProblems } from './harness';
import type { E2eApp } from './harness';

/**
 * The /kisi admin pages against the real BFF, its Kisi proxy and the built-in Kisi emulator
 * (seeded organisation): door access switched off and on, a group created and deleted, an access
 * link created and found, doors unlocked.
 */
let app: E2eApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

/** A seeded Kisi user with door access on. */
const PERSON = { name: 'Alice Moreau', email: 'alice.moreau@mail.example' };

async function signedIn(path: string) {
  const context = await app.browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // Refusals the test asks for on purpose: a blank group name (422) and a locked-down door (409).
  const problems = watchProblems(page, [
    { path: '/api/kisi/groups', status: 422 },
    { path: '/api/kisi/locks/6/unlock', status: 409 },
  ]);
  await page.goto(`/login?redirect=${encodeURIComponent(path)}`);
  await signIn(page);
  await page.waitForURL((url) => url.pathname + url.search === path);
  return { page, context, problems };
}

describe('kisi admin pages', () => {
  it('switches a user’s door access off and on, and the state survives a reload', async () => {
    const { page, context, problems } = await signedIn('/kisi/users');
    await page.getByRole('link', { name: 'Access control' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search users' }).fill('alice');
    await page.waitForURL((url) => url.searchParams.get('query') === 'alice');
    const toggle = page.getByRole('switch', { name: `Door access for ${PERSON.name}` });
    assert.equal(await toggle.isChecked(), true);

    await toggle.uncheck();
    await page.getByText(`Door access for ${PERSON.name} is off.`).waitFor();
    await page.reload();
    await page.getByRole('table', { name: 'Kisi users' }).waitFor();
    assert.equal(await page.getByRole('switch', { name: `Door access for ${PERSON.name}` }).isChecked(), false);

    // The user page reads the same state from Kisi.
    await page.getByRole('link', { name: PERSON.name }).click();
    await page.getByRole('heading', { name: PERSON.name, level: 1 }).waitFor();
    assert.equal(await page.getByRole('switch', { name: `Door access for ${PERSON.name}` }).isChecked(), false);
    await page.getByRole('table', { name: 'Role assignments' }).getByText('Gym Members').first().waitFor();
    await page.getByRole('link', { name: '← All users' }).click();

    await page.getByRole('searchbox', { name: 'Search users' }).fill('alice');
    await page.waitForURL((url) => url.searchParams.get('query') === 'alice');
    await page.getByRole('switch', { name: `Door access for ${PERSON.name}` }).check();
    await page.getByText(`Door access for ${PERSON.name} is on.`).waitFor();
    await page.reload();
    await page.getByRole('table', { name: 'Kisi users' }).waitFor();
    assert.equal(await page.getByRole('switch', { name: `Door access for ${PERSON.name}` }).isChecked(), true);

    assert.deepEqual(problems.messages, []);
    await context.close();
  });

  it('creates a group (after Kisi’s blank-name 422) and deletes it', async () => {
    const { page, context, problems } = await signedIn('/kisi/groups');
    const name = `Weekend Staff ${Date.now()}`;
    await page.getByRole('table', { name: 'Kisi groups' }).getByText('Gym Members').waitFor();
    await page.getByRole('button', { name: 'New group' }).click();
    const dialog = page.getByRole('dialog', { name: 'New group' });
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await dialog.getByText("Name can't be blank").waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Description (optional)').fill('Saturday and Sunday shifts');
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await page.getByText(`Group “${name}” created.`).waitFor();
    const row = page.getByRole('table', { name: 'Kisi groups' }).getByRole('row').filter({ hasText: name });
    await row.waitFor();

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('dialog', { name: `Delete “${name}”?` }).getByRole('button', { name: 'Delete group' }).click();
    await page.getByText(`Group “${name}” deleted.`).waitFor();
    await row.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('table', { name: 'Kisi groups' }).getByText('Gym Members').waitFor();
    assert.equal(await page.getByText(name).count(), 0);

    assert.deepEqual(problems.messages, []);
    await context.close();
  });

  it('creates an access link, shows its secret, and finds it by search', async () => {
    const { page, context, problems } = await signedIn('/kisi/group_links');
    const email = `guest.${Date.now()}@mail.example`;
    await page.getByRole('table', { name: 'Access links' }).waitFor();
    await page.getByRole('button', { name: 'New access link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New access link' });
    await dialog.getByLabel('Link name').fill('Day pass: E2E Guest');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Valid until (optional)').fill('2031-05-04T18:30');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const created = dialog.getByTestId('created-link');
    await created.waitFor();
    const secret = (await created.locator('code.secret').first().textContent()) ?? '';
    assert.match(secret, /^[0-9a-f]{32}$/);
    assert.match((await created.textContent()) ?? '', /Gym Members/);
    await dialog.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('searchbox', { name: 'Search access links' }).fill(email);
    await page.waitForURL((url) => url.searchParams.get('query') === email);
    const table = page.getByRole('table', { name: 'Access links' });
    // The new link is in the unfiltered list too: wait for the searched list to replace it.
    await page.waitForFunction(() => {
      const searched = document.querySelector('table[aria-label="Access links"]:not([aria-busy="true"])');
      return searched?.querySelectorAll('tr').length === 2; // the header and the one match
    });
    await table.getByText('Day pass: E2E Guest').waitFor();
    // The valid-until went to Kisi and came back: the row shows it, and the link is not expired.
    const row = table.getByRole('row').filter({ hasText: 'Day pass: E2E Guest' });
    await row.getByText(/2031/).waitFor();
    await row.getByText('Enabled').waitFor();

    assert.deepEqual(problems.messages, []);
    await context.close();
  });

  it('unlocks a door, and says why a locked-down door stays shut', async () => {
    const { page, context, problems } = await signedIn('/kisi/locks');
    await page.getByRole('button', { name: 'Unlock Main Entrance' }).click();
    await page.getByText('Unlocked!').waitFor();
    const serverRoom = page.getByRole('row').filter({ hasText: 'Server Room' });
    await serverRoom.getByText('Locked down: no remote unlock').waitFor();
    assert.equal(await serverRoom.getByRole('button', { name: /^Unlock/ }).count(), 0);

    assert.deepEqual(problems.messages, []);
    await context.close();
  });
});
