import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { ADMIN, simulateUnlock, startApp, watchProblems } from './harness';
import type { E2eApp } from './harness';

/**
 * The front desk by keyboard alone: no click, no fill, only key presses (page.goto opens the first
 * page, as typing its address would). Every stop on the way must show a focus ring.
 */
let app: E2eApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

/** Seeded gym members with a Kisi account whose door access is on (one per run of the flow, as it pauses them). */
const PEOPLE = [
  { name: 'Bruno Costa', email: 'bruno.costa@mail.example' },
  { name: 'Daniel Kim', email: 'daniel.kim@mail.example' },
];

type FocusState = { where: string; ring: boolean };

/** What has the focus, and whether a focus indicator is drawn for it. */
function focusState(page: Page): Promise<FocusState> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { where: 'the document body (focus was lost)', ring: false };
    // (No inner named functions: the page cannot run the helpers the TypeScript compiler adds for them.)
    let node: Element | null = el;
    let ring = false;
    while (node && !ring) {
      const style = getComputedStyle(node);
      ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'; // text fields: a border and a glow
      // A native control hidden under its drawing (radio cards, the segmented control) lights up its drawing.
      node = !ring && parseFloat(style.opacity) === 0 ? node.nextElementSibling : null;
    }
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().replace(/\s+/g, ' ').slice(0, 60) ?? '';
    return { where: `<${el.tagName.toLowerCase()}> "${name}"`, ring };
  });
}

const hasFocus = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus, checking the focus ring at every stop. */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}) {
  const path: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const state = await focusState(page);
    path.push(state.where);
    assert.ok(state.ring, `on the way to ${target.toString()}: no visible focus on ${state.where}, after:\n${path.join('\n')}`);
    if (await hasFocus(target)) return;
  }
  assert.fail(`${max} presses of ${back ? 'Shift+Tab' : 'Tab'} never reached the target; went through:\n${path.join('\n')}`);
}

/**
 * Waits until a navigation has landed: the new page's heading is shown and the focus has settled
 * (on what kept it, or on the main region when what had it went away), as a user would before Tab.
 */
async function arrived(page: Page, heading: Locator) {
  await heading.waitFor();
  await page.waitForFunction(() => document.activeElement !== null && document.activeElement !== document.body);
}

async function press(page: Page, key: string) {
  await page.keyboard.press(key);
}

async function typeCredentials(page: Page) {
  const email = page.getByLabel('Email');
  await email.waitFor();
  // The field takes the focus once the page has painted (a frame after it shows).
  await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'email', null, { timeout: 5_000 }).catch(() => undefined);
  assert.ok(await hasFocus(email), 'the login form starts in its Email field');
  await page.keyboard.type(ADMIN.email);
  await press(page, 'Tab');
  await page.keyboard.type(ADMIN.password);
  await press(page, 'Enter');
}

/** Signs in from the home page's header link, by keyboard; lands on the staff shell. */
async function signInByKeyboard(page: Page) {
  await page.goto('/');
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.getByRole('banner').getByRole('link', { name: 'Sign in', includeHidden: true }).waitFor({ state: 'attached' });
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) {
    await tabTo(page, menu);
    await press(page, 'Enter');
  }
  await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Sign in' }));
  await press(page, 'Enter');
  await page.waitForURL((url) => url.pathname === '/login');
  await typeCredentials(page);
  await page.waitForURL((url) => url.pathname === '/shell');
  await arrived(page, page.getByRole('heading', { name: 'Your account' }));
}

for (const [i, viewport] of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
].entries()) {
  const PERSON = PEOPLE[i]!;
  describe(`by keyboard alone at ${viewport.width} px`, () => {
    it('signs in, finds a member, pauses their membership and confirms: the doors close to them', async () => {
      const { page, context } = await app.newPage({ viewport });
      // Tabbing over staff links while signed out must not ask for their data (it would only answer 401).
      const problems = watchProblems(page);
      await signInByKeyboard(page);

      // Into the member list: back up to the header (its links behind the menu button on a phone), then the gym tabs.
      const menu = page.getByRole('button', { name: 'Menu' });
      const gymOwners = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gym owners' });
      if (await menu.isVisible()) {
        await tabTo(page, menu, { back: true });
        await press(page, 'Enter');
        assert.equal(await menu.getAttribute('aria-expanded'), 'true');
        await tabTo(page, gymOwners);
      } else {
        await tabTo(page, gymOwners, { back: true });
      }
      await press(page, 'Enter');
      await page.waitForURL((url) => url.pathname === '/gymowners');
      await arrived(page, page.getByRole('heading', { name: 'Gym owners', level: 1 }));
      await tabTo(page, page.getByRole('navigation', { name: 'Gym' }).getByRole('link', { name: 'Members' }));
      await press(page, 'Enter');
      await page.waitForURL((url) => url.pathname === '/shell/gymowner/users');
      await arrived(page, page.getByRole('heading', { name: 'Members', level: 1 }));

      // Find them by name.
      await tabTo(page, page.getByRole('searchbox', { name: 'Search members' }));
      await page.keyboard.type(PERSON.name);
      await page.waitForURL((url) => url.searchParams.get('query') === PERSON.name);
      const row = page.getByRole('table', { name: 'Members' }).getByRole('link', { name: new RegExp(PERSON.email.replace(/\./g, '\\.')) });
      await row.waitFor();
      await tabTo(page, row);
      await press(page, 'Enter');
      await arrived(page, page.getByRole('heading', { name: PERSON.name, level: 1 }));
      await page.getByTestId('kisi-access').getByText('Enabled').waitFor();

      // The membership: the arrow key only chooses; the confirm button says what happens and does it.
      const active = page.getByRole('radio', { name: /Active/ });
      const paused = page.getByRole('radio', { name: /Paused/ });
      await tabTo(page, active);
      await press(page, 'ArrowRight');
      assert.equal(await paused.isChecked(), true);
      await page.getByText('Active → Paused. The doors close to them.').waitFor();
      assert.equal(await page.getByTestId('kisi-access').getByText('Enabled').count(), 1, 'choosing alone must not switch the doors');
      const confirm = page.getByRole('button', { name: 'Pause membership' });
      await tabTo(page, confirm);
      await press(page, 'Enter');

      // Announced in the toasts' polite live region, and focus goes back to the choice.
      const toasts = page.getByRole('region', { name: 'Notifications' }).getByRole('status');
      await toasts.getByText('Membership paused. Door access is off.').waitFor();
      assert.equal(await toasts.getAttribute('aria-live'), 'polite');
      await confirm.waitFor({ state: 'detached' });
      assert.ok(await hasFocus(paused), `after confirming, focus is on ${(await focusState(page)).where}`);
      await page.getByTestId('kisi-access').getByText('Disabled').waitFor();
      await page.getByTestId('door-state').getByText('Doors closed: membership not active').waitFor();

      assert.deepEqual(problems.messages, []);
      await context.close();
    });

    it('a diner adds a dish, tabs on through the menu clear of the cart bar, and steps the count down to 1 keeping the focus', async () => {
      const { page, context, problems } = await app.newPage({ viewport });
      await page.goto('/pt/diner/menu?table=6');
      const firstAdd = page.getByRole('button', { name: /^Add / }).first();
      await firstAdd.waitFor();
      const dish = ((await firstAdd.textContent()) ?? '').replace(/^\s*Add\s*/, '').trim();
      await tabTo(page, firstAdd);
      await press(page, 'Enter');
      const dialog = page.getByRole('dialog');
      await tabTo(page, dialog.getByRole('button', { name: 'Add to cart' }));
      await press(page, 'Enter');
      const bar = page.locator('.cart-bar');
      await bar.waitFor();
      await dialog.waitFor({ state: 'detached' });

      // The bar floats over the page's foot: nothing that takes the focus may sit under it.
      const covered: string[] = [];
      for (let step = 0; step < 25; step++) {
        await press(page, 'Tab');
        await page.evaluate(() => new Promise(requestAnimationFrame));
        const under = await page.evaluate(() => {
          const el = document.activeElement;
          const over = document.querySelector('.cart-bar');
          if (!el || el === document.body || !over || over.contains(el)) return null;
          const box = el.getBoundingClientRect();
          const b = over.getBoundingClientRect();
          return box.bottom > b.top && box.top < b.bottom ? (el.textContent ?? '').trim() : null;
        });
        if (under) covered.push(under);
      }
      assert.deepEqual(covered, [], 'focused under the cart bar');

      await tabTo(page, bar.getByRole('link', { name: 'View cart' }));
      await press(page, 'Enter');
      const more = page.getByRole('button', { name: `One more ${dish}` });
      const fewer = page.getByRole('button', { name: `One fewer ${dish}` });
      await more.waitFor();
      await tabTo(page, more);
      await press(page, 'Enter');
      await tabTo(page, fewer, { back: true });
      await press(page, 'Enter');
      await page.getByRole('group', { name: `Quantity of ${dish}` }).getByText('1', { exact: true }).waitFor();
      assert.ok(await hasFocus(fewer), `at 1, focus is on ${(await focusState(page)).where}`);
      await press(page, 'Enter'); // off at 1: nothing changes
      assert.equal(await fewer.getAttribute('aria-disabled'), 'true');
      assert.deepEqual(problems.messages, []);
      await context.close();
    });
  });
}

describe('focus in dialogs and live updates', () => {
  /**
   * Signs in and lands on `path`, whose heading is `heading`: the URL changes before the new page has
   * rendered, and until it has, the login's own heading and field (with the focus) are still there.
   */
  async function signedIn(path: string, heading: string) {
    const { page, context, problems } = await app.newPage();
    await page.goto(`/login?redirect=${encodeURIComponent(path)}`);
    await typeCredentials(page);
    await page.waitForURL((url) => url.pathname + url.search === path);
    await arrived(page, page.getByRole('heading', { name: heading, level: 1 }));
    return { page, context, problems };
  }

  it('a dialog takes the focus, keeps Tab and Shift+Tab inside, and gives the focus back on Escape', async () => {
    const { page, context, problems } = await signedIn('/gymowners', 'Gym owners');
    const add = page.getByRole('button', { name: 'Add owner' });
    await tabTo(page, add);
    await press(page, 'Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a gym owner' });
    await dialog.waitFor();
    assert.ok(await hasFocus(dialog.getByLabel('Name', { exact: true })), 'the dialog opens on its first field');
    const focusables = await dialog.locator('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled])').count();
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < focusables + 2; i++) {
        await press(page, key);
        const state = await focusState(page);
        assert.ok(await dialog.evaluate((el) => el.contains(document.activeElement)), `${key} left the dialog for ${state.where}`);
        assert.ok(state.ring, `no visible focus on ${state.where}`);
      }
    }
    await press(page, 'Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.ok(await hasFocus(add), `after Escape, focus is on ${(await focusState(page)).where}`);
    assert.deepEqual(problems.messages, []);
    await context.close();
  });

  it('the inbox announces new events politely; loading them moves the focus to the events, not the body', async () => {
    const { page, context, problems } = await signedIn('/shell/webhook', 'Door events');
    await page.getByText('Live', { exact: true }).waitFor();
    // The live region is in the page before anything arrives (one that appears with its news is not announced).
    const slot = page.locator('.new-events-slot[aria-live="polite"]');
    assert.equal(await slot.count(), 1);
    assert.notEqual(await slot.evaluate((el) => getComputedStyle(el).display), 'none');

    const unlock = await simulateUnlock(page, PEOPLE[0]!.email);
    const banner = slot.getByRole('button', { name: '1 new event' });
    await banner.waitFor();
    await tabTo(page, banner);
    await press(page, 'Enter');
    await banner.waitFor({ state: 'detached' });
    const table = page.getByRole('table');
    await table.getByRole('row').nth(1).getByText(unlock.event.object_name).waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'TABLE');
    assert.deepEqual(problems.messages, []);
    await context.close();
  });
});
