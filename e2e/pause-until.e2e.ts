import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { shotsOf, signIn, startApp } from './harness';
import type { Account, E2eApp } from './harness';

/**
 * Pause until a date (issue 52) against the real BFF and the Kisi emulator: the desk pauses a member
 * until a day from their page, sees the day in the header and the members list; when the day comes
 * (here: the stored day moved to today, and the pause job looking every half second) the open page
 * turns Active by itself and the doors open again, and the trail has the resume as the server's.
 */
let app: E2eApp;
const STAFF: Account = { email: 'pause.staff@frontdesk.test', password: 'staff-password-e2e', name: 'Pause Staff', role: 'staff' };

before(async () => {
  app = await startApp({ env: { PAUSE_CHECK_EVERY_MS: '500' } });
  await app.addAccount(STAFF);
});
after(async () => {
  await app?.close();
});

async function signedIn(path: string, as: Account | undefined, viewport: { width: number; height: number }) {
  const { page, context, problems } = await app.newPage({ viewport });
  await page.goto(`/login?redirect=${encodeURIComponent(path)}`);
  await signIn(page, as?.email, as?.password);
  await page.waitForURL((url) => url.pathname + url.search === path);
  return { page, context, problems };
}

const screenshot = shotsOf('pause', { fullPage: true });

/** The members list (a list of rows, or a table with a header row: found by its name either way). */
const membersList = (page: Page) => page.getByLabel('Members', { exact: true });

async function openMemberByEmail(page: Page, email: string) {
  await page.getByRole('searchbox', { name: 'Search members' }).fill(email);
  await page.waitForURL((url) => url.searchParams.get('query') === email);
  await membersList(page).getByRole('link', { name: new RegExp(email.replace(/\./g, '\\.')) }).click();
  await page.waitForURL(/\/shell\/gymowner\/users\/\d+$/);
}

/** The browser's calendar day `days` from today (YYYY-MM-DD): the desk's clock, the server's venue day on this machine. */
const dayIn = (page: Page, days: number) =>
  page.evaluate((n) => {
    const at = new Date();
    at.setDate(at.getDate() + n);
    return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
  }, days);

describe('pause until a date', () => {
  for (const [size, viewport, email] of [
    ['desktop', { width: 1280, height: 800 }, 'carmen.ruiz@mail.example'],
    ['phone', { width: 390, height: 844 }, 'daniel.kim@mail.example'],
  ] as const) {
    it(`(${size}) pauses a member until a day, shows it, and the page turns Active when the job ends the pause`, async () => {
      const { page, context, problems } = await signedIn('/shell/gymowner/users', STAFF, viewport);
      await openMemberByEmail(page, email);
      await page.getByTestId('door-state').getByText('Doors open for them').waitFor();

      await page.getByRole('radio', { name: /Paused/ }).check();
      const field = page.getByLabel('Comes back on (optional)');
      // A day that has come is refused on the field, before anything is sent.
      await field.fill(await dayIn(page, 0));
      await page.getByRole('button', { name: /^Pause until / }).click();
      await page.getByText('Choose a day after today: the membership comes back on that day').waitFor();
      await field.fill(await dayIn(page, 7));
      await screenshot(page, `confirm-${size}`);
      await page.getByRole('button', { name: /^Pause until / }).click();
      await page.getByText(/^Membership paused until .+\. Door access is off\.$/).waitFor();

      const badge = page.locator('.member-lede .badge');
      await badge.getByText(/^Paused until \w+.* · comes back that day$/).waitFor();
      await page.getByTestId('door-state').getByText('Doors closed: membership not active').waitFor();
      assert.equal(await page.getByLabel('Comes back on', { exact: true }).inputValue(), await dayIn(page, 7));
      await screenshot(page, `paused-${size}`);

      // The list says it in the membership cell.
      await page.getByRole('link', { name: '← All members' }).click();
      const row = membersList(page).locator('li, tr').filter({ hasText: email });
      await row.getByText(/^until \w+/).waitFor();
      await screenshot(page, `list-${size}`);
      await row.getByRole('link', { name: new RegExp(email.replace(/\./g, '\\.')) }).click();
      await badge.getByText(/^Paused until/).waitFor();

      // The day comes (the stored day is today now): the job ends the pause, the open page follows, the doors open.
      const today = await dayIn(page, 0);
      await app.withDatabase((database) => database.db.updateTable('gym_users').set({ paused_until: today }).where('email', '=', email).execute());
      await badge.getByText('Active', { exact: true }).waitFor({ timeout: 10_000 });
      assert.equal(await page.getByRole('radio', { name: /Active/ }).isChecked(), true);
      await page.getByTestId('door-state').getByText('Doors open for them').waitFor({ timeout: 10_000 });
      assert.equal(await page.getByLabel('Comes back on', { exact: true }).count(), 0);
      await screenshot(page, `resumed-${size}`);
      assert.deepEqual(problems.messages, []);
      await context.close();
    });
  }

  it('the trail has the resume as the server’s: membership paused → active, the day gone', async () => {
    const { page, context, problems } = await signedIn('/shell/audit?kind=member', undefined, { width: 1280, height: 800 });
    const row = page.getByRole('row').filter({ hasText: 'Member pause ended' }).filter({ hasText: 'carmen.ruiz@mail.example' });
    await row.getByText('Command line or server').waitFor();
    await row.getByText('paused → active').waitFor();
    assert.deepEqual(problems.messages, []);
    await context.close();
  });
});
