import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { shotsOf, signIn, startApp } from './harness';
import type { Account, E2eApp } from './harness';

/**
 * Members imported from a spreadsheet (issue 52), against the real BFF: the desk picks a CSV file,
 * sees each row's fate (a problem row among them), confirms, finds the members in the list, and the
 * same file again adds nobody. At a phone's width and a desk's.
 */
let app: E2eApp;
const STAFF: Account = { email: 'import.staff@frontdesk.test', password: 'staff-password-e2e', name: 'Import Staff', role: 'staff' };

before(async () => {
  app = await startApp();
  await app.addAccount(STAFF);
});
after(async () => {
  await app?.close();
});

const screenshot = shotsOf('member-import');

/** A file as a venue's spreadsheet saves it: semicolons, a byte-order mark, headers in its own words; the seeded owner Marta, one owner nobody has. */
const fileFor = (tag: string) =>
  Buffer.from(
    [
      '\uFEFFFull name;E-mail;Owner email;Membership',
      `Nora Quist ${tag};nora.quist.${tag}@mail.example;MARTA@ironharbour.example;active`,
      `Omar Reyes ${tag};omar.reyes.${tag}@mail.example;marta@ironharbour.example;paused`,
      `Pia Sand ${tag};pia.sand.${tag}@mail.example;ghost@nowhere.example;`,
    ].join('\r\n'),
  );

describe('members from a CSV file', () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    it(`previews, imports, lists them, and the same file again adds nobody (${viewport.width} px)`, async () => {
      const tag = `w${viewport.width}`;
      const file = { name: `members-${tag}.csv`, mimeType: 'text/csv', buffer: fileFor(tag) };
      const { page, context, problems } = await app.newPage({ viewport });
      await page.goto(`/login?redirect=${encodeURIComponent('/shell/gymowner/users')}`);
      await signIn(page, STAFF.email, STAFF.password);
      await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();

      await page.getByRole('link', { name: 'Import from CSV' }).click();
      await page.getByRole('heading', { name: 'Import members', level: 1 }).waitFor();
      await page.getByLabel('CSV file').setInputFiles(file);

      const preview = page.getByRole('region', { name: `Preview of ${file.name}` });
      await preview.getByText('3 rows: 2 new members, 0 already members, 1 row left out with problems.').waitFor();
      await preview.getByText('No owner has the email ghost@nowhere.example').waitFor();
      assert.equal(await preview.getByText('New member', { exact: true }).count(), 2);
      await screenshot(page, `preview-${viewport.width}`);

      await preview.getByRole('button', { name: 'Import 2 members' }).click();
      const done = page.getByRole('status', { name: 'Import done' });
      await done.getByText('Imported 2 members.').waitFor();
      await done.getByText(/1 row with problems was left out/).waitFor();
      await screenshot(page, `done-${viewport.width}`);

      await done.getByRole('link', { name: 'See the members' }).click();
      await page.waitForURL((url) => url.pathname === '/shell/gymowner/users');
      await page.getByRole('searchbox', { name: 'Search members' }).fill(tag);
      await page.waitForURL((url) => url.searchParams.get('query') === tag);
      // (Found by their links in the page: the list's own shape is the attendance work's to change.)
      const list = page.getByRole('main');
      await list.getByRole('link', { name: new RegExp(`Nora Quist ${tag}`) }).waitFor();
      await list.getByRole('link', { name: new RegExp(`Omar Reyes ${tag}`) }).waitFor();
      assert.equal(await list.getByRole('link', { name: new RegExp(`Pia Sand ${tag}`) }).count(), 0);
      await screenshot(page, `list-${viewport.width}`);

      // The same file again: both are members already, nothing to import.
      await page.getByRole('link', { name: 'Import from CSV' }).click();
      await page.getByLabel('CSV file').setInputFiles(file);
      await preview.getByText('3 rows: 0 new members, 2 already members, 1 row left out with problems.').waitFor();
      await preview.getByText('Nothing to import: every row that could be imported is a member already.').waitFor();
      assert.equal(await preview.getByRole('button', { name: /^Import \d/ }).count(), 0);
      assert.equal(await preview.getByText('Already a member', { exact: true }).count(), 2);
      await screenshot(page, `again-${viewport.width}`);

      // Nothing on the page is wider than the screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      assert.deepEqual(problems.messages, []);
      await context.close();
    });
  }
});
