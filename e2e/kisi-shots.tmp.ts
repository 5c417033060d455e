import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { signIn, startApp } from './harness';

const OUT = '/tmp/shots-kisi';
const only = process.argv[2];
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];
const PAGES = ['/kisi/users', '/kisi/users?query=zzzz', '/kisi/users/5', '/kisi/members', '/kisi/groups', '/kisi/group_links', '/kisi/locks', '/kisi/users/99999', '/'];
const app = await startApp();
mkdirSync(OUT, { recursive: true });
const name = (p: string) => p.replace(/[/?=]/g, '_').replace(/^_/, '') || 'home';
try {
  for (const size of SIZES) {
    const { page, context, problems } = await app.newPage({ viewport: size.viewport });
    await page.goto('/login');
    await signIn(page);
    await page.waitForURL('**/shell');
    for (const path of PAGES.filter((p) => !only || p.includes(only))) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(OUT, `${size.name}-${name(path)}.png`), fullPage: true });
    }
    if (!only) {
      await page.goto('/kisi/groups');
      await page.getByRole('button', { name: 'New group' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Create group' }).click();
      await page.getByText("Name can't be blank").waitFor();
      await page.screenshot({ path: join(OUT, `${size.name}-groups-422.png`) });
      await page.keyboard.press('Escape');
      await page.goto('/kisi/group_links');
      await page.getByRole('button', { name: 'New access link' }).click();
      const d = page.getByRole('dialog');
      await d.getByLabel('Link name').fill('Shot link');
      await d.getByLabel('Email').fill('shot@example.com');
      await d.getByRole('button', { name: 'Create link' }).click();
      await d.getByTestId('created-link').waitFor();
      await page.screenshot({ path: join(OUT, `${size.name}-link-created.png`) });
      await page.keyboard.press('Escape');
      await page.goto('/kisi/locks');
      await page.getByRole('button', { name: 'Unlock Server Room' }).click();
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(OUT, `${size.name}-locks-409.png`) });
    }
    console.log(size.name, problems.messages);
    await context.close();
  }
} finally {
  await app.close();
}
