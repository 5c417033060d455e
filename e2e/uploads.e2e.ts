import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import type { Download, FileChooser, JSHandle, Locator, Page, Route } from 'playwright-core';
import { shotsOf, signIn, startApp, watchProblems } from './harness';
import type { Account, E2eApp, ExpectedFailure } from './harness';

/**
 * Uploads end to end (tus 1.0 between tus-js-client in the page and @tus/server in the BFF):
 * one file on /shell/upload/1 to 100 % and its download; three files dropped on /shell/upload/2,
 * one of them cancelled half-way, the other two stored, listed and downloaded byte for byte; files
 * over the per-file limit or of a refused kind turned away in the browser before any request; and
 * a large upload whose connection the server side drops mid-PATCH (a TCP proxy in front of the app
 * cuts it) continuing from the server's offset to the right SHA-256.
 * The app runs with UPLOAD_MAX_FILE_MB=32, so "too big" needs only a 33 MB file; the server asks for
 * 8 MB PATCHes. With SHOTS_DIR set, the pages are saved there at the moments that matter.
 */
let app: E2eApp;
let files: string;

const MB = 1024 * 1024;
const MAX_FILE_MB = 32;
/** The PATCH size the server asks for (UploadLimits.chunkBytes). */
const CHUNK = 8 * MB;

const UNA: Account = { email: 'una.upload@frontdesk.test', password: 'una-password-e2e', name: 'Una Upload', role: 'staff' };
const MAX: Account = { email: 'max.many@frontdesk.test', password: 'max-password-e2e', name: 'Max Many', role: 'staff' };
const LIN: Account = { email: 'lin.limits@frontdesk.test', password: 'lin-password-e2e', name: 'Lin Limits', role: 'staff' };
const REX: Account = { email: 'rex.resume@frontdesk.test', password: 'rex-password-e2e', name: 'Rex Resume', role: 'staff' };

before(async () => {
  app = await startApp({ env: { UPLOAD_MAX_FILE_MB: String(MAX_FILE_MB) } });
  for (const account of [UNA, MAX, LIN, REX]) await app.addAccount(account);
  files = mkdtempSync(join(tmpdir(), 'frontdesk-e2e-files-'));
});
after(async () => {
  await app?.close();
  if (files) rmSync(files, { recursive: true, force: true });
});

const DESKTOP = { width: 1280, height: 800 };
/** How long anything a user waits for may take (a 30 MB upload to localhost takes well under a second or two). */
const WAIT_MS = 20_000;

/** Someone signed in through the login form (on `baseURL`, the app's by default), landing on `path`. */
async function signedIn(account: Account, path: string, { baseURL = app.url, expected = [] as ExpectedFailure[] } = {}) {
  const context = await app.browser.newContext({ baseURL, viewport: DESKTOP });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  const problems = watchProblems(page, expected);
  await page.goto(`/login?redirect=${encodeURIComponent(path)}`);
  await signIn(page, account.email, account.password);
  await page.waitForURL((url) => url.pathname === path);
  return { page, context, problems };
}

const screenshot = shotsOf('uploads', { fullPage: true, animations: 'disabled' });

/** Waits until `check` holds, failing with `what` after the usual wait. */
async function until(check: () => Promise<boolean>, what: string, timeout = WAIT_MS) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeout) assert.fail(`waited ${timeout} ms for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// ---- files ------------------------------------------------------------------------------------

const PDF_HEAD = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A file of `size` bytes that starts as its type does (the server sniffs the first bytes), random after that. */
const fileBytes = (head: Buffer, size: number) => Buffer.concat([head, randomBytes(size - head.length)]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Chooses files through the "Choose …" button and the browser's file picker, as a person does. */
async function chooseFiles(page: Page, button: string, chosen: Parameters<FileChooser['setFiles']>[0]) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: button, exact: true }).click()]);
  await chooser.setFiles(chosen);
}

/** Clicks a download link and gives back what the browser saved. */
async function download(page: Page, link: Locator): Promise<{ download: Download; bytes: Buffer }> {
  const [saved] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = await saved.path();
  return { download: saved, bytes: readFileSync(path) };
}

/** A file's progress bar (in the queue's row, or the single upload's card), and its percent. */
const progressOf = (scope: Page | Locator, name: string) => scope.getByRole('progressbar', { name: `Upload of ${name}` });
const percentOf = async (bar: Locator) => Number(await bar.getAttribute('aria-valuenow'));

/** Every tus request the page makes, in order (method, path, Upload-Offset). */
function recordTus(page: Page) {
  const requests: { method: string; path: string; offset: number | null }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/uploads/tus')) return;
    const offset = request.headers()['upload-offset'];
    requests.push({ method: request.method(), path: url.pathname, offset: offset === undefined ? null : Number(offset) });
  });
  return requests;
}

/** The stored files this account can see, from the API the page uses (its session cookie). */
async function storedFiles(page: Page) {
  const response = await page.request.get('/api/uploads?page=0&pageSize=100');
  assert.equal(response.status(), 200);
  return ((await response.json()) as { items: { id: number; name: string; size: number; sha256: string; uploadedBy: { name: string } }[] }).items;
}

async function usedBytes(page: Page): Promise<number> {
  const response = await page.request.get('/api/uploads/limits');
  assert.equal(response.status(), 200);
  return ((await response.json()) as { usedBytes: number }).usedBytes;
}

// ---- one file -----------------------------------------------------------------------------------

describe('one file on /shell/upload/1', () => {
  it('goes to 100 %, shows the stored file, and its download link gives the same bytes back', { timeout: 60_000 }, async () => {
    const { page, context, problems } = await signedIn(UNA, '/shell/upload/1');
    await page.getByRole('heading', { name: 'Upload a file', level: 1 }).waitFor();
    const zone = page.getByRole('region', { name: 'Drag a file here' });
    await zone.getByText('One file, up to 32 MB.').waitFor();

    const bytes = fileBytes(PDF_HEAD, 300 * 1024 + 17);
    await chooseFiles(page, 'Choose a file', { name: 'Opening hours.pdf', mimeType: 'application/pdf', buffer: bytes });

    const card = page.getByRole('region', { name: 'Uploaded' });
    await card.waitFor();
    // The chooser gives way to the file while it is under way, and comes back when it is over.
    await zone.waitFor();
    const bar = progressOf(card, 'Opening hours.pdf');
    assert.equal(await percentOf(bar), 100);
    assert.match((await bar.getAttribute('aria-valuetext')) ?? '', /^100%, 300 KB of 300 KB$/);
    await card.getByText('300 KB of 300 KB · 100%').waitFor();
    await card.getByText('Done', { exact: true }).waitFor();
    await card.getByText('Stored as Opening hours.pdf (300 KB).').waitFor();
    await page.getByRole('status').filter({ hasText: 'Opening hours.pdf is uploaded.' }).waitFor({ state: 'attached' });
    await screenshot(page, 'one-done');

    const link = card.getByRole('link', { name: 'Download Opening hours.pdf' });
    assert.match((await link.getAttribute('href')) ?? '', /^\/api\/uploads\/\d+\/download$/);
    const saved = await download(page, link);
    assert.equal(saved.download.suggestedFilename(), 'Opening hours.pdf');
    assert.ok(saved.bytes.equals(bytes), 'the downloaded file differs from the one uploaded');

    const [stored] = (await storedFiles(page)).filter((f) => f.name === 'Opening hours.pdf');
    assert.ok(stored, 'the file is not in the stored list');
    assert.equal(stored.sha256, sha256(bytes));
    assert.equal(stored.uploadedBy.name, UNA.name);
    assert.deepEqual(problems.messages, []);
    await context.close();
  });
});

// ---- several files -----------------------------------------------------------------------------

type DroppedFile = { name: string; type: string } & ({ base64: string } | { size: number; head: string });

/** A DataTransfer holding File objects made in the page (as the OS gives a drop): small ones from bytes sent over, big ones made there. */
function dataTransfer(page: Page, dropped: DroppedFile[]): Promise<JSHandle<DataTransfer>> {
  return page.evaluateHandle((specs) => {
    const transfer = new DataTransfer();
    for (const spec of specs) {
      let bytes: Uint8Array<ArrayBuffer>;
      if ('base64' in spec) {
        bytes = Uint8Array.from(atob(spec.base64), (c) => c.charCodeAt(0));
      } else {
        bytes = new Uint8Array(spec.size);
        for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) & 0xff;
        bytes.set(Uint8Array.from(atob(spec.head), (c) => c.charCodeAt(0)));
      }
      transfer.items.add(new File([bytes], spec.name, { type: spec.type }));
    }
    return transfer;
  }, dropped);
}

describe('several files on /shell/upload/2', () => {
  it('takes three dropped files; one cancelled half-way is forgotten, the other two are stored, listed and download intact', { timeout: 60_000 }, async () => {
    const { page, context, problems } = await signedIn(MAX, '/shell/upload/2');
    await page.getByRole('heading', { name: 'Upload files', level: 1 }).waitFor();
    const storedTable = page.getByRole('table', { name: 'Stored files, newest first' });
    const usedBefore = await usedBytes(page);

    // The big file's second PATCH (from 8 MB on) is held, so it stays under way until it is cancelled.
    let held: Route | undefined;
    await page.route('**/api/uploads/tus/*', async (route) => {
      const request = route.request();
      if (request.method() === 'PATCH' && Number(request.headers()['upload-offset']) >= CHUNK) {
        held = route;
        return;
      }
      await route.continue();
    });
    const tus = recordTus(page);

    const plan = fileBytes(PDF_HEAD, Math.round(1.5 * MB));
    const logo = fileBytes(PNG_HEAD, 200 * 1024 + 3);
    const BIG = 'Venue walkthrough.pdf';
    const transfer = await dataTransfer(page, [
      { name: 'Floor plan.pdf', type: 'application/pdf', base64: plan.toString('base64') },
      { name: BIG, type: 'application/pdf', size: 20 * MB, head: PDF_HEAD.toString('base64') },
      { name: 'Logo.png', type: 'image/png', base64: logo.toString('base64') },
    ]);

    // A real drop: files dragged in light the zone up, and letting go adds them.
    const zone = page.getByRole('region', { name: 'Drag files here' });
    await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
    await zone.getByText('Let go to add them.').waitFor();
    await zone.dispatchEvent('dragover', { dataTransfer: transfer });
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    await zone.getByText('Let go to add them.').waitFor({ state: 'detached' });

    const chosen = page.getByRole('list', { name: 'Files chosen' });
    const item = (name: string) => chosen.getByRole('listitem').filter({ hasText: name });
    assert.equal(await chosen.getByRole('listitem').count(), 3);

    // The big one sends its first 8 MB (40 %) and is still uploading: cancel it there.
    const bigBar = progressOf(item(BIG), BIG);
    await until(async () => held !== undefined && (await bigBar.count()) > 0 && (await percentOf(bigBar)) >= 40, `${BIG} to be under way past its first 8 MB`);
    await item(BIG).getByText('Uploading', { exact: true }).waitFor();
    // The other two are stored by then; "Your space" counts them and the big one's 20 MB (held from its creation on).
    for (const name of ['Floor plan.pdf', 'Logo.png']) await item(name).getByText('Done', { exact: true }).waitFor();
    const space = page.getByRole('region', { name: 'What you can upload' });
    await space.getByText('21.7 MB of 2 GB used', { exact: true }).waitFor();
    await screenshot(page, 'many-under-way');
    const terminated = page.waitForResponse((response) => response.request().method() === 'DELETE' && new URL(response.url()).pathname.startsWith('/api/uploads/tus/'));
    await item(BIG).getByRole('button', { name: `Cancel ${BIG}` }).click();
    await item(BIG).getByText('Cancelled', { exact: true }).waitFor();
    assert.equal((await terminated).status(), 204, 'the server was not told to forget the cancelled upload');
    await held!.abort().catch(() => undefined);
    // Once the server has forgotten it, "Your space" is read again: its 20 MB are free (exact: "21.7 MB …" holds "1.7 MB …").
    await space.getByText('1.7 MB of 2 GB used', { exact: true }).waitFor();
    // Its row now only offers to leave the list.
    await item(BIG).getByRole('button', { name: `Remove ${BIG} from the list` }).waitFor();
    assert.equal(await item(BIG).getByRole('button', { name: `Cancel ${BIG}` }).count(), 0);

    for (const name of ['Floor plan.pdf', 'Logo.png']) await item(name).getByText('Done', { exact: true }).waitFor();
    await page.getByText(/^3 files: 2 done, 1 cancelled · /).waitFor();

    // The two are listed under Stored files; the cancelled one is not, and its 20 MB are free again.
    for (const name of ['Floor plan.pdf', 'Logo.png']) await storedTable.getByRole('row').filter({ hasText: name }).waitFor();
    assert.equal(await storedTable.getByRole('row').filter({ hasText: BIG }).count(), 0);
    const stored = await storedFiles(page);
    assert.deepEqual(stored.filter((f) => [BIG, 'Floor plan.pdf', 'Logo.png'].includes(f.name)).map((f) => f.name).sort(), ['Floor plan.pdf', 'Logo.png']);
    assert.equal(await usedBytes(page), usedBefore + plan.length + logo.length);
    // Nothing of the cancelled file was sent after the cancel, apart from the termination.
    const bigUrl = tus.find((r) => r.method === 'DELETE')!.path;
    assert.deepEqual(
      tus.filter((r) => r.path === bigUrl).map((r) => `${r.method} ${r.offset ?? ''}`.trim()),
      ['PATCH 0', `PATCH ${CHUNK}`, 'DELETE'],
    );
    await screenshot(page, 'many-done');

    // Downloaded from the list, the logo comes back byte for byte.
    const saved = await download(page, storedTable.getByRole('link', { name: 'Download Logo.png' }));
    assert.equal(saved.download.suggestedFilename(), 'Logo.png');
    assert.ok(saved.bytes.equals(logo), 'the downloaded logo differs from the one uploaded');

    assert.deepEqual(problems.messages, []);
    await context.close();
  });
});

// ---- limits ------------------------------------------------------------------------------------

describe('limits checked in the browser', () => {
  it('refuses a file over the size limit, and one of a kind not accepted, with the reason, before sending anything', { timeout: 60_000 }, async () => {
    const { page, context, problems } = await signedIn(LIN, '/shell/upload/2');
    await page.getByRole('heading', { name: 'Upload files', level: 1 }).waitFor();
    await page.getByText(`Up to 20 files and 1,000 MB at once, ${MAX_FILE_MB} MB per file.`).waitFor();
    const tus = recordTus(page);

    // From disk (33 MB is too much to hand the browser as a buffer).
    const tooBig = join(files, 'Menu photos.pdf');
    writeFileSync(tooBig, fileBytes(PDF_HEAD, (MAX_FILE_MB + 1) * MB));
    const program = join(files, 'setup.exe');
    writeFileSync(program, Buffer.from('MZ\x90\x00rest of a program', 'latin1'));
    await chooseFiles(page, 'Choose files', [tooBig, program]);

    const chosen = page.getByRole('list', { name: 'Files chosen' });
    const item = (name: string) => chosen.getByRole('listitem').filter({ hasText: name });
    await item('Menu photos.pdf').getByText(`This file is ${MAX_FILE_MB + 1} MB; the limit is ${MAX_FILE_MB} MB per file.`).waitFor();
    await item('setup.exe').getByText(/\.exe files are not accepted\. Accepted: PNG, JPG, JPEG, GIF, WEBP, PDF, /).waitFor();
    for (const name of ['Menu photos.pdf', 'setup.exe']) {
      await item(name).getByText('Refused', { exact: true }).waitFor();
      // Nothing to cancel or retry: only taking it off the list.
      await item(name).getByRole('button', { name: `Remove ${name} from the list` }).waitFor();
      assert.equal(await item(name).getByRole('progressbar').count(), 0);
    }
    await page.getByText('2 files: 2 refused').waitFor();
    await page.getByRole('status').filter({ hasText: `Menu photos.pdf was refused: This file is ${MAX_FILE_MB + 1} MB;` }).filter({ hasText: 'setup.exe was refused: .exe files' }).waitFor({ state: 'attached' });
    await screenshot(page, 'refused');

    // Give a stray request time to show, then: not one tus request, and nothing counted against the space.
    await page.waitForTimeout(500);
    assert.deepEqual(tus, []);
    assert.equal(await usedBytes(page), 0);
    assert.deepEqual(problems.messages, []);
    await context.close();
  });
});

// ---- a dropped connection -----------------------------------------------------------------------

/**
 * A TCP proxy in front of the app that lets everything through, except that once `cutAfter` bytes
 * have gone from the browser to the server on connections carrying a tus PATCH, it closes both
 * sides of the connection then carrying them (once): the server's end of a dropped line.
 */
async function cuttingProxy(target: string, cutAfter: number) {
  const { hostname, port } = new URL(target);
  const state = { patchBytes: 0, cut: false };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    let patching = false;
    const cutter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (!patching && chunk.includes('PATCH /api/uploads/tus/')) patching = true;
        if (patching && !state.cut) {
          state.patchBytes += chunk.length;
          if (state.patchBytes > cutAfter) {
            state.cut = true;
            client.destroy();
            upstream.destroy();
            return callback();
          }
        }
        callback(null, chunk);
      },
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(cutter).pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    state,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * How the cut PATCH fails in the page's console. Chromium resends a request whose reused keep-alive
 * connection was reset before any answer, itself and unseen by the page: the resent PATCH then
 * finds the server already holding the bytes that did arrive and gets 409 (offset mismatch), which
 * tus-js-client answers with a HEAD. On a fresh connection the XHR fails (connection reset) instead.
 */
const CUT_PATCH = /^console\.error: Failed to load resource: (net::ERR_CONNECTION_RESET|net::ERR_EMPTY_RESPONSE|net::ERR_CONNECTION_CLOSED|the server responded with a status of 409 \(Conflict\)) \(http:\/\/127\.0\.0\.1:\d+\/api\/uploads\/tus\/\w+\)$/;

const partition = <T>(items: T[], test: (item: T) => boolean): [T[], T[]] => [items.filter(test), items.filter((item) => !test(item))];

describe('a dropped connection', () => {
  it('a large upload cut off mid-PATCH by the server side continues from the server’s offset and is stored with the right SHA-256', { timeout: 90_000 }, async () => {
    // Cut 12 MB into the PATCHes: the first 8 MB have been acknowledged, the second PATCH is half sent.
    const proxy = await cuttingProxy(app.url, 12 * MB);
    try {
      const { page, context, problems } = await signedIn(REX, '/shell/upload/1', { baseURL: proxy.url });
      await page.getByRole('heading', { name: 'Upload a file', level: 1 }).waitFor();
      const tus = recordTus(page);

      const name = 'Season recording.pdf';
      const bytes = fileBytes(PDF_HEAD, 30 * MB + 12_345);
      const path = join(files, name);
      writeFileSync(path, bytes);
      await chooseFiles(page, 'Choose a file', path);

      const card = page.getByRole('region', { name: 'Uploaded' });
      await card.waitFor({ timeout: 60_000 });
      assert.ok(proxy.state.cut, 'the proxy never cut the connection: the test proved nothing');
      await card.getByText('30 MB of 30 MB · 100%').waitFor();
      await card.getByText(`Stored as ${name} (30 MB).`).waitFor();
      await screenshot(page, 'resumed-done');

      // tus asked the server where it stood (HEAD) and went on from there, not from 0.
      const summary = tus.map((r) => `${r.method} ${r.offset ?? ''}`.trim());
      const head = tus.findIndex((r) => r.method === 'HEAD');
      assert.ok(head > 0, `no HEAD after the cut: ${summary.join(', ')}`);
      const resumed = tus.slice(head + 1).find((r) => r.method === 'PATCH');
      assert.ok(resumed && resumed.offset !== null && resumed.offset >= CHUNK, `the upload did not continue from the server's offset: ${summary.join(', ')}`);
      assert.equal(tus.filter((r) => r.method === 'PATCH' && r.offset === 0).length, 1, `the upload started over: ${summary.join(', ')}`);
      assert.equal(tus.filter((r) => r.method === 'POST').length, 1, `the upload was created again: ${summary.join(', ')}`);

      const expected = sha256(bytes);
      const [stored] = (await storedFiles(page)).filter((f) => f.name === name);
      assert.ok(stored, 'the file is not in the stored list');
      assert.equal(stored.size, bytes.length);
      assert.equal(stored.sha256, expected);
      const saved = await download(page, card.getByRole('link', { name: `Download ${name}` }));
      assert.equal(sha256(saved.bytes), expected, 'the downloaded file’s SHA-256 differs from the uploaded one');

      // The cut itself shows once in the console, as one of the two ways Chromium reports it; nothing else does.
      const [fromCut, other] = partition(problems.messages, (m) => CUT_PATCH.test(m));
      assert.ok(fromCut.length <= 1, `more failed requests than the one cut: ${fromCut.join('\n')}`);
      assert.deepEqual(other, []);
      await context.close();
    } finally {
      await proxy.close();
    }
  });
});
