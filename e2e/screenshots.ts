import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ADMIN, signIn, startApp } from './harness';
import { routePages, sampleIds, urlFor } from './route-table';

/**
 * Not a test: `node --import tsx e2e/screenshots.ts [route-filter]` saves a screenshot of every
 * page of the route table at desktop and phone size under SHOTS_DIR (default /tmp/shots), to look
 * at by eye. Pages that need a session are taken signed in as the admin.
 */
const OUT = process.env.SHOTS_DIR ?? '/tmp/shots';
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

const filter = process.argv[2];
const app = await startApp();
mkdirSync(OUT, { recursive: true });
const name = (pattern: string) => pattern.replace('*', 'not-found').replace(/:/g, '').replace(/\//g, '_').replace(/^_|_$/g, '') || 'home';
const pages = routePages().filter((p) => !filter || p.pattern.includes(filter));

async function shoot(page: Page, path: string, file: string) {
  await page.goto(path);
  await page.locator('#main').waitFor({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(OUT, file), fullPage: true });
}

/** Sample ids for the `:params` of every page, public ones too (reading them needs a session). */
async function readSampleIds(): Promise<Record<string, string>> {
  const { page, context } = await app.newPage();
  await page.goto('/login');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL('**/shell');
  const ids = await sampleIds(page.request);
  await context.close();
  return ids;
}

try {
  const ids = await readSampleIds();
  for (const size of SIZES) {
    const { page, context, problems } = await app.newPage({ viewport: size.viewport });
    for (const route of pages.filter((p) => p.access === 'visitor')) await shoot(page, urlFor(route.pattern, ids), `${size.name}-${name(route.pattern)}.png`);
    await page.goto('/login');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL('**/shell');
    for (const route of pages.filter((p) => p.access !== 'visitor')) await shoot(page, urlFor(route.pattern, ids), `${size.name}-signed-in-${name(route.pattern)}.png`);
    if (!filter || filter === 'extras') {
      await page.goto('/sidepanel');
      await page.getByRole('button', { name: /Gym floor/ }).click();
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(OUT, `${size.name}-sidepanel-open.png`) });
      await page.keyboard.press('Escape');
      await page.goto('/');
      if (size.name === 'phone') {
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.waitForTimeout(200);
        await page.screenshot({ path: join(OUT, `${size.name}-menu-open.png`) });
      }
      await page.goto('/pending');
      await page.waitForTimeout(1600);
      await page.screenshot({ path: join(OUT, `${size.name}-pending-overlay.png`) });
    }
    if (problems.messages.length) console.log(size.name, problems.messages);
    await context.close();
  }
} finally {
  await app.close();
}
console.log(`screenshots in ${OUT}`);
