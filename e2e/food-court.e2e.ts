import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { shotsOf, signIn, startApp, watchProblems } from './harness';
import type { Account, E2eApp, ExpectedFailure } from './harness';

/**
 * The food court end to end (issue 12): a diner without an account orders from two stalls at
 * table 12; the order appears on a runner's board in a second browser with no reload; the runner
 * bumps it to ready and the diner's confirmation follows live. Then staff mark a dish sold out
 * while it sits in another diner's cart: the open cart marks that line at once and leaves it out, and
 * the menu no longer lets anyone add it. The demo seed (bff/features/pt/pt.seed.ts) provides the stalls.
 * With SHOTS_DIR set, the confirmation and the board are saved as screenshots there.
 */
let app: E2eApp;

const RUNNER: Account = { email: 'rae.runner@frontdesk.test', password: 'runner-password-e2e', name: 'Rae Runner', role: 'runner' };
const STAFF: Account = { email: 'sam.staff@frontdesk.test', password: 'staff-password-e2e', name: 'Sam Staff', role: 'staff' };

before(async () => {
  app = await startApp();
  await app.addAccount(RUNNER);
  await app.addAccount(STAFF);
});
after(async () => {
  await app?.close();
});

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A diner: a fresh browser context with no session (a phone that scanned the table's QR code). */
async function diner(expected: ExpectedFailure[] = []) {
  const context = await app.browser.newContext({ baseURL: app.url, viewport: PHONE });
  const page = await context.newPage();
  return { page, context, problems: watchProblems(page, expected) };
}

/** Someone signed in through the login form, landing on `path`. */
async function signedIn(account: Account, path: string) {
  const context = await app.browser.newContext({ baseURL: app.url, viewport: DESKTOP });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`/login?redirect=${encodeURIComponent(path)}`);
  await signIn(page, account.email, account.password);
  await page.waitForURL((url) => url.pathname === path);
  return { page, context, problems };
}

/** Marks the document, so a test can prove later that the page was not reloaded. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { e2eMark: string }).e2eMark = 'still here'));
const documentMarked = (page: Page) => page.evaluate(() => (window as unknown as { e2eMark?: string }).e2eMark === 'still here');

const screenshot = shotsOf('food-court');

/** Money as shown ("€6.50", "6,50 €", "€1,590.00") in cents: its digits, as every price has two decimals. */
async function cents(locator: Locator): Promise<number> {
  const text = (await locator.textContent()) ?? '';
  const digits = text.replace(/\D/g, '');
  assert.ok(digits, `no amount in “${text}”`);
  return Number(digits);
}

/** A dish on the diner menu (or a stall page), by its exact name. */
const menuItem = (page: Page, name: string) => page.locator('li.menu-item').filter({ has: page.getByRole('heading', { name, exact: true }) });

async function openMenu(page: Page, table: number) {
  await page.goto(`/pt/diner/menu?table=${table}`);
  await page.getByRole('heading', { name: 'Menu', level: 1 }).waitFor();
  await page.getByText(`You are ordering for table ${table}.`).waitFor();
}

/** Adds a dish through its dialog; answers the price the menu shows for one. */
async function addDish(page: Page, name: string, { quantity = 1, note = '' } = {}): Promise<number> {
  const price = await cents(menuItem(page, name).locator('.menu-item-price'));
  await page.getByRole('button', { name: `Add ${name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Add ${name}` });
  for (let n = 1; n < quantity; n++) await dialog.getByRole('button', { name: `One more ${name}`, exact: true }).click();
  assert.equal(await dialog.getByLabel('Quantity', { exact: true }).inputValue(), String(quantity));
  if (note) await dialog.getByLabel('Note for the stall (optional)').fill(note);
  await dialog.getByRole('button', { name: 'Add to cart' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('status').filter({ hasText: `Added ${quantity} × ${name} to your cart.` }).waitFor({ state: 'attached' });
  return price;
}

async function openCart(page: Page) {
  await page.getByRole('link', { name: 'View cart' }).click();
  await page.waitForURL((url) => url.pathname === '/pt/diner/cart');
  const cart = page.getByRole('region', { name: 'Cart' });
  await cart.waitFor();
  return cart;
}

const cartLine = (cart: Locator, name: string) => cart.getByRole('list', { name: 'Dishes in your cart' }).getByRole('listitem').filter({ hasText: name });

describe('food court', () => {
  it('a diner orders from two stalls; the runner sees it live, bumps it to ready, and the diner sees “Ready” live', async () => {
    const DISHES = [
      { name: 'Steamed chicken rice', stall: 'Ah Seng Chicken Rice', quantity: 2, note: 'No chilli, extra ginger' },
      { name: 'Cacio e pepe', stall: 'Nonna Lucia Pasta', quantity: 1, note: '' },
    ];

    // The runner's board is open before anything is ordered, and connected to the live stream.
    const runner = await signedIn(RUNNER, '/pt/runner');
    const board = runner.page;
    await board.getByRole('heading', { name: 'Runner board', level: 1 }).waitFor();
    await board.getByTitle('Live orders: Live').waitFor();
    await board.getByRole('heading', { name: 'No open orders' }).waitFor();
    await markDocument(board);

    // The diner scans table 12's code and adds a dish from each of two stalls.
    const { page, context, problems } = await diner();
    await openMenu(page, 12);
    const prices: number[] = [];
    for (const dish of DISHES) {
      const stall = page.getByRole('region', { name: dish.stall });
      await stall.getByRole('heading', { name: dish.name, exact: true }).waitFor();
      prices.push(await addDish(page, dish.name, { quantity: dish.quantity, note: dish.note }));
    }
    const expectedTotal = DISHES.reduce((sum, dish, i) => sum + dish.quantity * prices[i]!, 0);

    // The cart: both lines, the note, the quantity, and a total that adds up the menu's prices.
    const cart = await openCart(page);
    await cart.getByText('For table 12.').waitFor();
    for (const [i, dish] of DISHES.entries()) {
      const line = cartLine(cart, dish.name);
      await line.getByText(dish.stall).waitFor();
      assert.equal((await line.getByRole('group', { name: `Quantity of ${dish.name}` }).textContent())?.trim(), String(dish.quantity));
      assert.equal(await cents(line.locator('.cart-line-price')), dish.quantity * prices[i]!, `${dish.name}: the line's price`);
      if (dish.note) await line.getByText(`“${dish.note}”`).waitFor();
    }
    await cart.getByText('Total for 3 items').waitFor();
    const total = cart.locator('.order-total strong');
    assert.equal(await cents(total), expectedTotal, 'the cart total is the sum of the menu prices');
    const totalText = (await total.textContent()) ?? '';
    const place = cart.getByRole('button', { name: `Place order · ${totalText}` });
    await place.click();

    // The confirmation: the order's number, its lines and total, "Received".
    const placedHeading = page.getByRole('heading', { name: /^Order \d+ is placed$/ });
    await placedHeading.waitFor();
    const id = Number(/(\d+)/.exec((await placedHeading.textContent()) ?? '')?.[1]);
    const confirmation = page.getByRole('region', { name: `Order ${id} is placed` });
    await confirmation.getByText('Table 12 · placed').waitFor();
    await confirmation.locator('.order-status-line .badge').filter({ hasText: /^Received$/ }).waitFor();
    await confirmation.getByText('The stalls have your order.').waitFor();
    assert.equal(await cents(confirmation.locator('.order-total strong')), expectedTotal, 'the order total is the cart total');
    const placedLines = confirmation.getByRole('list', { name: `Order ${id}` }).getByRole('listitem');
    assert.equal(await placedLines.count(), 2);
    await placedLines.filter({ hasText: DISHES[0]!.name }).getByText(`“${DISHES[0]!.note}”`).waitFor();
    await page.getByRole('heading', { name: 'Want anything else?' }).waitFor(); // the cart was emptied
    await confirmation.getByTitle('Order updates: Live').waitFor();
    await markDocument(page);

    // The ticket arrives on the board, in Received, without a reload.
    const ticketName = `Table 12 · Order ${id}`;
    const received = board.getByRole('list', { name: 'Received orders' }).getByRole('article', { name: ticketName });
    await received.waitFor();
    await received.getByText('New', { exact: true }).waitFor();
    await received.getByText(`Note: ${DISHES[0]!.note}`).waitFor();
    for (const dish of DISHES) await received.getByText(dish.name).waitFor();
    assert.equal(await documentMarked(board), true, 'the runner board reloaded');

    // Bump to preparing, then to ready; the diner's confirmation follows each step live.
    await received.getByRole('button', { name: `Start preparing (order ${id})` }).click();
    const preparing = board.getByRole('list', { name: 'Preparing orders' }).getByRole('article', { name: ticketName });
    await preparing.waitFor();
    await board.getByText(`Order ${id} (table 12) is preparing.`).waitFor();
    await confirmation.locator('.order-status-line .badge').filter({ hasText: /^Preparing$/ }).waitFor();

    await preparing.getByRole('button', { name: `Mark ready (order ${id})` }).click();
    const ready = board.getByRole('list', { name: 'Ready orders' }).getByRole('article', { name: ticketName });
    await ready.waitFor();
    await ready.getByRole('button', { name: `Mark served (order ${id})` }).waitFor();
    await confirmation.locator('.order-status-line .badge').filter({ hasText: /^Ready$/ }).waitFor();
    await confirmation.getByText('A runner is bringing it over.').waitFor();
    assert.equal((await confirmation.locator('[aria-current="step"] .order-step-label').textContent())?.trim(), 'Ready');
    assert.equal(await documentMarked(page), true, 'the diner’s confirmation reloaded');
    assert.equal(await documentMarked(board), true, 'the runner board reloaded');

    await screenshot(page, 'diner-confirmation-ready');
    await screenshot(board, 'runner-board-ready');

    assert.deepEqual(problems.messages, [], 'diner');
    assert.deepEqual(runner.problems.messages, [], 'runner');
    await context.close();
    await runner.context.close();
  });

  it('each stall’s kitchen screen shows and chimes only its lines; both bump; the runner sees which stalls are done; the figures count the order in its hour', async () => {
    const TABLET = { width: 1180, height: 820 };
    const DISHES = [
      { name: 'Steamed chicken rice', stall: 'Ah Seng Chicken Rice' },
      { name: 'Cacio e pepe', stall: 'Nonna Lucia Pasta' },
    ];
    /** A kitchen's tablet, its sound turned on (the chimes it plays are counted: a test cannot listen). */
    async function kitchen(account: Account, stall: string) {
      const context = await app.browser.newContext({ baseURL: app.url, viewport: TABLET });
      await context.addInitScript(() => {
        const counted = window as unknown as { e2eChimes: number };
        counted.e2eChimes = 0;
        const create = AudioContext.prototype.createOscillator;
        AudioContext.prototype.createOscillator = function (this: AudioContext) {
          counted.e2eChimes++;
          return create.call(this);
        };
      });
      const page = await context.newPage();
      const problems = watchProblems(page);
      const { items } = (await (await page.request.get(`/api/pt/stalls?query=${encodeURIComponent(stall)}`)).json()) as { items: { id: number; name: string }[] };
      const id = items.find((s) => s.name === stall)!.id;
      await page.goto(`/login?redirect=${encodeURIComponent(`/pt/kitchen/${id}`)}`);
      await signIn(page, account.email, account.password);
      await page.getByRole('heading', { name: stall, level: 1 }).waitFor();
      await page.getByRole('button', { name: /Sound off/ }).click();
      await page.getByRole('button', { name: /Sound on/ }).waitFor();
      const chimes = () => page.evaluate(() => (window as unknown as { e2eChimes: number }).e2eChimes);
      return { page, context, problems, chimes, chimesBefore: await chimes() };
    }
    const runner = await signedIn(RUNNER, '/pt/runner');
    const board = runner.page;
    await board.getByTitle('Live orders: Live').waitFor();

    // Earlier this hour each stall made 5 tickets (bumped at once: its screen's Start, then Ready), so
    // the menu has a wait to tell. Placed and bumped through the API from the runner's page.
    const warmUp = await board.evaluate(async (dishes) => {
      const json = { 'Content-Type': 'application/json' };
      const menu = (await (await fetch('/api/pt/menu')).json()) as { stalls: Array<{ id: number; name: string; items: Array<{ id: number; name: string }> }> };
      const statuses: number[] = [];
      for (const dish of dishes) {
        const stall = menu.stalls.find((s) => s.name === dish.stall)!;
        const itemId = stall.items.find((item) => item.name === dish.name)!.id;
        for (let n = 0; n < 5; n++) {
          const placed = await fetch('/api/pt/order', { method: 'POST', headers: json, body: JSON.stringify({ table: 30, cart: [{ itemId, quantity: 1 }] }) });
          statuses.push(placed.status);
          const { id } = (await placed.json()) as { id: number };
          for (const [from, to] of [['received', 'preparing'], ['preparing', 'ready']]) {
            statuses.push((await fetch(`/api/pt/kitchen/${stall.id}/tickets/${id}`, { method: 'PATCH', headers: json, body: JSON.stringify({ from, to }) })).status);
          }
        }
      }
      return statuses;
    }, DISHES);
    assert.deepEqual([...new Set(warmUp)], [201, 200], `warming the stalls up answered ${warmUp.join(' ')}`);
    const screens = [await kitchen(RUNNER, DISHES[0]!.stall), await kitchen(STAFF, DISHES[1]!.stall)];

    // A diner at table 12 sees each stall's wait, and orders one dish from each stall.
    const { page, context, problems } = await diner();
    await openMenu(page, 12);
    for (const dish of DISHES) {
      const stallWait = page.getByRole('region', { name: dish.stall }).locator('.diner-stall-wait');
      assert.match((await stallWait.textContent()) ?? '', /^\s*Wait about \d+–\d+ min$/, `${dish.stall}'s wait on the menu`);
    }
    for (const dish of DISHES) await addDish(page, dish.name);
    const cart = await openCart(page);
    await cart.getByRole('button', { name: /^Place order/ }).click();
    const placedHeading = page.getByRole('heading', { name: /^Order \d+ is placed$/ });
    await placedHeading.waitFor();
    const hour = `${String(new Date().getHours()).padStart(2, '0')}:00`;
    const id = Number(/(\d+)/.exec((await placedHeading.textContent()) ?? '')?.[1]);
    const confirmation = page.getByRole('region', { name: `Order ${id} is placed` });
    const estimate = confirmation.locator('.order-wait');
    assert.match((await estimate.textContent()) ?? '', /Ready in about \d+–\d+ min from placing, around \S.*–\S.*\./);

    // Each stall's screen: the ticket with its own dish only, new, flashing, and a chime.
    for (const [i, screen] of screens.entries()) {
      const ticket = screen.page.getByRole('list', { name: 'New tickets' }).getByRole('article', { name: `Table 12 · Order ${id}` });
      await ticket.getByText(DISHES[i]!.name).waitFor();
      assert.equal(await ticket.getByText(DISHES[1 - i]!.name).count(), 0, `${DISHES[i]!.stall} shows another stall's dish`);
      assert.match((await ticket.getAttribute('class')) ?? '', /kitchen-fresh/);
      assert.ok((await screen.chimes()) > screen.chimesBefore, `${DISHES[i]!.stall}'s screen made no sound`);
    }
    await screenshot(screens[0]!.page, 'kitchen-new-ticket-tablet');

    // The runner sees the order with a chip per stall; each stall's Ready ticks its own.
    const onBoard = board.getByRole('article', { name: `Table 12 · Order ${id}` });
    const chips = onBoard.getByRole('list', { name: `Stalls of order ${id}` });
    for (const dish of DISHES) await chips.getByText(`${dish.stall} · Received`).waitFor();
    for (const [i, screen] of screens.entries()) {
      await screen.page.getByRole('button', { name: `Start (order ${id})` }).click();
      await screen.page.getByRole('list', { name: 'Preparing tickets' }).getByRole('article', { name: `Table 12 · Order ${id}` }).waitFor();
      await screen.page.getByRole('button', { name: `Ready (order ${id})` }).click();
      await screen.page.getByRole('list', { name: 'Ready tickets' }).getByRole('article', { name: `Table 12 · Order ${id}` }).waitFor();
      await chips.getByText(`${DISHES[i]!.stall} · ✓ Ready`).waitFor();
    }
    // Both stalls ready: the order is ready for the runner and for the diner.
    await board.getByRole('list', { name: 'Ready orders' }).getByRole('article', { name: `Table 12 · Order ${id}` }).waitFor();
    await confirmation.locator('.order-status-line .badge').filter({ hasText: /^Ready$/ }).waitFor();
    // Ready: the estimate has done its work, the status says it now.
    await estimate.waitFor({ state: 'detached' });
    await screenshot(screens[1]!.page, 'kitchen-ready-tablet');
    await screenshot(board, 'runner-board-stall-chips');

    // The day's figures count it in the hour it was placed, at both stalls.
    const figures = await signedIn(STAFF, '/pt/reports');
    const byHour = figures.page.getByRole('table', { name: 'Figures by hour' });
    await byHour.getByRole('row').filter({ hasText: hour }).waitFor();
    const byStall = figures.page.getByRole('table', { name: 'Figures by stall' });
    for (const dish of DISHES) await byStall.getByRole('row').filter({ hasText: dish.stall }).waitFor();
    await screenshot(figures.page, 'reports-desktop');

    for (const [who, watched] of [['diner', problems], ['runner', runner.problems], ['figures', figures.problems], ...screens.map((s, i) => [`kitchen ${i}`, s.problems] as const)] as const) {
      assert.deepEqual(watched.messages, [], who);
    }
    for (const open of [context, runner.context, figures.context, ...screens.map((s) => s.context)]) await open.close();
  });

  it('a dish marked sold out while in a cart: that line is marked live and left out, the other kept; the menu cannot add it', async () => {
    const SOLD = { name: 'Bibimbap', stall: 'Seoul Bowl' };
    const KEPT = { name: 'Tacos al pastor (3)', stall: 'Taquería El Güero' };

    // A diner at table 7 has both dishes in the cart and the cart open.
    const { page, context, problems } = await diner([{ path: '/api/pt/order', status: 409 }]);
    await openMenu(page, 7);
    await addDish(page, SOLD.name);
    await addDish(page, KEPT.name);
    const cart = await openCart(page);
    await cartLine(cart, SOLD.name).waitFor();
    await cartLine(cart, KEPT.name).waitFor();

    // Meanwhile staff mark the dish sold out on its stall's page.
    const staff = await signedIn(STAFF, '/pt/stalls');
    await staff.page.getByRole('list', { name: 'Stalls' }).getByRole('link', { name: new RegExp(`^${SOLD.stall}`) }).click();
    await staff.page.waitForURL(/\/pt\/stalls\/\d+$/);
    await staff.page.getByRole('heading', { name: SOLD.stall, level: 1 }).waitFor();
    await staff.page.getByRole('button', { name: `Mark sold out ${SOLD.name}` }).click();
    await staff.page.getByText(`${SOLD.name} is marked sold out.`).waitFor();
    await menuItem(staff.page, SOLD.name).getByText('Sold out', { exact: true }).waitFor();
    await staff.page.getByRole('button', { name: `Mark available ${SOLD.name}` }).waitFor();

    // The open cart hears it (issue 52): the line is marked with no reload and left out of the order; nothing is ordered.
    const soldLine = cartLine(cart, SOLD.name);
    await soldLine.getByText('Sold out — remove it to order.').waitFor();
    const keptLine = cartLine(cart, KEPT.name);
    assert.equal(await keptLine.locator('.cart-line-warning, .cart-line-error').count(), 0, 'the other line is not marked');
    await cart.getByRole('button', { name: /^Place order without the marked dish · / }).waitFor();
    assert.equal(await cart.getByRole('list', { name: 'Dishes in your cart' }).getByRole('listitem').count(), 2);
    assert.equal(await page.getByRole('heading', { name: /^Order \d+ is placed$/ }).count(), 0, 'nothing was ordered');
    await soldLine.scrollIntoViewIfNeeded();
    await screenshot(page, 'cart-sold-out-refused');

    // On the menu the dish shows as sold out, with no Add button; the other dish can still be added.
    await page.getByRole('navigation', { name: 'Food court' }).getByRole('link', { name: 'Menu', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/pt/diner/menu');
    await page.getByText('You are ordering for table 7.').waitFor(); // remembered from the QR link
    const soldItem = menuItem(page, SOLD.name);
    await soldItem.getByText('Sold out', { exact: true }).waitFor();
    assert.equal(await soldItem.getByRole('button').count(), 0, 'a sold-out dish has no Add button');
    assert.equal(await page.getByRole('button', { name: `Add ${SOLD.name}`, exact: true }).count(), 0);
    await page.getByRole('button', { name: `Add ${KEPT.name}`, exact: true }).waitFor();
    await soldItem.scrollIntoViewIfNeeded();
    await screenshot(page, 'menu-sold-out');

    // Without the sold-out line the rest of the cart goes through.
    await page.goto('/pt/diner/cart');
    await cart.getByRole('button', { name: `Remove ${SOLD.name}` }).click();
    await cartLine(cart, SOLD.name).waitFor({ state: 'detached' });
    await cart.getByRole('button', { name: /^Place order · / }).click();
    const placedHeading = page.getByRole('heading', { name: /^Order \d+ is placed$/ });
    await placedHeading.waitFor();
    const confirmation = page.getByRole('region', { name: (await placedHeading.textContent())?.trim() ?? '' });
    const lines = confirmation.getByRole('list', { name: /^Order \d+$/ }).getByRole('listitem');
    assert.equal(await lines.count(), 1);
    await lines.getByText(KEPT.name).waitFor();

    assert.deepEqual(problems.messages, [], 'diner');
    assert.deepEqual(staff.problems.messages, [], 'staff');
    await context.close();
    await staff.context.close();
  });
});
