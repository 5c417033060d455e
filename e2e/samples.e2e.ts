import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { signIn, startApp, watchProblems } from './harness';
import type { Account, E2eApp, ExpectedFailure } from './harness';

/**
 * The sample pages end to end, on the local fakes of their upstreams (bff/test-support/sample-upstreams.ts:
 * 45 Rick and Morty characters, the first twelve Pokémon, 20 JSONPlaceholder posts): paging and
 * filtering the characters, a Pokémon's types and stats, three quiz rounds whose score outlives a
 * reload, a post with its author and comments (staff only), the fake missing post, and the Rick and
 * Morty API going down: a page seen before shows the BFF's stored copy and its age, one never seen
 * says the service cannot be reached, and "Try again" shows it once the service is back.
 */
let app: E2eApp;

const STAFF: Account = { email: 'sid.staff@frontdesk.test', password: 'staff-password-samples', name: 'Sid Staff', role: 'staff' };

before(async () => {
  // The BFF keeps an answer in memory for SAMPLES_CACHE_SECONDS (60) before asking the upstream again;
  // with 0 it asks every time, so an outage reaches the stored copy at once instead of after a minute.
  app = await startApp({ env: { SAMPLES_CACHE_SECONDS: '0' } });
  await app.addAccount(STAFF);
});
after(async () => {
  await app?.close();
});

/** A visitor without an account: a fresh browser context (own cookies and localStorage). */
async function visitor(expected: ExpectedFailure[] = []) {
  const context = await app.browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  return { page, context, problems: watchProblems(page, expected) };
}

/** Someone signed in through the login form, landing on `path`. */
async function signedIn(account: Account, path: string, expected: ExpectedFailure[] = []) {
  const session = await visitor(expected);
  await session.page.goto(`/login?redirect=${encodeURIComponent(path)}`);
  await signIn(session.page, account.email, account.password);
  await session.page.waitForURL((url) => url.pathname + url.search === path);
  return session;
}

/** The <dd> of a description list's <dt> with exactly this text. */
const fact = (scope: Locator | Page, term: string) =>
  scope
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]');

const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

// ---- Rick and Morty ------------------------------------------------------------------------------

const characterList = (page: Page) => page.getByRole('list', { name: 'Characters' });
const characterNames = (page: Page) => characterList(page).getByRole('heading', { level: 2 }).allTextContents();
const characterPages = (page: Page) => page.getByRole('navigation', { name: 'Character pages' });
/** The polite count above the list ("45 characters", "6 characters match “rick”"), once it says this. */
const characterCount = (page: Page, says: string) => page.getByRole('status').filter({ hasText: new RegExp(`^${says}$`) });

describe('Rick and Morty', () => {
  it('pages through the characters, and narrows them by name and status, kept in the address', async () => {
    const { page, context, problems } = await visitor();
    try {
      await page.goto('/rick');
      await page.getByRole('heading', { level: 1, name: 'Rick and Morty' }).waitFor();
      await characterCount(page, '45 characters').waitFor();
      await characterPages(page).getByText('Page 1 of 3').waitFor();
      await characterPages(page).getByText('Showing 1–20 of 45 characters').waitFor();
      assert.equal(await characterList(page).getByRole('listitem').count(), 20);
      const firstPage = await characterNames(page);
      assert.equal(firstPage.length, 20);
      assert.equal(firstPage[0], 'Rick Sanchez');

      // Next: page 2 in the address, twenty other characters.
      await characterPages(page).getByRole('link', { name: 'Next' }).click();
      await page.waitForURL((url) => url.pathname === '/rick' && url.searchParams.get('page') === '2');
      await characterPages(page).getByText('Page 2 of 3').waitFor();
      await characterList(page).getByRole('heading', { level: 2, name: 'Aqua Morty' }).waitFor();
      const secondPage = await characterNames(page);
      assert.equal(secondPage.length, 20);
      assert.deepEqual(
        secondPage.filter((name) => firstPage.includes(name)),
        [],
        'page 2 shows other characters than page 1',
      );

      // A name narrows the list (from page 1 again) and goes into the address.
      await page.getByRole('searchbox', { name: 'Search characters by name' }).fill('rick');
      await page.waitForURL((url) => url.searchParams.get('name') === 'rick' && !url.searchParams.has('page'));
      await characterCount(page, '6 characters match “rick”').waitFor();
      await characterPages(page).getByText('Page 1 of 1').waitFor();
      const ricks = await characterNames(page);
      assert.equal(ricks.length, 6);
      for (const name of ricks) assert.match(name, /rick/i);

      // A status narrows it further, and joins the name in the address.
      await page.getByRole('combobox', { name: /^Status/ }).selectOption({ label: 'Dead' });
      await page.waitForURL((url) => url.searchParams.get('name') === 'rick' && url.searchParams.get('status') === 'dead');
      await characterCount(page, '2 characters match “rick” · Dead').waitFor();
      assert.deepEqual(await characterNames(page), ['Alien Rick', 'Antenna Rick']);
      for (const card of await characterList(page).getByRole('listitem').all()) await card.getByText('Dead', { exact: true }).waitFor();

      // The address is the state: a reload shows the same search, in the field and the list.
      await page.reload();
      await characterCount(page, '2 characters match “rick” · Dead').waitFor();
      assert.equal(await page.getByRole('searchbox', { name: 'Search characters by name' }).inputValue(), 'rick');
      assert.equal(await page.getByRole('combobox', { name: /^Status/ }).inputValue(), 'dead');
      assert.deepEqual(await characterNames(page), ['Alien Rick', 'Antenna Rick']);

      assert.deepEqual(problems.messages, []);
    } finally {
      await context.close();
    }
  });
});

// ---- PokeAPI -------------------------------------------------------------------------------------

describe('Pokémon', () => {
  it('opens a Pokémon from the second page (0-based in the address) and shows its types and stats', async () => {
    const { page, context, problems } = await visitor();
    try {
      await page.goto('/pokemon');
      await page.getByRole('heading', { level: 1, name: 'Pokémon' }).waitFor();
      const pages = page.getByRole('navigation', { name: 'Pokémon pages' });
      await pages.getByText('Page 1 of 2').waitFor();
      const list = page.getByRole('list', { name: 'Pokémon' });
      assert.equal(await list.getByRole('link').count(), 6);
      await list.getByRole('link', { name: '#001 Bulbasaur' }).waitFor();

      // The second page is page=1 in the address (PokeAPI's 0-based pages).
      await pages.getByRole('link', { name: 'Next' }).click();
      await page.waitForURL((url) => url.pathname === '/pokemon' && url.searchParams.get('page') === '1');
      await pages.getByText('Page 2 of 2').waitFor();
      await list.getByRole('link', { name: '#007 Squirtle' }).waitFor();
      assert.equal(await list.getByRole('link').count(), 6);

      await list.getByRole('link', { name: '#012 Butterfree' }).click();
      await page.waitForURL((url) => url.pathname === '/pokemon/butterfree');
      await page.getByRole('heading', { level: 1, name: 'Butterfree' }).waitFor();
      await page.getByRole('img', { name: 'Butterfree’s official artwork' }).waitFor();

      const about = page.getByRole('region', { name: 'About' });
      assert.deepEqual(await fact(about, 'Types').getByRole('listitem').allTextContents(), ['Bug', 'Flying']);
      assert.equal(await text(fact(about, 'Height')), '1.1 m');
      assert.equal(await text(fact(about, 'Weight')), '32.0 kg');

      const stats = page.getByRole('region', { name: 'Base stats' });
      const expected: Array<[string, number]> = [
        ['HP', 60],
        ['Attack', 45],
        ['Defense', 50],
        ['Sp. Atk', 90],
        ['Sp. Def', 80],
        ['Speed', 70],
        ['Total', 395],
      ];
      const rows = stats.getByRole('listitem');
      assert.equal(await rows.count(), expected.length);
      for (const [i, [name, value]] of expected.entries()) assert.equal(await text(rows.nth(i)), `${name}${value}`, `the ${name} row`);

      // Back to the page it was opened from.
      await page.getByRole('link', { name: '← All Pokémon' }).click();
      await page.waitForURL((url) => url.pathname === '/pokemon' && url.searchParams.get('page') === '1');
      await list.getByRole('link', { name: '#012 Butterfree' }).waitFor();

      assert.deepEqual(problems.messages, []);
    } finally {
      await context.close();
    }
  });
});

// ---- the quiz ------------------------------------------------------------------------------------

/** The fake PokeAPI's twelve Pokémon, by number, as the quiz writes their names. */
const POKEDEX = ['Bulbasaur', 'Ivysaur', 'Venusaur', 'Charmander', 'Charmeleon', 'Charizard', 'Squirtle', 'Wartortle', 'Blastoise', 'Caterpie', 'Metapod', 'Butterfree'];
const SILHOUETTE = 'The mystery Pokémon’s silhouette';

/** The Pokémon behind the silhouette, read from its picture's address (…/official-artwork/<number>.png). */
async function mysteryName(page: Page): Promise<string> {
  const src = decodeURIComponent((await page.getByRole('img', { name: SILHOUETTE }).getAttribute('src')) ?? '');
  const number = Number(/\/official-artwork\/(\d+)\.png$/.exec(src)?.[1]);
  const name = POKEDEX[number - 1];
  assert.ok(name, `the silhouette's picture names a Pokémon of the fake: ${src}`);
  return name;
}

describe('Who’s that Pokémon?', () => {
  it('plays three rounds by mouse and keyboard; the score and best streak survive a reload', async () => {
    const { page, context, problems } = await visitor();
    try {
      await page.goto('/quesg');
      await page.getByRole('heading', { level: 1, name: 'Who’s that Pokémon?' }).waitFor();
      const choices = page.getByRole('list', { name: 'Choices' }).getByRole('button');
      const verdict = page.getByRole('status').filter({ hasText: /^(Right!|Not quite)/ });
      const score = page.getByRole('complementary', { name: 'Your score' });
      const next = page.getByRole('button', { name: 'Next round' });
      await page.getByRole('img', { name: SILHOUETTE }).waitFor();
      assert.equal(await text(fact(score, 'Score')), '0 of 0');

      // Round 1: the right name, with the mouse.
      let answer = await mysteryName(page);
      assert.equal(await choices.count(), 4);
      await choices.filter({ hasText: answer }).click();
      await verdict.filter({ hasText: `Right! It’s ${answer}.` }).waitFor();
      await page.getByRole('img', { name: answer, exact: true }).waitFor(); // the picture is revealed
      assert.equal(await choices.filter({ hasText: answer }).isDisabled(), true, 'the choices are settled');
      assert.equal(await text(fact(score, 'Score')), '1 of 1');
      await next.click();

      // Round 2: the right name, by its number key; Enter (the focus is on Next round) goes on.
      await page.getByRole('img', { name: SILHOUETTE }).waitFor();
      answer = await mysteryName(page);
      const names = await choices.allTextContents();
      await page.keyboard.press(String(names.findIndex((name) => name.includes(answer)) + 1));
      await verdict.filter({ hasText: `Right! It’s ${answer}.` }).waitFor();
      assert.equal(await text(fact(score, 'Score')), '2 of 2');
      assert.equal(await text(fact(score, 'Streak')), '2');
      await next.waitFor();
      assert.equal(await next.evaluate((el) => el === document.activeElement), true, 'the answer moves the focus to Next round');
      await page.keyboard.press('Enter');

      // Round 3: a wrong name, by its number key: said so, the streak ends, the best stays.
      await page.getByRole('img', { name: SILHOUETTE }).waitFor();
      answer = await mysteryName(page);
      const wrong = (await choices.allTextContents()).findIndex((name) => !name.includes(answer));
      await page.keyboard.press(String(wrong + 1));
      await verdict.filter({ hasText: `Not quite — it’s ${answer}.` }).waitFor();
      assert.equal(await text(fact(score, 'Score')), '2 of 3');
      assert.equal(await text(fact(score, 'Streak')), '0');
      assert.equal(await text(fact(score, 'Best streak')), '2');

      // The browser keeps the score: a reload starts a new round with it.
      await page.reload();
      await page.getByRole('img', { name: SILHOUETTE }).waitFor();
      assert.equal(await text(fact(score, 'Score')), '2 of 3');
      assert.equal(await text(fact(score, 'Streak')), '0');
      assert.equal(await text(fact(score, 'Best streak')), '2');

      assert.deepEqual(problems.messages, []);
    } finally {
      await context.close();
    }
  });
});

// ---- JSONPlaceholder (staff) ---------------------------------------------------------------------

/** The number each row of the posts list shows ("Post 7 …"; NaN for the fake post, which has none). */
const postNumbers = async (rows: Locator) => (await rows.allTextContents()).map((row) => Number(/^Post (\d+)/.exec(row.trim())?.[1]));

describe('posts', () => {
  it('opens a post from page 2 (numbered from 7), its author, and its comments', async () => {
    const { page, context, problems } = await signedIn(STAFF, '/shell/posts');
    try {
      await page.getByRole('heading', { level: 1, name: 'Posts' }).waitFor();
      const list = page.getByRole('list', { name: 'Posts' });
      const rows = list.getByRole('link');
      await list.getByRole('link', { name: /Non-existent Post/ }).waitFor();
      // Page 1: the fake post first, then posts 1–6.
      assert.equal(await rows.count(), 7);
      assert.match(await text(rows.first()), /^–\s*Non-existent Post/);
      assert.deepEqual(await postNumbers(rows), [NaN, 1, 2, 3, 4, 5, 6]);

      const pages = page.getByRole('navigation', { name: 'Post pages' });
      await pages.getByText('Page 1 of 4').waitFor();
      await pages.getByRole('link', { name: 'Next' }).click();
      await page.waitForURL((url) => url.pathname === '/shell/posts' && url.searchParams.get('page') === '2');
      await pages.getByText('Page 2 of 4').waitFor();
      await list.getByRole('link', { name: /^Post 7(?!\d)/ }).waitFor();
      // Page 2: posts 7–12, and no fake post.
      assert.deepEqual(await postNumbers(rows), [7, 8, 9, 10, 11, 12]);
      assert.equal(await list.getByRole('link', { name: /Non-existent Post/ }).count(), 0);

      // Post 7: its title, body and author (user 2 of the fake).
      const seventh = list.getByRole('link', { name: /^Post 7(?!\d)/ });
      const row = await text(seventh);
      await seventh.click();
      await page.waitForURL((url) => url.pathname === '/shell/posts/7');
      await page.getByRole('article', { name: 'The post' }).waitFor();
      const title = page.getByRole('heading', { level: 1 });
      const titleText = await text(title);
      assert.ok(titleText && row.includes(titleText), `the post's title “${titleText}” is the list's “${row}”`);
      const author = page.getByRole('region', { name: 'Author' });
      assert.equal(await text(fact(author, 'Name')), 'Ervin Howell');
      assert.equal(await text(fact(author, 'Username')), 'Antonette');

      // Its deep view: the post with its three comments.
      await page.getByRole('link', { name: /Read the comments/ }).click();
      await page.waitForURL((url) => url.pathname === '/shell/posts/7/deep');
      await page.getByRole('heading', { level: 1, name: titleText }).waitFor();
      await page.getByRole('heading', { level: 2, name: '3 comments' }).waitFor();
      const comments = page.getByRole('list', { name: 'Comments' }).getByRole('listitem');
      assert.equal(await comments.count(), 3);
      for (const [i, comment] of (await comments.all()).entries()) {
        await comment.getByRole('heading', { level: 3 }).waitFor();
        await comment.getByRole('link', { name: `reader${19 + i}@example.org` }).waitFor();
      }

      // Back to the post, and back to page 2 of the list.
      await page.getByRole('link', { name: '← Back to the post' }).click();
      await page.waitForURL((url) => url.pathname === '/shell/posts/7');
      await page.getByRole('link', { name: '← All posts' }).click();
      await page.waitForURL((url) => url.pathname === '/shell/posts' && url.searchParams.get('page') === '2');
      await list.getByRole('link', { name: /^Post 7(?!\d)/ }).waitFor();

      assert.deepEqual(problems.messages, []);
    } finally {
      await context.close();
    }
  });

  it('the fake “Non-existent Post” (and a post JSONPlaceholder does not know) end on the not-found screen', async () => {
    const { page, context, problems } = await signedIn(STAFF, '/shell/posts', [{ path: '/api/samples/posts/999', status: 404 }]);
    try {
      const fake = page.getByRole('list', { name: 'Posts' }).getByRole('link', { name: /Non-existent Post/ });
      await fake.getByText('Test entry').waitFor();
      await fake.click();
      await page.waitForURL((url) => url.pathname === '/shell/posts/i-do-not-exist');
      await page.getByRole('heading', { level: 1, name: 'Page not found.' }).waitFor();
      await page.getByRole('link', { name: 'Return to Main Page' }).waitFor();
      assert.equal(app.samples.count('jsonplaceholder', '/posts/i-do-not-exist'), 0, 'the fake post is not asked for');

      await page.goto('/shell/posts/999');
      await page.getByRole('heading', { level: 1, name: 'Page not found.' }).waitFor();
      assert.ok(app.samples.count('jsonplaceholder', '/posts/999') >= 1, 'post 999 was asked for');

      assert.deepEqual(problems.messages, []);
    } finally {
      await context.close();
    }
  });
});

// ---- the Rick and Morty API down -----------------------------------------------------------------

/** The alive characters: 23 of the fake's 45, on two pages. Used only here, so no other test has stored page 2. */
const ALIVE = '/rick?status=alive';
const ALIVE_COUNT = '23 characters · Alive';
/** What the BFF asks the fake for page 2 of them (its pages are 1-based). */
const ALIVE_PAGE_2_UPSTREAM = '/api/character?page=2&status=alive';

describe('Rick and Morty down', () => {
  afterEach(async () => {
    await app.samples.reset();
  });

  it('a page seen before shows the stored copy with its age, and says why', async () => {
    const startedAt = Date.now();
    // Pictures the BFF has not stored yet cannot be fetched either: the BFF answers its placeholder picture, no error.
    const { page, context, problems } = await visitor();
    try {
      await page.goto(ALIVE);
      await characterCount(page, ALIVE_COUNT).waitFor();
      const seen = await characterNames(page);
      assert.equal(seen.length, 20);

      await app.samples.set('rickandmorty', { mode: 'down' });
      await page.reload();
      const notice = page.getByRole('status').filter({ hasText: /^Showing a copy from/ });
      await notice.waitFor();
      assert.match(await text(notice), /^Showing a copy from \d+ seconds? ago — the Rick and Morty API cannot be reached right now\. Check again$/);
      const fetchedAt = Date.parse((await notice.getByRole('time').getAttribute('datetime')) ?? '');
      assert.ok(fetchedAt >= startedAt - 1000 && fetchedAt <= Date.now(), `the copy is the one this test saw (${new Date(fetchedAt).toISOString()})`);
      await characterCount(page, ALIVE_COUNT).waitFor();
      await characterPages(page).getByText('Page 1 of 2').waitFor();
      assert.deepEqual(await characterNames(page), seen, 'the copy shows the same characters');
      assert.equal(await page.getByRole('alert').count(), 0, 'a stored copy is not an error');

      assert.deepEqual(problems.messages, []);
    } finally {
      await context.close();
    }
  });

  it('a page never seen says the service cannot be reached at once; back up, Try again shows it', async () => {
    const { page, context, problems } = await visitor([
      { path: '/api/samples/rick', status: 502 },
    ]);
    try {
      await page.goto(ALIVE);
      await characterCount(page, ALIVE_COUNT).waitFor();
      const seen = await characterNames(page);
      assert.equal(app.samples.count('rickandmorty', ALIVE_PAGE_2_UPSTREAM), 0, 'page 2 was never asked for');

      await app.samples.set('rickandmorty', { mode: 'down' });

      // The pointer rests on Next long enough for the app to warm page 2 up (as a mouse user's does), then clicks.
      const next = characterPages(page).getByRole('link', { name: 'Next' });
      const warmUp = page.waitForRequest((req) => req.url().includes('/api/samples/rick?page=1&status=alive'));
      await next.hover();
      await warmUp;
      const clickedAt = Date.now();
      await next.click();
      await page.waitForURL((url) => url.searchParams.get('page') === '2' && url.searchParams.get('status') === 'alive');
      const alert = page.getByRole('alert');
      await alert.waitFor();
      // The BFF refuses at once; the page must say so at once rather than hold the navigation for retries.
      const took = Date.now() - clickedAt;
      assert.ok(took < 3000, `“cannot be reached” shows at once after Next (it took ${took} ms)`);
      const tryAgain = alert.getByRole('button', { name: 'Try again' });
      await tryAgain.waitFor({ timeout: 3000 });
      assert.equal(await text(alert), 'Could not load the characters. The Rick and Morty API cannot be reached right now. Try again in a moment. Try again');
      assert.equal(await characterList(page).count(), 0, 'no characters are shown');
      assert.equal(await page.getByRole('status').filter({ hasText: /^Showing a copy from/ }).count(), 0, 'no stale notice without a copy');

      // The page also retries on its own, 1 s, 2 s and 4 s after a failure. Right after one of those fails
      // there is a second at least before the next: bring the service back then, so it is the button that loads.
      await page.waitForResponse((res) => res.url().includes('/api/samples/rick?') && res.status() === 502);
      await app.samples.set('rickandmorty', { mode: 'normal' });
      const asked = app.samples.count('rickandmorty', ALIVE_PAGE_2_UPSTREAM);
      await tryAgain.click({ timeout: 3000 });
      await characterCount(page, ALIVE_COUNT).waitFor();
      await characterPages(page).getByText('Page 2 of 2').waitFor();
      const unseen = await characterNames(page);
      assert.equal(unseen.length, 3);
      assert.deepEqual(
        unseen.filter((name) => seen.includes(name)),
        [],
      );
      assert.equal(await alert.count(), 0, 'the error is gone');
      assert.ok(app.samples.count('rickandmorty', ALIVE_PAGE_2_UPSTREAM) > asked, 'Try again asked the service');

      assert.deepEqual(problems.messages, []);
    } finally {
      await context.close();
    }
  });
});
