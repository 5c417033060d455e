import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { shotsOf, signIn, startApp } from './harness';
import type { Account, E2eApp } from './harness';

/**
 * Issue 52 defect 4: a remote unlock pressed on /kisi/locks shows in Door events as done by the
 * person who pressed it, through the integration Kisi names as its actor ("Frontdesk Integration"),
 * at a phone's width and a desk's. Against the real BFF, its Kisi proxy and the emulator's webhooks.
 */
let app: E2eApp;

const DESK: Account = { email: 'sam.staff@frontdesk.test', password: 'remote-unlock-e2e-1', name: 'Sam Staff', role: 'admin' };
const PHONE: Account = { email: 'pat.phone@frontdesk.test', password: 'remote-unlock-e2e-2', name: 'Pat Phone', role: 'admin' };

before(async () => {
  app = await startApp();
  await app.addAccount(DESK);
  await app.addAccount(PHONE);
});
after(async () => {
  await app?.close();
});

const screenshot = shotsOf('remote-unlock');

/** Until the door event of `email`'s press is stored (the emulator's webhook may come just after Kisi's answer). */
async function pressStored(page: Page, email: string) {
  for (let tries = 0; tries < 100; tries++) {
    const found = await page.evaluate(async (who) => {
      const res = await fetch('/api/webhook?pageSize=20');
      const body = (await res.json()) as { items: Array<{ requestedBy: { email: string | null } | null }> };
      return body.items.some((e) => e.requestedBy?.email === who);
    }, email);
    if (found) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`no door event credited to ${email}`);
}

describe('a remote unlock in Door events', () => {
  for (const [who, viewport] of [
    [DESK, { width: 1280, height: 800 }],
    [PHONE, { width: 390, height: 844 }],
  ] as const) {
    it(`names who pressed it, via Frontdesk Integration, at ${viewport.width} px`, async () => {
      const { page, context, problems } = await app.newPage({ viewport });
      await page.goto(`/login?redirect=${encodeURIComponent('/kisi/locks')}`);
      await signIn(page, who.email, who.password);
      await page.waitForURL((url) => url.pathname === '/kisi/locks');

      const unlock = page.getByRole('button', { name: 'Unlock Main Entrance' });
      await unlock.scrollIntoViewIfNeeded();
      await unlock.click();
      await page.getByText('Unlocked!').first().waitFor();
      await pressStored(page, who.email);

      await page.goto('/shell/webhook');
      const row = page.getByRole('row').filter({ hasText: who.name });
      await row.first().waitFor();
      assert.equal(await row.count(), 1);
      const cell = row.locator('td[data-label="Who"]');
      assert.equal(await cell.locator('.event-who').innerText(), who.name);
      assert.match(await cell.innerText(), new RegExp(`${who.email.replace(/\./g, '\\.')}\\s+Remote unlock via Frontdesk Integration`));
      assert.match(await row.innerText(), /Main Entrance/);
      // Readable on the screen: the person's line is not cut and the row fits the page's width.
      await row.scrollIntoViewIfNeeded();
      const box = await row.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= viewport.width + 1, `the row fits ${viewport.width} px: ${JSON.stringify(box)}`);
      const whoLine = cell.locator('.event-who');
      assert.equal(await whoLine.evaluate((el) => el.scrollWidth <= el.clientWidth), true);
      await screenshot(page, `${viewport.width}`);

      assert.deepEqual(problems.messages, []);
      await context.close();
    });
  }
});
