import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { signIn, startApp } from './harness';

/**
 * Not a test: `node --import tsx e2e/screenshots.ts [route-filter]` saves a screenshot of every
 * screen at desktop and phone size under SHOTS_DIR (default /tmp/shots), to look at by eye.
 */
const OUT = process.env.SHOTS_DIR ?? '/tmp/shots';
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];
const PUBLIC = ['/', '/about', '/counter', '/sidepanel', '/test', '/windphony', '/arcos', '/arcos/7', '/login?flash=Please%20sign%20in%20to%20continue.&redirect=%2Fshell', '/error', '/bad', '/no-such-page'];
const STAFF = ['/shell', '/shell/api', '/shell/empty', '/shell/contain', '/test', '/kisi/users', '/kisi/users/5', '/kisi/members', '/kisi/groups', '/kisi/group_links', '/kisi/locks', '/shell/webhook', '/shell/sse', '/gymowners/', '/gymowners/1', '/shell/gymowner/users', '/shell/gymowner/users/1', '/shell/gymowner/users/1/unlocks', '/shell/gymowner/users/1/group_links'];

const filter = process.argv[2];
const app = await startApp();
mkdirSync(OUT, { recursive: true });
const name = (path: string) => (path.replace(/\?.*/, '').replace(/\//g, '_').replace(/^_$/, 'home').replace(/^_/, '') || 'home');
try {
  for (const size of SIZES) {
    const { page, context, problems } = await app.newPage({ viewport: size.viewport });
    for (const path of PUBLIC.filter((p) => !filter || p.includes(filter))) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(OUT, `${size.name}-${name(path)}.png`), fullPage: true });
    }
    await page.goto('/login');
    await signIn(page);
    await page.waitForURL('**/shell');
    for (const path of STAFF.filter((p) => !filter || p.includes(filter))) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(OUT, `${size.name}-staff-${name(path)}.png`), fullPage: true });
    }
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
