import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from './harness';
import type { E2eApp } from './harness';

/**
 * The parts catalogue end to end, on the catalogue the first start loads (bff/features/catalogue/seed):
 * someone without an account searches for a piece, opens it, opens one of its parts, and follows
 * the part's where-used list to another piece that contains it; the way back keeps the search.
 */
let app: E2eApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

it('finds a piece, opens one of its parts and follows where-used to another piece', async () => {
  const { page, context, problems } = await app.newPage();
  try {
    await page.goto('/pieces');
    await page.getByRole('heading', { level: 1, name: 'Pieces' }).waitFor();

    // Search by words of the name: the query goes into the address, the list narrows to it.
    await page.getByRole('searchbox', { name: 'Search pieces' }).fill('harbour starter');
    await page.waitForURL((url) => url.searchParams.get('query') === 'harbour starter');
    const results = page.getByRole('list', { name: 'Pieces' });
    await results.getByRole('link', { name: /Harbour Starter Pack/ }).waitFor();
    assert.equal(await results.getByRole('link').count(), 1);

    // The piece: what it is made of, part by part.
    await results.getByRole('link', { name: /Harbour Starter Pack/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Harbour Starter Pack' }).waitFor();
    // Reached by the number people know.
    assert.equal(new URL(page.url()).pathname, '/pieces/harbourpack-1');
    const printed = page.getByRole('link', { name: /3001pr0001/ }).first();
    await printed.waitFor();
    assert.ok(await page.getByRole('table').count() >= 2, 'the parts are grouped in one table per category');

    // One of its parts, and where else it is used.
    await printed.click();
    await page.getByRole('heading', { level: 1, name: 'Brick 2 x 4 with Harbour Map print' }).waitFor();
    const usedIn = page.getByRole('heading', { level: 2, name: /^Used in \d+ pieces?$/ });
    await usedIn.waitFor();
    const count = Number(/\d+/.exec((await usedIn.textContent()) ?? '')![0]);
    assert.ok(count > 1, `the printed brick is in more than one piece (found ${count})`);
    const pieceLinks = page.getByRole('table').getByRole('link');
    await pieceLinks.first().waitFor();
    const names = await pieceLinks.allTextContents();
    const other = names.find((name) => !name.includes('Harbour Starter Pack'));
    assert.ok(other, `where-used lists another piece than the one we came from: ${names.join(' | ')}`);

    // Back to another piece that contains it: the part is in its composition.
    await pieceLinks.filter({ hasText: other }).first().click();
    await page.waitForURL((url) => /^\/pieces\/[A-Za-z0-9._-]+$/.test(url.pathname) && url.pathname !== '/pieces/harbourpack-1');
    await page.getByRole('heading', { level: 1 }).filter({ hasNotText: 'Harbour Starter Pack' }).waitFor();
    await page.getByRole('link', { name: /3001pr0001/ }).first().waitFor();

    // Back the way we came: to the part, then to the list with its search.
    await page.getByRole('link', { name: '← Back to part 3001pr0001 Brick 2 x 4 with Harbour Map print' }).click();
    await page.getByRole('heading', { level: 1, name: 'Brick 2 x 4 with Harbour Map print' }).waitFor();
    await page.getByRole('link', { name: /All pieces|Back to the pieces/ }).click();
    await page.waitForURL((url) => url.pathname === '/pieces' && url.searchParams.get('query') === 'harbour starter');
    await page.getByRole('list', { name: 'Pieces' }).getByRole('link', { name: /Harbour Starter Pack/ }).waitFor();
    assert.deepEqual(problems.messages, []);
  } finally {
    await context.close();
  }
});

it('finds a part by the number a builder types, opens it at /parts/<number>, and moves an old id address there', async () => {
  const { page, context, problems } = await app.newPage();
  try {
    await page.goto('/pieces');
    await page.getByRole('searchbox', { name: 'Search pieces' }).fill('3001');
    const tabs = page.getByRole('navigation', { name: 'Search the catalogue for' });
    await tabs.getByRole('link', { name: /^Parts \d+$/ }).click();
    await page.waitForURL((url) => url.searchParams.get('kind') === 'parts' && url.searchParams.get('query') === '3001');
    const parts = page.getByRole('list', { name: 'Parts' }).getByRole('link');
    await parts.first().waitFor();
    assert.equal((await parts.first().textContent())?.trim(), '3001 Brick 2 x 4');
    if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/catalogue-part-search.png` });

    await parts.first().click();
    await page.getByRole('heading', { level: 1, name: 'Brick 2 x 4' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/parts/3001');
    const id = (await (await page.request.get('/api/rest/parts/3001')).json()) as { id: number };

    // An address by id from before numbers were used: it opens the part, at its number.
    await page.goto(`/parts/${id.id}`);
    await page.waitForURL((url) => url.pathname === '/parts/3001');
    await page.getByRole('heading', { level: 1, name: 'Brick 2 x 4' }).waitFor();
    assert.deepEqual(problems.messages, []);
  } finally {
    await context.close();
  }
});

it('ranks an exact piece number first and shows the not-found screen for a piece that is not there', async () => {
  const { page, context, problems } = await app.newPage({ viewport: { width: 390, height: 844 } });
  try {
    await page.goto('/pieces?query=10138');
    const first = page.getByRole('list', { name: 'Pieces' }).getByRole('link').first();
    await first.waitFor();
    assert.match((await first.textContent()) ?? '', /10138-1/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the list fits a phone (${width}px wide)`);

    await page.goto('/pieces/99999-9');
    await page.getByText(/not found/i).first().waitFor();
    assert.deepEqual(
      problems.messages.filter((m) => !/status of 404/.test(m)),
      [],
    );
  } finally {
    await context.close();
  }
});
