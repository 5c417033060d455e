import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { APIResponse, Locator, Page } from 'playwright-core';
import { shotsOf, signIn, startApp, watchProblems } from './harness';
import type { Account, E2eApp, ExpectedFailure } from './harness';

/**
 * Messaging end to end: staff chat between two browsers (live messages, unread counts, replies,
 * edit and delete, the "N new messages" jump) in all three layouts (list, grid, split); a runner
 * sees only the kitchen's channel; and guest help, from a diner's "Need help?" link to the front
 * desk's answer, assignment and resolution, every step seen live on the other side with no reload.
 * The seeded channels (Front desk, Kitchen, Managers) come from the messaging migration.
 * With SHOTS_DIR set, the three chat layouts and both sides of the help flow are saved there.
 */
let app: E2eApp;

const ALEX: Account = { email: 'alex.able@frontdesk.test', password: 'alex-password-e2e', name: 'Alex Able', role: 'staff' };
const BEA: Account = { email: 'bea.baker@frontdesk.test', password: 'bea-password-e2e', name: 'Bea Baker', role: 'staff' };
const CARL: Account = { email: 'carl.cook@frontdesk.test', password: 'carl-password-e2e', name: 'Carl Cook', role: 'staff' };
const DANA: Account = { email: 'dana.desk@frontdesk.test', password: 'dana-password-e2e', name: 'Dana Desk', role: 'staff' };
const RUNNER: Account = { email: 'rory.runner@frontdesk.test', password: 'runner-password-e2e', name: 'Rory Runner', role: 'runner' };

before(async () => {
  app = await startApp();
  for (const account of [ALEX, BEA, CARL, DANA, RUNNER]) await app.addAccount(account);
});
after(async () => {
  await app?.close();
});

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** How long anything a user waits for may take: live news arrives in well under a second. */
const WAIT_MS = 15_000;

async function newContext(viewport: { width: number; height: number }, expected: ExpectedFailure[] = []) {
  const context = await app.browser.newContext({ baseURL: app.url, viewport });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  return { page, context, problems: watchProblems(page, expected) };
}

/** Someone signed in through the login form, landing on `path`. */
async function signedIn(account: Account, path: string) {
  const session = await newContext(DESKTOP);
  await session.page.goto(`/login?redirect=${encodeURIComponent(path)}`);
  await signIn(session.page, account.email, account.password);
  await session.page.waitForURL((url) => url.pathname + url.search === path);
  return session;
}

/** Marks the document, so a test can prove later that the page was not reloaded. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { e2eMark: string }).e2eMark = 'still here'));
const documentMarked = (page: Page) => page.evaluate(() => (window as unknown as { e2eMark?: string }).e2eMark === 'still here');

const screenshot = shotsOf('messaging');

/** Waits until `check` holds (what a user sees settling), failing with `what` after the usual wait. */
async function until(check: () => Promise<boolean>, what: string, timeout = WAIT_MS) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeout) assert.fail(`waited ${timeout} ms for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// ---- staff chat -------------------------------------------------------------------------------

/** A channel's thread, as a screen reader finds it (the log of one channel, in any layout). */
const thread = (page: Page, channel: string) => page.getByRole('log', { name: `Messages in ${channel}` });
const messageIn = (log: Locator, text: string) => log.getByRole('listitem').filter({ hasText: text });
/** A channel in the list and split layouts' channel list (its name, then time, unread count and preview). */
const channelLink = (page: Page, channel: string) => page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: new RegExp(`^${channel}`) });
const unreadBadge = (page: Page, channel: string) => channelLink(page, channel).locator('.chat-unread');

async function unreadOf(page: Page, channel: string): Promise<number> {
  const badge = unreadBadge(page, channel);
  if ((await badge.count()) === 0) return 0;
  return Number(/\d+/.exec((await badge.textContent()) ?? '')?.[0]);
}

/** The header's total: "3 unread messages across your channels", or "You are all caught up." (0). */
async function totalUnread(page: Page): Promise<number> {
  const text = (await page.locator('.chat-total').textContent()) ?? '';
  if (/all caught up/.test(text)) return 0;
  const count = /^(\d+) unread messages? across your channels$/.exec(text.trim().replace(/\s+/g, ' '));
  assert.ok(count, `the header's unread total says “${text}”`);
  return Number(count[1]);
}

/** A chat page opened and connected to the live stream (news sent before that would only come with the next read). */
async function chatReady(page: Page, channel: string) {
  await page.getByRole('heading', { name: 'Chat', level: 1 }).waitFor();
  await thread(page, channel).waitFor();
  await page.getByTitle('Live messages: Live').waitFor();
}

/** Writes in a channel's composer and sends (by the Send button, or Enter as the hint says). */
async function send(page: Page, channel: string, text: string, { byEnter = false } = {}) {
  const form = page.getByRole('form', { name: `Write to ${channel}` });
  const box = form.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  if (byEnter) await box.press('Enter');
  else await form.getByRole('button', { name: 'Send' }).click();
  const mine = messageIn(thread(page, channel), text);
  await mine.waitFor();
  // On the sender's own side (its "You" line is left out when it follows another of theirs).
  assert.match((await mine.getAttribute('class')) ?? '', /\bis-mine\b/, `“${text}” is not shown as the sender's own`);
  await until(async () => (await box.inputValue()) === '', 'the composer to empty after sending');
}

/** Whether `item` is wholly inside the scrolled log's visible box. */
async function inLogView(log: Locator, item: Locator): Promise<boolean> {
  const [box, itemBox] = await Promise.all([log.boundingBox(), item.boundingBox()]);
  return !!box && !!itemBox && itemBox.y >= box.y - 1 && itemBox.y + itemBox.height <= box.y + box.height + 1;
}

const distanceFromEnd = (log: Locator) => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

describe('staff chat', () => {
  it('two staff chat live in the list layout, and the grid and split layouts of a third browser follow', { timeout: 120_000 }, async () => {
    const a = await signedIn(ALEX, '/shell/chat');
    const b = await signedIn(BEA, '/shell/chat');
    await chatReady(a.page, 'Front desk');
    await chatReady(b.page, 'Front desk');
    // Both open on the first channel, Front desk, marked as the one shown.
    for (const { page } of [a, b]) {
      await page.getByRole('heading', { name: 'Front desk', level: 2 }).waitFor();
      assert.equal(await channelLink(page, 'Front desk').getAttribute('aria-current'), 'page');
    }
    // The seed's Front desk messages were unread for Bea; opening the channel reads them.
    await unreadBadge(b.page, 'Front desk').waitFor({ state: 'detached' });

    // A third person watches the grid and the split layouts.
    const c = await signedIn(CARL, '/shell/chat/grid');
    const grid = c.page;
    await grid.getByRole('heading', { name: 'Chat', level: 1 }).waitFor();
    await grid.getByTitle('Live messages: Live').waitFor();
    const tiles = grid.getByRole('list', { name: 'Channels' });
    for (const channel of ['Front desk', 'Kitchen', 'Managers']) await tiles.getByRole('region', { name: channel, exact: true }).waitFor();
    const flex = await c.context.newPage();
    const flexProblems = watchProblems(flex);
    await flex.goto('/shell/chat/flex');
    await chatReady(flex, 'Front desk');
    for (const page of [a.page, b.page, grid, flex]) await markDocument(page);

    // Alex writes in Front desk: Bea's open thread shows it with no reload, under Alex's name; so do the grid and the split layout.
    const hello = 'Hello from the desk — is the side door still sticking?';
    await send(a.page, 'Front desk', hello);
    const atBea = messageIn(thread(b.page, 'Front desk'), hello);
    await atBea.waitFor();
    await atBea.getByText(ALEX.name, { exact: true }).waitFor();
    await messageIn(grid.getByRole('region', { name: 'Front desk', exact: true }).getByRole('log'), hello).waitFor();
    await messageIn(thread(flex, 'Front desk'), hello).waitFor();
    assert.equal(await unreadOf(b.page, 'Front desk'), 0, 'a message arriving in the thread Bea is reading is not unread');

    // Alex posts in Managers: Bea's Managers count goes up by one, as does her total.
    const managersBefore = await unreadOf(b.page, 'Managers');
    const totalBefore = await totalUnread(b.page);
    await channelLink(a.page, 'Managers').click();
    await a.page.waitForURL((url) => url.searchParams.has('channel'));
    await chatReady(a.page, 'Managers');
    const rota = 'Rota question: who covers Saturday night?';
    await send(a.page, 'Managers', rota, { byEnter: true });
    await unreadBadge(b.page, 'Managers').filter({ hasText: new RegExp(`^${managersBefore + 1} unread$`) }).waitFor();
    await until(async () => (await totalUnread(b.page)) === totalBefore + 1, `Bea's total to rise to ${totalBefore + 1}`);
    await messageIn(grid.getByRole('region', { name: 'Managers', exact: true }).getByRole('log'), rota).waitFor();
    await screenshot(b.page, 'chat-list-unread');

    // Bea opens Managers: Alex's message is there, and the count goes away.
    await channelLink(b.page, 'Managers').click();
    await b.page.getByRole('heading', { name: 'Managers', level: 2 }).waitFor();
    await messageIn(thread(b.page, 'Managers'), rota).getByText(ALEX.name, { exact: true }).waitFor();
    await unreadBadge(b.page, 'Managers').waitFor({ state: 'detached' });
    await until(async () => (await totalUnread(b.page)) === totalBefore - managersBefore, "Bea's total to drop by the Managers count");
    assert.equal(await channelLink(b.page, 'Managers').getAttribute('aria-current'), 'page');

    // Bea replies; Alex, reading Managers, sees it.
    const reply = 'I can take Saturday, put me down.';
    await send(b.page, 'Managers', reply);
    await messageIn(thread(a.page, 'Managers'), reply).getByText(BEA.name, { exact: true }).waitFor();
    await messageIn(grid.getByRole('region', { name: 'Managers', exact: true }).getByRole('log'), reply).waitFor();

    // Alex edits his message: Bea sees the new words, marked edited.
    const edited = 'Rota question: who covers Saturday and Sunday night?';
    const own = messageIn(thread(a.page, 'Managers'), rota);
    await own.hover();
    await own.getByRole('button', { name: 'Edit message' }).click();
    const editBox = thread(a.page, 'Managers').getByRole('textbox', { name: 'Edit message' });
    await editBox.fill(edited);
    await thread(a.page, 'Managers').getByRole('button', { name: 'Save' }).click();
    await editBox.waitFor({ state: 'detached' });
    await messageIn(thread(a.page, 'Managers'), edited).getByText('(edited)').waitFor();
    const editedAtBea = messageIn(thread(b.page, 'Managers'), edited);
    await editedAtBea.getByText('(edited)').waitFor();
    await messageIn(grid.getByRole('region', { name: 'Managers', exact: true }).getByRole('log'), edited).getByText('(edited)').waitFor();
    assert.equal(await thread(b.page, 'Managers').getByText(rota, { exact: true }).count(), 0, 'the old words are gone at Bea');

    // Alex sends something by mistake and deletes it: Bea sees it, then only the "deleted" marker in its place.
    const oops = 'Oops, wrong channel: the parcel is for yoga';
    await send(a.page, 'Managers', oops);
    await messageIn(thread(b.page, 'Managers'), oops).waitFor();
    const mistake = messageIn(thread(a.page, 'Managers'), oops);
    await mistake.hover();
    await mistake.getByRole('button', { name: 'Delete message' }).click();
    const confirm = a.page.getByRole('dialog', { name: 'Delete this message?' });
    await confirm.getByText(oops).waitFor();
    await confirm.getByRole('button', { name: 'Delete message' }).click();
    await confirm.waitFor({ state: 'detached' });
    await a.page.getByRole('region', { name: 'Notifications' }).getByText('Message deleted.').waitFor();
    await thread(a.page, 'Managers').getByText('This message was deleted').waitFor();
    await thread(b.page, 'Managers').getByText('This message was deleted').waitFor();
    await messageIn(thread(b.page, 'Managers'), oops).waitFor({ state: 'detached' });
    await grid.getByRole('region', { name: 'Managers', exact: true }).getByText('This message was deleted').waitFor();
    await messageIn(grid.getByRole('region', { name: 'Managers', exact: true }).getByRole('log'), oops).waitFor({ state: 'detached' });
    // Bea cannot edit or delete Alex's messages.
    assert.equal(await editedAtBea.getByRole('button').count(), 0, "no actions on someone else's message");

    // The split layout's separator moves by keyboard (and the thread stays beside it).
    const separator = flex.getByRole('separator', { name: 'Resize the channel list' });
    const width = Number(await separator.getAttribute('aria-valuenow'));
    await separator.focus();
    await flex.keyboard.press('ArrowRight');
    assert.equal(Number(await separator.getAttribute('aria-valuenow')), width + 16);
    await messageIn(thread(flex, 'Front desk'), hello).waitFor();

    // Carl has read Managers in the grid; his split tab, which counted the news as it came, learns that from the server.
    await unreadBadge(flex, 'Managers').waitFor({ state: 'detached' });

    for (const page of [a.page, b.page, grid, flex]) assert.equal(await documentMarked(page), true, `${page.url()} reloaded`);
    await screenshot(a.page, 'chat-list');
    await grid.getByRole('region', { name: 'Managers', exact: true }).scrollIntoViewIfNeeded();
    await screenshot(grid, 'chat-grid');
    await screenshot(flex, 'chat-split');

    assert.deepEqual(a.problems.messages, [], 'Alex');
    assert.deepEqual(b.problems.messages, [], 'Bea');
    assert.deepEqual(c.problems.messages, [], 'Carl (grid)');
    assert.deepEqual(flexProblems.messages, [], 'Carl (split)');
    await Promise.all([a.context.close(), b.context.close(), c.context.close()]);
  });

  it('scrolled back, a reader gets a “1 new message” button that jumps to the newest message', { timeout: 120_000 }, async () => {
    // Enough messages for the thread to scroll, written through the API by a third person.
    const filler = await signedIn(CARL, '/shell');
    const channels = await filler.page.request.get('/api/chat/channels');
    assert.equal(channels.status(), 200);
    const frontDesk = ((await channels.json()) as { channels: { id: number; name: string }[] }).channels.find((ch) => ch.name === 'Front desk');
    assert.ok(frontDesk, 'the seeded Front desk channel');
    const FILLER = 24;
    for (let i = 1; i <= FILLER; i++) {
      const res: APIResponse = await filler.page.request.post(`/api/chat/channels/${frontDesk.id}/messages`, {
        data: { body: `Shift note ${i} of ${FILLER}: counted the float, checked the lockers, restocked towels.` },
      });
      assert.equal(res.status(), 201, await res.text());
    }
    await filler.context.close();

    const a = await signedIn(ALEX, `/shell/chat?channel=${frontDesk.id}`);
    const b = await signedIn(BEA, `/shell/chat?channel=${frontDesk.id}`);
    await chatReady(a.page, 'Front desk');
    await chatReady(b.page, 'Front desk');
    await markDocument(b.page);

    // Bea opens at the newest message, then scrolls back up to read.
    const log = thread(b.page, 'Front desk');
    const last = messageIn(log, `Shift note ${FILLER} of ${FILLER}:`);
    await last.waitFor();
    await until(() => inLogView(log, last), 'the newest message in view when the thread opens');
    const logBox = await log.boundingBox();
    assert.ok(logBox);
    await b.page.mouse.move(logBox.x + logBox.width / 2, logBox.y + logBox.height / 2);
    await b.page.mouse.wheel(0, -600);
    await until(async () => (await distanceFromEnd(log)) > 300, 'Bea scrolled away from the newest message');

    // Alex writes: Bea keeps her place, and a button says one new message came.
    const news = 'Heads up: the fire drill starts in ten minutes.';
    await send(a.page, 'Front desk', news);
    const jump = b.page.getByRole('button', { name: '1 new message', exact: true });
    await jump.waitFor();
    await unreadBadge(b.page, 'Front desk').filter({ hasText: /^1 unread$/ }).waitFor();
    const arrived = messageIn(log, news);
    await arrived.waitFor({ state: 'attached' });
    assert.equal(await inLogView(log, arrived), false, 'the thread jumped to the new message by itself');
    assert.ok((await distanceFromEnd(log)) > 300, 'Bea lost her place');
    await screenshot(b.page, 'chat-jump-button');

    // The button takes her there and goes away; the thread keeps the focus.
    await jump.click();
    await jump.waitFor({ state: 'detached' });
    await until(() => inLogView(log, arrived), 'the new message in view after the jump');
    assert.equal(await log.evaluate((el) => el === document.activeElement), true, 'the focus is on the thread after the jump');
    // Read now: the channel's unread count goes away.
    await unreadBadge(b.page, 'Front desk').waitFor({ state: 'detached' });
    assert.equal(await documentMarked(b.page), true, 'Bea’s page reloaded');

    assert.deepEqual(a.problems.messages, [], 'Alex');
    assert.deepEqual(b.problems.messages, [], 'Bea');
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('a runner sees only the Kitchen channel, in every layout and through the API', { timeout: 60_000 }, async () => {
    const staff = await signedIn(BEA, '/shell');
    const all = ((await (await staff.page.request.get('/api/chat/channels')).json()) as { channels: { id: number; name: string }[] }).channels;
    await staff.context.close();
    const managers = all.find((ch) => ch.name === 'Managers');
    assert.ok(managers);

    const runner = await signedIn(RUNNER, '/shell/chat');
    const { page } = runner;
    await chatReady(page, 'Kitchen');
    await page.getByRole('heading', { name: 'Kitchen', level: 2 }).waitFor();
    const links = page.getByRole('navigation', { name: 'Channels' }).getByRole('link');
    assert.equal(await links.count(), 1);
    await channelLink(page, 'Kitchen').waitFor();
    for (const hidden of ['Front desk', 'Managers']) assert.equal(await page.getByText(hidden, { exact: true }).count(), 0, `${hidden} shows to a runner`);
    // The shell offers a runner no Guest help tab.
    const shellTabs = page.getByRole('navigation', { name: 'Staff shell' });
    await shellTabs.getByRole('link', { name: /^Chat/ }).waitFor();
    assert.equal(await shellTabs.getByRole('link', { name: 'Guest help' }).count(), 0);

    // The grid has one tile; asking for a staff channel in the URL shows the kitchen.
    await page.getByRole('navigation', { name: 'Chat layout' }).getByRole('link', { name: 'Grid' }).click();
    await page.waitForURL((url) => url.pathname === '/shell/chat/grid');
    const tiles = page.getByRole('list', { name: 'Channels' });
    await tiles.getByRole('region', { name: 'Kitchen', exact: true }).waitFor();
    assert.equal(await tiles.getByRole('region').count(), 1, 'one tile');
    await page.goto(`/shell/chat/flex?channel=${managers.id}`);
    await chatReady(page, 'Kitchen');
    assert.equal(await page.getByText('Managers', { exact: true }).count(), 0);

    const listed = ((await (await page.request.get('/api/chat/channels')).json()) as { channels: { name: string }[] }).channels.map((ch) => ch.name);
    assert.deepEqual(listed, ['Kitchen']);
    assert.equal((await page.request.get(`/api/chat/channels/${managers.id}/messages`)).status(), 404);

    assert.deepEqual(runner.problems.messages, [], 'runner');
    await runner.context.close();
  });

  // Closing the edit form (Escape, Enter) unmounts the focused box: the focus must stay in the message.
  it('by keyboard, closing a message’s edit form gives the focus back to the message', { timeout: 60_000 }, async () => {
    const a = await signedIn(ALEX, '/shell/chat');
    await chatReady(a.page, 'Front desk');
    const text = 'Keyboard check: the coffee machine is fixed.';
    await send(a.page, 'Front desk', text);
    const own = messageIn(thread(a.page, 'Front desk'), text);
    const edit = own.getByRole('button', { name: 'Edit message' });
    for (const close of ['Escape', 'Enter']) {
      await edit.focus();
      await a.page.keyboard.press('Enter');
      const box = thread(a.page, 'Front desk').getByRole('textbox', { name: 'Edit message' });
      await box.waitFor();
      if (close === 'Enter') await box.fill(`${text} (really)`);
      await a.page.keyboard.press(close);
      await box.waitFor({ state: 'detached' });
      const focusInMessage = await own.evaluate((li) => li.contains(document.activeElement));
      assert.ok(focusInMessage, `after ${close} in the edit form the focus is on ${await a.page.evaluate(() => document.activeElement?.tagName)}, not on the message`);
    }
    assert.deepEqual(a.problems.messages, [], 'Alex');
    await a.context.close();
  });

  it('the thread fills the window below the header on a laptop and a phone: the composer in view, the message list the one scroll', { timeout: 120_000 }, async () => {
    const writer = await signedIn(DANA, '/shell');
    const channels = (await (await writer.page.request.get('/api/chat/channels')).json()) as { channels: { id: number; name: string }[] };
    const frontDesk = channels.channels.find((ch) => ch.name === 'Front desk');
    assert.ok(frontDesk, 'the seeded Front desk channel');
    // Enough messages for the thread to scroll on any screen.
    for (let i = 1; i <= 16; i++) {
      const res: APIResponse = await writer.page.request.post(`/api/chat/channels/${frontDesk.id}/messages`, { data: { body: `Fit check ${i}: the thread should scroll, not the page.` } });
      assert.equal(res.status(), 201, await res.text());
    }
    await writer.context.close();

    for (const [name, viewport, path, minThread] of [
      ['laptop', DESKTOP, chatAddresses(frontDesk.id).list, 400],
      ['laptop-split', DESKTOP, chatAddresses(frontDesk.id).split, 400],
      ['phone', PHONE, chatAddresses(frontDesk.id).list, 250],
    ] as const) {
      const session = await newContext(viewport);
      await session.page.goto(`/login?redirect=${encodeURIComponent(path)}`);
      await signIn(session.page, DANA.email, DANA.password);
      await chatReady(session.page, 'Front desk');
      await messageIn(thread(session.page, 'Front desk'), 'Fit check 16:').waitFor();
      const fit = await session.page.evaluate(() => {
        const log = document.querySelector('.chat-log')!.getBoundingClientRect();
        const composer = document.querySelector('.chat-composer')!.getBoundingClientRect();
        const scrolling = [...document.querySelectorAll('*')]
          .filter((el) => /(auto|scroll)/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 1)
          .map((el) => el.className);
        return { thread: log.height, composerTop: composer.top, composerBottom: composer.bottom, scrolling, pageScrolls: document.documentElement.scrollHeight > window.innerHeight + 1 };
      });
      await screenshot(session.page, `chat-fit-${name}`);
      assert.ok(fit.thread >= minThread, `${name}: the thread is ${Math.round(fit.thread)} px tall, under ${minThread}`);
      assert.ok(fit.composerTop >= 0 && fit.composerBottom <= viewport.height, `${name}: the composer (${Math.round(fit.composerTop)}–${Math.round(fit.composerBottom)} px) is not in the ${viewport.height} px window`);
      // The composer sits at the bottom of the window, not above an empty band the thread could use.
      assert.ok(viewport.height - fit.composerBottom <= 24, `${name}: ${Math.round(viewport.height - fit.composerBottom)} px under the composer`);
      assert.equal(fit.pageScrolls, false, `${name}: the page scrolls around the thread`);
      assert.deepEqual(fit.scrolling, ['chat-log'], `${name}: what scrolls`);
      assert.deepEqual(session.problems.messages, [], name);
      await session.context.close();
    }
  });
});

/** The list and split layouts' addresses with a channel chosen. */
const chatAddresses = (channel: number) => ({ list: `/shell/chat?channel=${channel}`, split: `/shell/chat/flex?channel=${channel}` });

// ---- guest help -------------------------------------------------------------------------------

describe('guest help', () => {
  const GUEST = 'Gwen Guest';
  let conversationId = 0;

  it('a diner asks for help from table 7; the front desk answers, assigns and resolves it, all seen live; writing again reopens it', { timeout: 120_000 }, async () => {
    // The front desk has the conversation list open before anyone asks.
    const staff = await signedIn(DANA, '/shell/nuhs/basic/');
    const desk = staff.page;
    await desk.getByRole('heading', { name: 'Guest conversations', level: 1 }).waitFor();
    await desk.getByTitle('Live conversations: Live').waitFor();
    await desk.getByRole('heading', { name: 'Pick a conversation' }).waitFor();
    const list = desk.getByRole('list', { name: 'Conversations' });
    await list.getByRole('link').first().waitFor(); // the seeded open request
    const row = list.getByRole('link', { name: new RegExp(`^${GUEST}`) });
    assert.equal(await row.count(), 0);
    await markDocument(desk);

    // A diner at table 7 taps "Need help?" on the menu: the help page knows the table.
    const guest = await newContext(PHONE);
    const { page } = guest;
    await page.goto('/pt/diner/menu?table=7');
    await page.getByRole('heading', { name: 'Menu', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Need help?' }).click();
    await page.waitForURL((url) => url.pathname === '/help' && url.searchParams.get('table') === '7');
    await page.getByRole('heading', { name: 'Need help?', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Ask the front desk' });
    assert.equal(await form.getByLabel('Table number').inputValue(), '7');
    await form.getByLabel('Your name').fill(GUEST);
    const question = 'Could we get a high chair at our table, please?';
    await form.getByLabel('How can we help?').fill(question);
    await form.getByRole('button', { name: 'Send' }).click();

    // The guest sees their request and its thread, connected for answers.
    const request = page.getByRole('region', { name: 'We have your request' });
    await request.waitFor();
    const guestLog = page.getByRole('log', { name: 'Messages with the front desk' });
    await messageIn(guestLog, question).getByText('You', { exact: true }).waitFor();
    await request.getByText(`${GUEST} · Table 7`).waitFor();
    await request.getByText('The front desk has your message and will answer here.').waitFor();
    await page.getByTitle('Replies: Live').waitFor();
    await markDocument(page);

    // It appears in the front desk's list without a reload, and opens beside it.
    await row.waitFor();
    await row.getByText('Table 7').waitFor();
    await row.getByText(question).waitFor();
    await row.click();
    await desk.waitForURL((url) => /^\/shell\/nuhs\/basic\/\d+$/.test(url.pathname));
    conversationId = Number(new URL(desk.url()).pathname.split('/').pop());
    const pane = desk.getByRole('region', { name: 'Conversation', exact: true });
    await pane.getByRole('heading', { name: GUEST, level: 2 }).waitFor();
    const deskLog = desk.getByRole('log', { name: `Messages with ${GUEST}` });
    await messageIn(deskLog, question).getByText(GUEST, { exact: true }).waitFor();
    await pane.getByText('Unassigned', { exact: true }).waitFor();

    // The front desk answers: the guest sees it with no reload. Answering takes the conversation.
    const answer = 'Of course, a runner is bringing one over now.';
    await pane.getByRole('textbox', { name: `Reply to ${GUEST}` }).fill(answer);
    await pane.getByRole('button', { name: 'Send' }).click();
    await messageIn(deskLog, answer).getByText('You', { exact: true }).waitFor();
    await messageIn(guestLog, answer).getByText(DANA.name, { exact: true }).waitFor();
    await pane.getByText('Assigned to you').waitFor();
    await request.getByText(`${DANA.name} from the front desk is on it.`).waitFor();
    assert.equal(await documentMarked(page), true, 'the guest’s page reloaded');

    // Unassigned, then "Assign to me": the assignee shows on both sides.
    await pane.getByRole('button', { name: 'Unassign' }).click();
    await pane.getByText('Unassigned', { exact: true }).waitFor();
    await request.getByText('The front desk has your message and will answer here.').waitFor();
    await pane.getByRole('button', { name: 'Assign to me' }).click();
    await desk.getByRole('region', { name: 'Notifications' }).getByText(`${GUEST}’s conversation is assigned to you.`).waitFor();
    await pane.getByText('Assigned to you').waitFor();
    await row.getByText(/Assigned to\s*You/).waitFor();
    await request.getByText(`${DANA.name} from the front desk is on it.`).waitFor();

    // Resolve: the guest sees "Resolved" live.
    await pane.getByRole('button', { name: 'Resolve' }).click();
    await pane.getByRole('button', { name: 'Reopen' }).waitFor();
    await pane.locator('.conv-state').getByText('Resolved', { exact: true }).waitFor();
    await request.locator('.guest-status').getByText('Resolved', { exact: true }).waitFor();
    await request.getByText('The front desk marked this resolved.', { exact: false }).waitFor();
    await row.waitFor({ state: 'detached' }); // the list shows open conversations
    await screenshot(page, 'help-guest-resolved');

    // The guest writes again: it is open again at the front desk, with their message.
    const more = 'Thanks! Could we also have some napkins?';
    await request.getByRole('textbox', { name: 'Write to the front desk' }).fill(more);
    await request.getByRole('button', { name: 'Send' }).click();
    await messageIn(guestLog, more).waitFor();
    await request.locator('.guest-status').getByText('Open', { exact: true }).waitFor();
    await messageIn(deskLog, more).waitFor();
    await pane.locator('.conv-state').getByText('Open', { exact: true }).waitFor();
    await pane.getByRole('button', { name: 'Resolve' }).waitFor();
    await row.waitFor();
    await row.getByText(more).waitFor();

    assert.equal(await documentMarked(page), true, 'the guest’s page reloaded');
    assert.equal(await documentMarked(desk), true, 'the front desk’s page reloaded');
    await request.getByRole('button', { name: 'Start a new request' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'help-guest-phone');
    await screenshot(desk, 'help-staff');

    assert.deepEqual(guest.problems.messages, [], 'guest');
    assert.deepEqual(staff.problems.messages, [], 'front desk');
    await Promise.all([guest.context.close(), staff.context.close()]);
  });

  // "Start a new request" swaps the conversation for the form: the focus must follow to the form.
  it('by keyboard, “Start a new request” takes the focus to the new form', { timeout: 60_000 }, async () => {
    const guest = await newContext(PHONE);
    const { page } = guest;
    await page.goto('/help?table=3');
    const form = page.getByRole('form', { name: 'Ask the front desk' });
    await form.getByLabel('Your name').fill('Kim Keys');
    await form.getByLabel('How can we help?').fill('Could we have a fork?');
    await form.getByRole('button', { name: 'Send' }).press('Enter');
    const request = page.getByRole('region', { name: 'We have your request' });
    await request.waitFor();
    // The confirmation takes the focus, so a screen reader hears that it went through.
    await until(() => request.getByRole('heading', { name: 'We have your request' }).evaluate((h) => h === document.activeElement), 'the focus on the confirmation');
    await request.getByRole('button', { name: 'Start a new request' }).focus();
    await page.keyboard.press('Enter');
    await form.waitFor();
    const focusInForm = await form.evaluate((f) => f.contains(document.activeElement) || f === document.activeElement);
    assert.ok(focusInForm, `after “Start a new request” the focus is on ${await page.evaluate(() => document.activeElement?.tagName)}`);
    assert.deepEqual(guest.problems.messages, [], 'guest');
    await guest.context.close();
  });

  it('a guest with a long name: the desk’s list cuts it short on a phone, its time and unread count still in sight', { timeout: 60_000 }, async () => {
    const longName = 'Bartholomew-Maximilian-Fitzgerald-Worthington';
    const guest = await newContext(PHONE);
    await guest.page.goto('/help?table=4');
    const form = guest.page.getByRole('form', { name: 'Ask the front desk' });
    await form.getByLabel('Your name').fill(longName);
    await form.getByLabel('How can we help?').fill('Could we have the bill, please?');
    await form.getByRole('button', { name: 'Send' }).click();
    await guest.page.getByRole('region', { name: 'We have your request' }).waitFor();

    const staff = await signedIn(DANA, '/shell/nuhs/basic/');
    const desk = staff.page;
    await desk.setViewportSize(PHONE);
    const row = desk.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(`^${longName}`) });
    await row.getByText('1 unread').waitFor({ state: 'attached' });
    const { pageWidth, viewport } = await desk.evaluate(() => ({ pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    assert.ok(pageWidth <= viewport, `the page is ${pageWidth} px wide in a ${viewport} px window`);
    const rowBox = (await row.boundingBox())!;
    for (const part of [row.locator('time'), row.locator('.conv-unread')]) {
      const box = (await part.boundingBox())!;
      assert.ok(box.x + box.width <= rowBox.x + rowBox.width, `“${await part.textContent()}” ends at ${box.x + box.width} px, past the row’s ${rowBox.x + rowBox.width} px`);
    }
    assert.deepEqual(guest.problems.messages, [], 'guest');
    assert.deepEqual(staff.problems.messages, [], 'front desk');
    await Promise.all([guest.context.close(), staff.context.close()]);
  });

  it('another guest cannot open that conversation: the API answers 404', { timeout: 60_000 }, async () => {
    assert.ok(conversationId, 'the previous test started a conversation');
    const other = await newContext(PHONE, [{ path: `/api/conversations/${conversationId}`, status: 404 }]);
    const { page } = other;
    // Their own request, so their device holds a guest token of its own.
    await page.goto('/help?table=9');
    const form = page.getByRole('form', { name: 'Ask the front desk' });
    await form.getByLabel('Your name').fill('Oscar Other');
    await form.getByLabel('How can we help?').fill('Where are the toilets?');
    await form.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('region', { name: 'We have your request' }).waitFor();
    assert.equal(await page.getByText(GUEST).count(), 0);

    const theirs = await page.goto(`/api/conversations/${conversationId}`);
    assert.equal(theirs?.status(), 404, 'another guest read the conversation');
    assert.equal((await page.request.get(`/api/conversations/${conversationId}/stream`, { timeout: 10_000 })).status(), 404, 'another guest opened its stream');
    assert.equal(
      (await page.request.post(`/api/conversations/${conversationId}/messages`, { data: { body: 'Let me in' } })).status(),
      404,
      'another guest wrote in it',
    );

    assert.deepEqual(other.problems.messages, [], 'other guest');
    await other.context.close();
  });
});
