import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { signIn, simulateUnlock, startApp } from './harness';
import type { E2eApp } from './harness';

/**
 * Door events end to end: the Kisi emulator simulates a person unlocking a door, which sends the
 * signed webhook to the BFF; the event shows on the member's unlocks tab, in the webhook inbox and
 * in the stream viewer as it happens, with no reload.
 */
let app: E2eApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

/** A person the Kisi emulator knows; the gym seed makes them an active member. */
const PERSON = { name: 'Carmen Ruiz', email: 'carmen.ruiz@mail.example' };

/** Marks the document, so a test can prove later that the page was not reloaded. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { e2eMark: string }).e2eMark = 'still here'));
const documentMarked = (page: Page) => page.evaluate(() => (window as unknown as { e2eMark?: string }).e2eMark === 'still here');

describe('door events live', () => {
  it('an unlock appears on the member’s tab, in the inbox and in the stream viewer without a reload; an event is deleted', async () => {
    const { page, context, problems } = await app.newPage();
    await page.goto(`/login?redirect=${encodeURIComponent('/shell/gymowner/users')}`);
    await signIn(page);
    await page.waitForURL((url) => url.pathname === '/shell/gymowner/users');

    // The member's unlocks tab, found through the member list.
    await page.getByRole('searchbox', { name: 'Search members' }).fill(PERSON.email);
    await page.getByRole('table', { name: 'Members' }).getByRole('link', { name: new RegExp(PERSON.email.replace(/\./g, '\\.')) }).click();
    await page.waitForURL(/\/shell\/gymowner\/users\/\d+$/);
    await page.getByRole('link', { name: 'Unlocks' }).click();
    await page.waitForURL(/\/unlocks$/);
    const card = page.getByRole('region', { name: 'Unlocks' });
    await card.getByText('Live', { exact: true }).waitFor();
    await card.getByRole('list', { name: 'Unlocks' }).getByRole('listitem').first().waitFor(); // their past unlocks (the demo's history)
    await markDocument(page);

    const first = await simulateUnlock(page, PERSON.email);
    assert.equal(first.success, true, first.message);
    const newest = card.getByRole('list', { name: 'Unlocks' }).getByRole('listitem').first();
    await newest.getByText(first.event.object_name).waitFor();
    await newest.getByText('New', { exact: true }).waitFor();
    await newest.getByText('Opened').waitFor();
    assert.equal(await documentMarked(page), true, 'the unlocks tab reloaded');

    // The inbox: a new event is announced live, then loaded in.
    await page.goto('/shell/webhook');
    await page.getByRole('heading', { name: 'Door events', level: 1 }).waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    const table = page.getByRole('table');
    // The first unlock is already listed, on top of the demo's history (the seeded events are older).
    await table.getByRole('row').nth(1).getByText(PERSON.name).waitFor();
    await table.getByRole('row').nth(1).getByText(first.event.object_name).waitFor();
    await markDocument(page);
    const second = await simulateUnlock(page, PERSON.email);
    const banner = page.getByRole('button', { name: '1 new event' });
    await banner.waitFor();
    assert.equal(await documentMarked(page), true, 'the inbox reloaded');
    await banner.click();
    await banner.waitFor({ state: 'detached' });
    const top = table.getByRole('row').nth(1);
    await top.getByText('New', { exact: true }).waitFor();
    await top.getByText(PERSON.name).waitFor();
    await top.getByText(second.event.object_name).waitFor();

    // Delete it, through the confirmation.
    const deleteButton = top.getByRole('button', { name: /^Delete event \d+/ });
    const label = (await deleteButton.getAttribute('aria-label')) ?? '';
    const id = /^Delete event (\d+)/.exec(label)?.[1];
    assert.ok(id, label);
    await deleteButton.click();
    await page.getByRole('dialog', { name: 'Delete this event?' }).getByRole('button', { name: 'Delete event' }).click();
    await page.getByText(`Deleted ${PERSON.name}’s unlock at ${second.event.object_name} (`).waitFor();
    await page.getByRole('button', { name: new RegExp(`^Delete event ${id} `) }).waitFor({ state: 'detached' });

    // Filtered to the person (typed, as a desk would), the list and its CSV export hold the same events.
    await page.getByRole('searchbox', { name: 'Search by person' }).fill(PERSON.email);
    await page.waitForURL((url) => url.searchParams.get('person') === PERSON.email);
    // The address changes just before the filtered page renders (React Router renders its new state in
    // a transition): wait for the export link to carry the filter, drawn with the list's count.
    const exportLink = page.getByRole('link', { name: 'Export CSV' }).and(page.locator('[href^="/api/webhook/export.csv?person="]'));
    await exportLink.waitFor();
    const shown = /of (\d+) events/.exec((await page.getByText(/^Showing 1–\d+ of \d+ events$/).textContent()) ?? '')?.[1];
    const csv = await page.request.get((await exportLink.getAttribute('href')) ?? '');
    assert.equal(csv.status(), 200);
    const lines = (await csv.text()).trim().split('\r\n');
    assert.equal(lines.length - 1, Number(shown), 'the export has as many rows as the list counts');
    assert.ok(lines.slice(1).every((line) => line.includes(PERSON.email)), lines.join('\n'));

    // The stream viewer shows the next event as it arrives.
    await page.goto('/shell/sse');
    await page.getByRole('region', { name: 'Connection' }).getByText('Live', { exact: true }).waitFor();
    const third = await simulateUnlock(page, PERSON.email);
    const log = page.getByRole('log', { name: 'Events' });
    await log.getByText(`${PERSON.name} unlocked ${third.event.object_name}`).waitFor();
    assert.notEqual(await page.getByTestId('last-event-id').textContent(), '—');
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('region', { name: 'Connection' }).getByText('Disconnected').waitFor();

    assert.deepEqual(problems.messages, []);
    await context.close();
  });

  it('on a phone, the inbox’s filters sit three to a row and its days side by side, so the newest event is on the first screen', async () => {
    const { page, context, problems } = await app.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`/login?redirect=${encodeURIComponent('/shell/webhook')}`);
    await signIn(page);
    await page.waitForURL((url) => url.pathname === '/shell/webhook');
    // A select's name takes its chosen option's words too ("Door All doors").
    const field = (label: string) => page.locator('.toolbar-filters label').filter({ has: page.getByText(label, { exact: true }) });
    const top = async (label: string) => (await field(label).boundingBox())?.y;
    await field('Door').waitFor();
    assert.deepEqual(await Promise.all(['Result', 'Type'].map(top)), [await top('Door'), await top('Door')]);
    assert.equal(await top('To'), await top('From'));
    const newest = page.getByRole('table').getByRole('row').nth(1);
    await newest.waitFor();
    const box = await newest.boundingBox();
    assert.ok(box && box.y < 844, `the newest event starts ${box?.y} px down a 844 px screen`);
    assert.deepEqual(problems.messages, []);
    await context.close();
  });
});
