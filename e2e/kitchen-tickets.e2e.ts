import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { shotsOf, signIn, startApp } from './harness';
import type { Account, E2eApp } from './harness';

/**
 * Kitchen tickets dish by dish (issue 52), at 390 and 1280 px: a diner orders two dishes from one
 * stall, one with a note, both with allergens; the stall's kitchen screen shows the note and the
 * allergens on the ticket and marks the dishes ready one tap at a time; the diner's order page says
 * "1 of 2 dishes ready", then Ready after the last; the figures show the stall's average preparation.
 * The demo seed (bff/features/pt/pt.seed.ts) provides the stall and its dishes' allergens. With
 * SHOTS_DIR set, the ticket, the order page and the figures are saved as screenshots there.
 */
let app: E2eApp;

const STAFF: Account = { email: 'kit.staff@frontdesk.test', password: 'staff-password-e2e', name: 'Kit Staff', role: 'staff' };
const STALL = 'Nonna Lucia Pasta';
const NOTED = { name: 'Cacio e pepe', note: 'No pepper on top, please', allergens: 'gluten, milk, egg' };
const PLAIN = { name: 'Burrata with tomatoes', allergens: 'milk' };

before(async () => {
  app = await startApp();
  await app.addAccount(STAFF);
});
after(async () => {
  await app?.close();
});

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844, table: 21 },
  { name: 'desktop', width: 1280, height: 800, table: 22 },
];

const screenshot = shotsOf('kitchen-tickets');

async function addDish(page: Page, name: string, note = '') {
  await page.getByRole('button', { name: `Add ${name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Add ${name}` });
  if (note) await dialog.getByLabel('Note for the stall (optional)').fill(note);
  await dialog.getByRole('button', { name: 'Add to cart' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('kitchen tickets dish by dish', () => {
  for (const viewport of VIEWPORTS) {
    it(`at ${viewport.width} px: the kitchen sees the note and allergens, marks dishes ready one by one, the order is ready after the last, the figures show the prep time`, async () => {
      const size = { width: viewport.width, height: viewport.height };

      // The diner orders both dishes at their table; one carries a note.
      const diner = await app.newPage({ viewport: size });
      const page = diner.page;
      await page.goto(`/pt/diner/menu?table=${viewport.table}`);
      await page.getByRole('heading', { name: 'Menu', level: 1 }).waitFor();
      await addDish(page, NOTED.name, NOTED.note);
      await addDish(page, PLAIN.name);
      await page.getByRole('link', { name: 'View cart' }).click();
      await page.getByRole('region', { name: 'Cart' }).getByRole('button', { name: /^Place order/ }).click();
      const placedHeading = page.getByRole('heading', { name: /^Order \d+ is placed$/ });
      await placedHeading.waitFor();
      const id = Number(/(\d+)/.exec((await placedHeading.textContent()) ?? '')?.[1]);
      const confirmation = page.getByRole('region', { name: `Order ${id} is placed` });
      await confirmation.getByTitle('Order updates: Live').waitFor();

      // The stall's kitchen screen, signed in as staff on the same size of screen.
      const kitchen = await app.newPage({ viewport: size });
      const screen = kitchen.page;
      const { items } = (await (await screen.request.get(`/api/pt/stalls?query=${encodeURIComponent(STALL)}`)).json()) as { items: { id: number; name: string }[] };
      const stallId = items.find((s) => s.name === STALL)!.id;
      await screen.goto(`/login?redirect=${encodeURIComponent(`/pt/kitchen/${stallId}`)}`);
      await signIn(screen, STAFF.email, STAFF.password);
      await screen.getByRole('heading', { name: STALL, level: 1 }).waitFor();
      await screen.getByTitle('Live tickets: Live').waitFor();

      const ticketName = `Table ${viewport.table} · Order ${id}`;
      const ticket = screen.getByRole('article', { name: ticketName });
      await screen.getByRole('list', { name: 'New tickets' }).getByRole('article', { name: ticketName }).waitFor();
      const noted = ticket.getByRole('listitem').filter({ has: screen.getByRole('button', { name: `${NOTED.name} (order ${id}) ready` }) });
      await noted.getByText(`Note: ${NOTED.note}`).waitFor();
      await noted.getByText(`Allergens: ${NOTED.allergens}`).waitFor();
      const plain = ticket.getByRole('listitem').filter({ has: screen.getByRole('button', { name: `${PLAIN.name} (order ${id}) ready` }) });
      await plain.getByText(`Allergens: ${PLAIN.allergens}`).waitFor();
      await ticket.getByText('0 of 2 ready').waitFor();
      await ticket.scrollIntoViewIfNeeded();
      await screenshot(screen, `${viewport.name}-kitchen-new`);

      // The first dish: the ticket starts, and the diner hears how far it is.
      await ticket.getByRole('button', { name: `${NOTED.name} (order ${id}) ready` }).click();
      await screen.getByRole('list', { name: 'Preparing tickets' }).getByRole('article', { name: ticketName }).waitFor();
      assert.equal(await ticket.getByRole('button', { name: `${NOTED.name} (order ${id}) ready` }).getAttribute('aria-pressed'), 'true');
      await ticket.getByText('1 of 2 ready').waitFor();
      await confirmation.locator('.order-status-line .badge').filter({ hasText: /^Preparing$/ }).waitFor();
      await confirmation.getByText('1 of 2 dishes ready.').waitFor();
      await ticket.scrollIntoViewIfNeeded();
      await screenshot(screen, `${viewport.name}-kitchen-one-ready`);
      await screenshot(page, `${viewport.name}-diner-one-ready`);

      // The runner board says it too, with the ready dish marked.
      const runner = await app.newPage({ viewport: size });
      await runner.page.goto(`/login?redirect=${encodeURIComponent('/pt/runner')}`);
      await signIn(runner.page, STAFF.email, STAFF.password);
      const onBoard = runner.page.getByRole('list', { name: 'Preparing orders' }).getByRole('article', { name: ticketName });
      await onBoard.getByText('1 of 2 ready').waitFor();
      await onBoard.getByRole('listitem').filter({ hasText: NOTED.name }).getByText('ready', { exact: true }).waitFor();
      await onBoard.scrollIntoViewIfNeeded();
      await screenshot(runner.page, `${viewport.name}-runner-one-ready`);

      // The last dish: the ticket is ready, and so is the order.
      await ticket.getByRole('button', { name: `${PLAIN.name} (order ${id}) ready` }).click();
      await screen.getByRole('list', { name: 'Ready tickets' }).getByRole('article', { name: ticketName }).waitFor();
      await confirmation.locator('.order-status-line .badge').filter({ hasText: /^Ready$/ }).waitFor();
      await confirmation.getByText('A runner is bringing it over.').waitFor();
      assert.equal(await confirmation.getByText(/dishes ready/).count(), 0);

      // The figures: the stall's average preparation, over its tickets ready today.
      const figures = await app.newPage({ viewport: size });
      await figures.page.goto(`/login?redirect=${encodeURIComponent('/pt/reports')}`);
      await signIn(figures.page, STAFF.email, STAFF.password);
      const byStall = figures.page.getByRole('table', { name: 'Figures by stall' });
      await byStall.waitFor();
      const row = byStall.getByRole('row').filter({ hasText: STALL });
      const prep = (await row.locator('td').last().textContent()) ?? '';
      assert.match(prep, /^\d+ (s|min) \(\d+ tickets?\)$/, `${STALL}'s average prep: “${prep}”`);
      await byStall.scrollIntoViewIfNeeded();
      await screenshot(figures.page, `${viewport.name}-figures`);

      for (const [who, watched] of [
        ['diner', diner.problems],
        ['kitchen', kitchen.problems],
        ['figures', figures.problems],
        ['runner', runner.problems],
      ] as const) {
        assert.deepEqual(watched.messages, [], who);
      }
      for (const open of [diner.context, kitchen.context, figures.context, runner.context]) await open.close();
    });
  }
});
