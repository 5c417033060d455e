import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, signIn, startApp } from './harness';
import type { Account, E2eApp } from './harness';

/**
 * Each person's menus offer what they may open: every link of the header and of the section tabs
 * (staff shell, food court), followed as each role, opens a page, never the 403 screen or the login.
 */
const RUNNER: Account = { email: 'rita.runner@frontdesk.test', password: 'runner-password-long', name: 'Rita Runner', role: 'runner' };
const STAFF: Account = { email: 'sam.staff@frontdesk.test', password: 'staff-password-long', name: 'Sam Staff', role: 'staff' };
const WHO: Array<{ role: string; account: Account | null; header: string[] }> = [
  { role: 'visitor', account: null, header: ['Menu', 'Cart', 'Your order', 'Help'] },
  { role: 'runner', account: RUNNER, header: ['Runner board', 'Chat'] },
  { role: 'staff', account: STAFF, header: ['Members', 'Door events', 'Gym owners', 'Food court', 'Chat', 'Guest help', 'Files'] },
  { role: 'admin', account: { ...ADMIN, role: 'admin' }, header: ['Members', 'Door events', 'Gym owners', 'Food court', 'Chat', 'Guest help', 'Files', 'Audit trail', 'Team', 'Access control'] },
];
const SECTION_NAVS = ['Main', 'Staff shell', 'Food court'];

let app: E2eApp;
before(async () => {
  app = await startApp();
  await app.addAccount(RUNNER);
  await app.addAccount(STAFF);
});
after(async () => {
  await app?.close();
});

/** The links of the page's menus, as [label, href], read at once (the header shows the role's links once the session has answered). */
async function menuLinks(page: Page, firstOfHeader: string): Promise<Array<[string, string]>> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link').first().filter({ hasText: firstOfHeader }).waitFor();
  return page.evaluate((names) => {
    const links: Array<[string, string]> = [];
    for (const nav of document.querySelectorAll('nav[aria-label]')) {
      const name = nav.getAttribute('aria-label')!;
      if (!names.includes(name)) continue;
      for (const a of nav.querySelectorAll('a[href]')) {
        const href = a.getAttribute('href')!;
        if (!href.startsWith('/login')) links.push([`${name}: ${(a.textContent ?? '').trim()}`, href]);
      }
    }
    return links;
  }, SECTION_NAVS);
}

describe('every menu link as each role', () => {
  for (const { role, account, header } of WHO) {
    it(`${role}: the header offers ${header.join(', ')}, and no menu link leads to a 403 or the login`, { timeout: 120_000 }, async () => {
      const { page, context } = await app.newPage();
      if (account) {
        await page.goto('/login');
        await signIn(page, account.email, account.password);
        await page.waitForURL((url) => url.pathname === '/shell');
      } else {
        await page.goto('/');
      }
      const main = page.getByRole('navigation', { name: 'Main' });
      await main.getByRole('link', { name: header[0] }).waitFor();
      // The areas, without the session's own links (Sign in, or the name leading to one's account).
      const shown = (await main.getByRole('link').allInnerTexts()).map((text) => text.trim()).filter((text) => text !== 'Sign in' && !text.includes('Your account'));
      assert.deepEqual(shown, header);

      const seen = new Set<string>();
      const queue = await menuLinks(page, header[0]!);
      const refused: string[] = [];
      while (queue.length > 0) {
        const [label, href] = queue.shift()!;
        if (seen.has(href)) continue;
        seen.add(href);
        await page.goto(href);
        await page.locator('#main').waitFor();
        await page.waitForFunction(() => !document.querySelector('.pending-overlay, #main [aria-busy="true"]'));
        const path = new URL(page.url()).pathname;
        if (path === '/login') refused.push(`${label} (${href}) went to the login`);
        else if ((await page.getByText('You do not have access to this page.').count()) > 0) refused.push(`${label} (${href}) showed the 403 screen`);
        else queue.push(...(await menuLinks(page, header[0]!)));
      }
      assert.deepEqual(refused, []);
      assert.ok(seen.size >= header.length, `only ${seen.size} links followed`);
      await context.close();
    });
  }
});
