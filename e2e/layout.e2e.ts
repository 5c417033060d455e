import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { ADMIN, signIn, startApp } from './harness';
import type { E2eApp } from './harness';

/**
 * What a page's frame looks like at a phone's width and a desktop's (issue 52, defects 8 and 9): a
 * row of tabs wider than the screen says it goes on, on the side where it does, instead of cutting a
 * tab mid-word as if that were the end; the catalogue's search and filters show their words whole;
 * and the quiz with PokeAPI down shows the failure where the picture would be, not a grey disc
 * that looks like a picture still loading.
 */
let app: E2eApp;

const WIDTHS = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
];

before(async () => {
  // 0: the BFF asks PokeAPI every time, so a service switched off is down at once (no stored copy to show).
  app = await startApp({ env: { SAMPLES_CACHE_SECONDS: '0' } });
});
after(async () => {
  await app?.close();
});

type RowState = { fits: boolean; cut: { tab: string; side: 'start' | 'end'; signed: boolean }[] };

/**
 * A row of tabs as the eye sees it: whether all of it fits, and each tab that runs past an edge with
 * whether that edge shows the sign that more is there (a fade with an arrow, drawn over the row's edge).
 */
function rowState(row: Locator): Promise<RowState> {
  return row.evaluate((nav) => {
    // No named functions in here: the page runs this as it is, without the helpers tsx adds for names.
    const box = nav.getBoundingClientRect();
    const signs = { start: getComputedStyle(nav, '::before'), end: getComputedStyle(nav, '::after') };
    const shown = { start: false, end: false };
    for (const side of ['start', 'end'] as const) {
      const sign = signs[side];
      shown[side] = sign.content !== 'none' && sign.display !== 'none' && sign.visibility !== 'hidden' && Number(sign.opacity) > 0;
    }
    const cut: RowState['cut'] = [];
    for (const tab of nav.querySelectorAll<HTMLElement>('a')) {
      const rect = tab.getBoundingClientRect();
      const name = (tab.textContent ?? '').trim();
      if (rect.left < box.left - 0.5 && rect.right > box.left) cut.push({ tab: name, side: 'start', signed: shown.start });
      if (rect.right > box.right + 0.5 && rect.left < box.right) cut.push({ tab: name, side: 'end', signed: shown.end });
    }
    return { fits: nav.scrollWidth <= nav.clientWidth, cut };
  });
}

/**
 * Whether a field's words fit its box: a select's chosen option, measured in the select's own font;
 * for a search box, its placeholder written into it as if typed (the box scrolls when it does not
 * fit, and the placeholder is drawn in the same room, beside the room kept for the clear button).
 */
function wordsFit(field: Locator): Promise<{ text: string; width: number; room: number }> {
  return field.evaluate((element) => {
    if (element instanceof HTMLInputElement) {
      const was = element.value;
      element.value = element.placeholder;
      const fit = { text: element.placeholder, width: element.scrollWidth, room: element.clientWidth };
      element.value = was;
      return fit;
    }
    const select = element as HTMLSelectElement;
    const style = getComputedStyle(select);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = select.selectedOptions[0]?.text ?? '';
    // The arrow is drawn inside the select's right side: about 20 px of its box are not for words.
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return { text, width: context.measureText(text).width, room };
  });
}

async function signedIn(viewport: { width: number; height: number }): Promise<{ page: Page; close: () => Promise<void>; problems: { messages: string[] } }> {
  const { page, context, problems } = await app.newPage({ viewport });
  await page.goto('/login');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL('**/shell');
  return { page, close: () => context.close(), problems };
}

for (const { name, viewport } of WIDTHS) {
  describe(`at ${name} width (${viewport.width} px)`, () => {
    it('a row of tabs that does not fit says so on the side it goes on, and no tab is cut without that sign', async () => {
      const { page, close, problems } = await signedIn(viewport);
      try {
        for (const [path, label] of [
          ['/pt/stalls', 'Food court'],
          ['/shell', 'Staff shell'],
          ['/kisi/users', 'Access control'],
        ] as const) {
          await page.goto(path);
          const row = page.getByRole('navigation', { name: label });
          await row.getByRole('link').first().waitFor();
          await page.waitForTimeout(150);
          const first = await rowState(row);
          assert.deepEqual(
            first.cut.filter((c) => !c.signed),
            [],
            `${path}: tabs cut at an edge that does not say the row goes on`,
          );
          if (first.fits) {
            assert.deepEqual(first.cut, [], `${path}: a row that fits cuts nothing`);
            continue;
          }
          // A phone's admin rows do not fit: the end says so; scrolled to the end, the start says so and the end no longer does.
          assert.ok(first.cut.some((c) => c.side === 'end'), `${path}: the row goes on past its end`);
          await row.evaluate((nav) => nav.scrollTo({ left: nav.scrollWidth }));
          await page.waitForTimeout(150);
          const scrolled = await rowState(row);
          assert.deepEqual(scrolled.cut.filter((c) => !c.signed), [], `${path}: scrolled to the end, tabs cut without the sign`);
          assert.ok(scrolled.cut.some((c) => c.side === 'start'), `${path}: scrolled to the end, the row goes on before its start`);
          assert.equal(
            await row.evaluate((nav) => getComputedStyle(nav, '::after').content),
            'none',
            `${path}: at the end of the row, no sign says there is more after it`,
          );
        }
        if (viewport.width < 600) {
          // The phone's food court row (eight tabs for an admin) is the one that cannot fit.
          await page.goto('/pt/stalls');
          const row = page.getByRole('navigation', { name: 'Food court' });
          await row.getByRole('link').first().waitFor();
          assert.equal((await rowState(row)).fits, false, 'the admin’s food court tabs are wider than a phone');
        }
        assert.deepEqual(problems.messages, []);
      } finally {
        await close();
      }
    });

    it('the catalogue’s search and category filter show their words whole', async () => {
      const { page, context, problems } = await app.newPage({ viewport });
      try {
        for (const [path, search, category] of [
          ['/pieces', 'Search pieces', 'Category'],
          ['/pieces?kind=parts', 'Search parts', 'Part category'],
        ] as const) {
          await page.goto(path);
          const box = page.getByRole('searchbox', { name: search });
          await box.waitFor();
          const placeholder = await wordsFit(box);
          assert.ok(placeholder.width <= placeholder.room, `${path}: the placeholder “${placeholder.text}” (${Math.round(placeholder.width)} px) is cut in ${Math.round(placeholder.room)} px`);
          for (const label of [category, 'Sort by']) {
            // The label holds the select, so its name goes on with the chosen option's words.
            const select = page.getByRole('combobox', { name: new RegExp(`^${label}`) });
            // Every choice the sort offers, and the category filter as it first shows.
            const choices = label === 'Sort by' ? await select.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)) : [''];
            for (const choice of choices) {
              await select.evaluate((element, value) => ((element as HTMLSelectElement).value = value), choice);
              const fit = await wordsFit(select);
              assert.ok(fit.width <= fit.room, `${path}: ${label} “${fit.text}” (${Math.round(fit.width)} px) is cut in ${Math.round(fit.room)} px`);
            }
          }
        }
        assert.deepEqual(problems.messages, []);
      } finally {
        await context.close();
      }
    });
  });
}

// Both widths before PokeAPI is ever read: once a round has been drawn, the BFF keeps its copy and plays on it when PokeAPI is down.
it('the quiz with PokeAPI down says so where the picture would be, with nothing that looks like loading (390 and 1280 px)', async () => {
  await app.samples.set('pokeapi', { mode: 'down' });
  try {
    for (const { name, viewport } of WIDTHS) {
      const { page, context, problems } = await app.newPage({ viewport });
      try {
        await page.goto('/quesg');
        const stage = page.getByRole('region', { name: 'The mystery Pokémon' });
        const alert = stage.getByRole('alert');
        await alert.waitFor();
        assert.match((await alert.textContent()) ?? '', /Could not load a round\. PokeAPI cannot be reached right now/);
        // One failure on the page, and no empty picture frame (the grey disc a round is drawn in) beside it.
        assert.equal(await page.getByRole('alert').count(), 1, name);
        assert.equal(await stage.locator('.smp-skeleton-picture').count(), 0, `${name}: a placeholder picture under the failure`);
        assert.equal(await stage.getAttribute('aria-busy'), 'false', name);

        if (name === 'desktop') {
          // Back up: "Try again" draws a round in the same place.
          await app.samples.set('pokeapi', { mode: 'normal' });
          await alert.getByRole('button', { name: /Try again/ }).click();
          await stage.getByRole('img', { name: 'The mystery Pokémon’s silhouette' }).waitFor();
          assert.equal(await page.getByRole('alert').count(), 0);
        }
        // The browser logs the failed round's 502 or 504 answer; nothing else.
        assert.deepEqual(problems.messages.filter((m) => !/status of 50[234]/.test(m)), [], name);
      } finally {
        await context.close();
      }
    }
  } finally {
    await app.samples.set('pokeapi', { mode: 'normal' });
  }
});
