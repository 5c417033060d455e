import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startRebrickableMedia, type RebrickableMedia } from '../bff/test-support/rebrickable-media';
import { startApp, watchProblems } from './harness';
import type { E2eApp } from './harness';

/**
 * The parts catalogue end to end, on the catalogue the first start loads (bff/features/catalogue/seed):
 * someone without an account searches for a piece, opens it, opens one of its parts, and follows
 * the part's where-used list to another piece that contains it; the way back keeps the search.
 */
let app: E2eApp;
/** Rebrickable's picture CDN, faked: the catalogue's pictures come from it through the BFF. */
let media: RebrickableMedia;

before(async () => {
  media = await startRebrickableMedia();
  app = await startApp({ env: media.env });
});
after(async () => {
  await app?.close();
  await media?.close();
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

/** The size of each picture frame on the page, in its order, and whether it shows a picture that loaded. */
const frames = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      const img = element.querySelector('img');
      return { width: Math.round(box.width), height: Math.round(box.height), picture: img ? img.complete && img.naturalWidth > 0 : false, placeholder: element.textContent === 'No picture' };
    }),
  );

it('shows the pictures the BFF has, and a placeholder of the same size for one that is missing or cannot be fetched', async () => {
  await app.withDatabase(async ({ db }) => {
    await db.updateTable('pieces').set({ image_url: media.setPicture('harbourpack-1') }).where('number', '=', 'harbourpack-1').execute();
    await db.updateTable('pieces').set({ image_url: media.setPicture('missing-12889-1') }).where('number', '=', '12889-1').execute();
    await db.updateTable('parts').set({ image_url: `${media.mediaUrl}/parts/ldraw/4/3001pr0001.png` }).where('number', '=', '3001pr0001').execute();
  });
  const context = await app.browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // A picture the CDN does not have is the BFF's 404, which the browser logs; one it cannot fetch now is a placeholder picture, no error.
  const problems = watchProblems(page, [{ path: '/api/rest/pictures', status: 404 }]);
  try {
    const pictureRequests: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'image') pictureRequests.push(new URL(req.url()).pathname);
    });
    await page.goto('/pieces?query=harbour&sort=name');
    const cards = page.getByRole('list', { name: 'Pieces' }).getByRole('listitem');
    await cards.filter({ hasText: 'Harbour Starter Pack' }).locator('img').waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('.cat-image-card img')].every((img) => (img as HTMLImageElement).complete));
    await page.locator('.cat-image-card', { hasText: 'No picture' }).first().waitFor();
    // Harbour Boatyard's picture is missing at the CDN: its frame shows the placeholder, the same size as the picture's.
    const list = await frames(page, '.cat-image-card');
    assert.deepEqual(
      list.map(({ picture, placeholder }) => ({ picture, placeholder })),
      [
        { picture: false, placeholder: true },
        { picture: true, placeholder: false },
      ],
    );
    assert.deepEqual(list[0]!.width, list[1]!.width);
    assert.deepEqual(list[0]!.height, list[1]!.height);
    assert.ok(list[0]!.height > 100, `the frame keeps its size (${list[0]!.height}px high)`);
    // Every picture came from the BFF, none from another site.
    assert.deepEqual([...new Set(pictureRequests)], ['/api/rest/pictures']);

    // The CDN goes away. The piece's picture, fetched once already, still shows; its part's, never fetched, is the BFF's
    // placeholder picture (200, kept a minute), in the same frame.
    media.broken = true;
    const unavailable: number[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname === '/api/rest/pictures' && res.headers()['x-picture-unavailable']) unavailable.push(res.status());
    });
    await cards.filter({ hasText: 'Harbour Starter Pack' }).getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Harbour Starter Pack' }).waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('.cat-image-large img') as HTMLImageElement | null;
      return img?.complete && img.naturalWidth > 0;
    });
    const printedRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: /3001pr0001/ }) }).first();
    await printedRow.scrollIntoViewIfNeeded(); // thumbnails load lazily, as they come into view
    await printedRow.locator('.cat-image-thumb img').evaluate((img: HTMLImageElement) => img.decode());
    const thumbs = await frames(page, '.cat-image-thumb');
    assert.ok(thumbs.length > 1);
    // The others have no picture at all: the page's own placeholder.
    assert.ok(thumbs.every((thumb) => thumb.width === 40 && thumb.height === 40), `every part's thumbnail is a 40 × 40 frame: ${JSON.stringify(thumbs)}`);
    assert.ok(unavailable.length > 0 && unavailable.every((status) => status === 200), `the picture that could not be fetched was answered with the placeholder (${unavailable.join(', ')})`);
    assert.deepEqual(problems.messages, []);
  } finally {
    media.broken = false;
    await context.close();
  }
});
