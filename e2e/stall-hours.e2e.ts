import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { shotsOf, signIn, startApp, watchProblems } from './harness';
import type { Account, E2eApp } from './harness';

/**
 * Stalls' opening hours and dishes sold out live (issue 52), end to end at 390 and 1280 px: staff
 * give a stall hours on its page (open only two days from now), and a diner's menu says the stall is
 * closed now and when it opens, its dishes not addable; a kitchen marks a dish sold out from its
 * screen, and a diner's cart, open in another browser with that dish in it, flags the line with no
 * reload. The venue's zone is UTC here, so the test knows the weekday the menu names. With SHOTS_DIR
 * set, the screens are saved there.
 */
let app: E2eApp;

const RUNNER: Account = { email: 'kit.kitchen@frontdesk.test', password: 'kitchen-password-e2e', name: 'Kit Kitchen', role: 'runner' };
const STAFF: Account = { email: 'sam.staff@frontdesk.test', password: 'staff-password-e2e', name: 'Sam Staff', role: 'staff' };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

before(async () => {
  app = await startApp({ env: { VENUE_TIME_ZONE: 'UTC' } });
  await app.addAccount(RUNNER);
  await app.addAccount(STAFF);
});
after(async () => {
  await app?.close();
});

const screenshot = shotsOf('stall-hours');

async function signedIn(account: Account, path: string, viewport = DESKTOP) {
  const context = await app.browser.newContext({ baseURL: app.url, viewport });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`/login?redirect=${encodeURIComponent(path)}`);
  await signIn(page, account.email, account.password);
  await page.waitForURL((url) => url.pathname === path);
  return { page, context, problems };
}

async function diner(viewport: { width: number; height: number }) {
  const context = await app.browser.newContext({ baseURL: app.url, viewport });
  const page = await context.newPage();
  return { page, context, problems: watchProblems(page) };
}

async function stallId(page: Page, name: string): Promise<number> {
  const answer = await page.request.get(`/api/pt/stalls?query=${encodeURIComponent(name)}`);
  const { items } = (await answer.json()) as { items: Array<{ id: number; name: string }> };
  return items.find((s) => s.name === name)!.id;
}

const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { e2eMark: string }).e2eMark = 'still here'));
const documentMarked = (page: Page) => page.evaluate(() => (window as unknown as { e2eMark?: string }).e2eMark === 'still here');

describe("a stall's opening hours", () => {
  it('are set on its page, and a diner sees it closed with when it opens, at 390 and 1280 px', async () => {
    const opens = new Date(Date.now() + 2 * 86_400_000);
    const openDay = WEEKDAYS[opens.getUTCDay()]!;
    const staff = await signedIn(STAFF, '/pt/stalls');
    const id = await stallId(staff.page, 'Seoul Bowl');
    await staff.page.goto(`/pt/stalls/${id}`);
    await staff.page.getByRole('button', { name: 'Opening hours' }).click();
    const dialog = staff.page.getByRole('dialog', { name: 'Opening hours of Seoul Bowl' });
    await dialog.getByLabel('Open on these days and times').check();
    for (const day of WEEKDAYS.filter((d) => d !== openDay)) await dialog.getByRole('button', { name: `Remove ${day} opening time 1` }).click();
    const row = dialog.getByRole('listitem', { name: openDay });
    await row.getByLabel(`${openDay} opening time 1, opens`).fill('11:30');
    await row.getByLabel(`${openDay} opening time 1, closes`).fill('09:00');
    await dialog.getByRole('button', { name: 'Save hours' }).click();
    await dialog.getByText('It must close after it opens.', { exact: false }).waitFor();
    await screenshot(staff.page, 'form-problem-1280');
    await row.getByLabel(`${openDay} opening time 1, closes`).fill('14:30');
    await dialog.getByRole('button', { name: 'Save hours' }).click();
    await dialog.waitFor({ state: 'detached' });
    const week = staff.page.getByRole('region', { name: 'Opening hours' });
    assert.match((await week.textContent()) ?? '', new RegExp(`${openDay}11:30–14:30`));
    await screenshot(staff.page, 'stall-page-1280');

    for (const [label, viewport] of [['390', PHONE], ['1280', DESKTOP]] as const) {
      const { page, context, problems } = await diner(viewport);
      await page.goto('/pt/diner/menu?table=7');
      const section = page.locator('section.diner-stall').filter({ has: page.getByRole('heading', { name: 'Seoul Bowl', level: 2 }) });
      await section.getByText(`Closed now · opens ${openDay.slice(0, 3)} 11:30`).waitFor();
      assert.equal(await section.getByRole('heading', { name: 'Bibimbap' }).count(), 1, 'its dishes are shown');
      assert.equal(await section.getByRole('button', { name: /^Add/ }).count(), 0, 'but cannot be added');
      // The paused stall of the demo says so.
      await page.getByText('Paused', { exact: true }).first().waitFor();
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `menu-closed-${label}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the menu fits ${viewport.width} px (${width})`);
      assert.deepEqual(problems.messages, []);
      await context.close();
    }
    assert.deepEqual(staff.problems.messages, []);
    await staff.context.close();
  });
});

describe('a dish the kitchen marks sold out', () => {
  it("is flagged live in a diner's open cart, at 390 and 1280 px", async () => {
    const kitchen = await signedIn(RUNNER, '/pt/kitchen');
    const id = await stallId(kitchen.page, 'Ah Seng Chicken Rice');
    await kitchen.page.goto(`/pt/kitchen/${id}`);
    await kitchen.page.getByRole('heading', { name: 'Ah Seng Chicken Rice', level: 1 }).waitFor();
    await kitchen.page.getByText('Dishes', { exact: true }).click();
    const dishes = kitchen.page.getByRole('list', { name: 'Dishes' });
    await dishes.waitFor();

    for (const [label, viewport] of [['390', PHONE], ['1280', DESKTOP]] as const) {
      const { page, context, problems } = await diner(viewport);
      await page.goto('/pt/diner/menu?table=3');
      await page.getByRole('button', { name: 'Add Braised egg' }).click();
      await page.getByRole('dialog', { name: 'Add Braised egg' }).getByRole('button', { name: 'Add to cart' }).click();
      await page.getByRole('button', { name: 'Add Steamed chicken rice' }).click();
      await page.getByRole('dialog', { name: 'Add Steamed chicken rice' }).getByRole('button', { name: 'Add to cart' }).click();
      // The cart's own menu stream opens with it (the menu page's closed as it left): the kitchen taps once it is open, so the tap is heard, not read.
      const streamOpen = page.waitForResponse((r) => r.url().endsWith('/api/pt/menu/stream') && r.status() === 200);
      await page.getByRole('link', { name: 'View cart' }).click();
      await page.getByRole('list', { name: 'Dishes in your cart' }).waitFor();
      await streamOpen;
      await markDocument(page);

      await dishes.getByRole('button', { name: 'Sold out Braised egg' }).click();
      await dishes.getByRole('button', { name: 'Back in stock Braised egg' }).waitFor();
      await screenshot(kitchen.page, `kitchen-dishes-${label}`);

      const line = page.getByRole('list', { name: 'Dishes in your cart' }).getByRole('listitem').filter({ hasText: 'Braised egg' });
      await line.getByText('Sold out — remove it to order.').waitFor({ timeout: 5_000 });
      assert.ok(await documentMarked(page), 'flagged without a reload');
      await page.getByRole('button', { name: /^Place order without the marked dish · / }).waitFor();
      await screenshot(page, `cart-sold-out-${label}`);

      // Back in stock: the line is orderable again, still live.
      await dishes.getByRole('button', { name: 'Back in stock Braised egg' }).click();
      await line.getByText('Sold out — remove it to order.').waitFor({ state: 'detached', timeout: 5_000 });
      await page.getByRole('button', { name: /^Place order · / }).waitFor();
      assert.deepEqual(problems.messages, []);
      await context.close();
    }
    await kitchen.page.setViewportSize(PHONE);
    await kitchen.page.getByRole('button', { name: 'Sold out Barley water' }).click();
    await kitchen.page.getByRole('button', { name: 'Back in stock Barley water' }).waitFor();
    await screenshot(kitchen.page, 'kitchen-dishes-phone-390');
    assert.deepEqual(kitchen.problems.messages, []);
    await kitchen.context.close();
  });
});
