import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { shotsOf, signIn, startApp, watchProblems } from './harness';
import type { Account, E2eApp } from './harness';

/**
 * "Buzz me when it's ready" (issue 52): a diner asks with a tap; when the runner moves the order to
 * ready, the phone vibrates, chimes and (with the page in the background) shows a notification, once.
 * A test cannot feel or hear, so the page's calls to the vibration, the sound and the notifications
 * are counted. With SHOTS_DIR set, the page is saved as screenshots there.
 */
let app: E2eApp;
const RUNNER: Account = { email: 'rae.runner@frontdesk.test', password: 'runner-password-e2e', name: 'Rae Runner', role: 'runner' };

before(async () => {
  app = await startApp();
  await app.addAccount(RUNNER);
});
after(async () => {
  await app?.close();
});

type Recorded = { vibrations: unknown[]; chimes: number; notices: string[]; hidden: boolean };

/**
 * Records the page's vibrations, chimes (each note is an oscillator) and notifications, and lets the
 * test say whether the page is hidden. Plain text: a function would be compiled with helpers
 * (esbuild's `__name`) that do not exist in the page.
 */
const RECORDER = `
  const seen = { vibrations: [], chimes: 0, notices: [], hidden: false };
  window.e2eBuzz = seen;
  Object.defineProperty(navigator, 'vibrate', { configurable: true, value: (pattern) => (seen.vibrations.push(pattern), true) });
  const create = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () { seen.chimes++; return create.call(this); };
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => seen.hidden });
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) { super(title, options); seen.notices.push(title + ' · ' + ((options && options.body) || '')); }
  };
`;

/** A diner's browser whose vibration, chimes and notifications are recorded, and whose page can be "put in the background". */
async function diner(viewport: { width: number; height: number }) {
  const context = await app.browser.newContext({ baseURL: app.url, viewport });
  await context.grantPermissions(['notifications']);
  await context.addInitScript({ content: RECORDER });
  const page = await context.newPage();
  return { page, context, problems: watchProblems(page) };
}

const recorded = (page: Page) => page.evaluate(() => (window as unknown as { e2eBuzz: Recorded }).e2eBuzz);

const screenshot = shotsOf('order-buzz');

async function placeOrder(page: Page, table: number): Promise<number> {
  await page.goto(`/pt/diner/menu?table=${table}`);
  await page.getByRole('heading', { name: 'Menu', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Add Steamed chicken rice', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Steamed chicken rice' });
  await dialog.getByRole('button', { name: 'Add to cart' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('link', { name: 'View cart' }).click();
  await page.getByRole('button', { name: /^Place order/ }).click();
  const placed = page.getByRole('heading', { name: /^Order \d+ is placed$/ });
  await placed.waitFor();
  return Number(/(\d+)/.exec((await placed.textContent()) ?? '')?.[1]);
}

/** A runner signed in on their own browser, moving order `id` a step through the API as the board does. */
async function runnerFor(id: number) {
  const runnerContext = await app.browser.newContext({ baseURL: app.url });
  const runner = await runnerContext.newPage();
  await runner.goto('/login?redirect=%2Fpt%2Frunner');
  await signIn(runner, RUNNER.email, RUNNER.password);
  await runner.waitForURL((url) => url.pathname === '/pt/runner');
  const move = (status: string) =>
    runner.evaluate(
      async ({ id, status }) => (await fetch(`/api/pt/orders/${id}`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ status }) })).status,
      { id, status },
    );
  return { move, runnerContext };
}

describe('buzz when the order is ready', () => {
  for (const [label, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    it(`at ${viewport.width} px: asked with a tap, buzzes once when the runner marks it ready, with a notification while in the background`, async () => {
      const { page, context, problems } = await diner(viewport);
      const id = await placeOrder(page, 7);
      const confirmation = page.getByRole('region', { name: `Order ${id} is placed` });
      await confirmation.getByTitle('Order updates: Live').waitFor();

      await confirmation.getByRole('button', { name: 'Buzz me when it’s ready' }).click();
      const promise = confirmation.getByRole('status').filter({ hasText: 'We will buzz you when it is ready.' });
      await promise.waitFor();
      await promise.getByText('with the page in the background you get a notification too.').waitFor();
      await screenshot(page, `asked-${label}`);
      const afterTap = await recorded(page);
      assert.deepEqual(afterTap.vibrations, [80], 'the tap gives one short buzz');

      // The diner puts the phone away; the runner moves the order along.
      await page.evaluate(() => ((window as unknown as { e2eBuzz: Recorded }).e2eBuzz.hidden = true));
      const { move, runnerContext } = await runnerFor(id);
      assert.equal(await move('preparing'), 200);
      await confirmation.locator('.order-status-line .badge').filter({ hasText: /^Preparing$/ }).waitFor();
      assert.equal((await recorded(page)).vibrations.length, 1, 'no buzz before it is ready');

      assert.equal(await move('ready'), 200);
      await confirmation.locator('.order-status-line .badge').filter({ hasText: /^Ready$/ }).waitFor();
      await page.waitForFunction(() => (window as unknown as { e2eBuzz: Recorded }).e2eBuzz.chimes >= 6); // three chimes of two notes
      const buzzed = await recorded(page);
      assert.deepEqual(buzzed.vibrations, [80, [300, 150, 300, 150, 600]]);
      assert.deepEqual(buzzed.notices, [`Order ${id} is ready · A runner is bringing it to table 7.`]);
      await page.evaluate(() => ((window as unknown as { e2eBuzz: Recorded }).e2eBuzz.hidden = false));
      assert.equal(await confirmation.getByRole('button', { name: /Buzz me/ }).count(), 0);

      // Served, and the page opened again: no second buzz.
      assert.equal(await move('served'), 200);
      await confirmation.locator('.order-status-line .badge').filter({ hasText: /^Served$/ }).waitFor();
      await page.goto('/pt/diner/order');
      await page.getByRole('heading', { name: `Order ${id}` }).waitFor();
      assert.deepEqual((await recorded(page)).vibrations, [], 'the reopened page did not buzz again');
      await screenshot(page, `served-${label}`);

      assert.deepEqual(problems.messages, []);
      await runnerContext.close();
      await context.close();
    });

    it(`at ${viewport.width} px: a diner who asked and went back to the menu for more is buzzed there`, async () => {
      const { page, context, problems } = await diner(viewport);
      const id = await placeOrder(page, 9);
      const confirmation = page.getByRole('region', { name: `Order ${id} is placed` });
      await confirmation.getByRole('button', { name: 'Buzz me when it’s ready' }).click();
      await confirmation.getByRole('status').filter({ hasText: 'We will buzz you when it is ready.' }).waitFor();

      await page.getByRole('navigation', { name: 'Food court' }).getByRole('link', { name: 'Menu' }).click();
      await page.getByRole('heading', { name: 'Menu', level: 1 }).waitFor();
      const { move, runnerContext } = await runnerFor(id);
      assert.equal(await move('preparing'), 200);
      assert.equal(await move('ready'), 200);
      await page.waitForFunction(() => (window as unknown as { e2eBuzz: Recorded }).e2eBuzz.chimes >= 6);
      assert.deepEqual((await recorded(page)).vibrations, [80, [300, 150, 300, 150, 600]]);
      assert.equal(new URL(page.url()).pathname, '/pt/diner/menu', 'the diner stayed on the menu');

      assert.deepEqual(problems.messages, []);
      await runnerContext.close();
      await context.close();
    });
  }
});
