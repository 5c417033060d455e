import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import request from 'supertest';
import type { PartDetail, PieceDetail, PieceSummary } from '../../contracts/catalogue.contract';
import type { Page } from '../../contracts/common.contract';
import { createLogger } from '../../lib/logger';
import { PICTURE_PLACEHOLDER } from '../../lib/picture-proxy';
import { FAKE_JPEG, FAKE_PNG } from '../../test-support/sample-upstreams';
import { startRebrickableMedia, type RebrickableMedia } from '../../test-support/rebrickable-media';
import { createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';
import { seedCatalogueIfEmpty } from './catalogue.seed';

/**
 * The catalogue's pictures through the BFF (decision 0068), on the shipped catalogue with a few
 * pictures added: the answers name our own address for each, and `GET /api/rest/pictures` fetches it
 * from Rebrickable's sets and parts folders only (here a local fake of its CDN, CATALOGUE_MEDIA_URL),
 * keeps it on disk and prunes the folder to CATALOGUE_IMAGE_DIR_MAX_MB.
 */

const REBRICKABLE_SET = 'https://cdn.rebrickable.com/media/sets/harbourpack-1.jpg';
const REBRICKABLE_PART = 'https://cdn.rebrickable.com/media/parts/elements/300121.jpg';

let media: RebrickableMedia;
let ctx: TestContext;
beforeAll(async () => {
  media = await startRebrickableMedia();
  ctx = await createTestContext(media.env);
  await seedCatalogueIfEmpty(ctx.database);
  const { db } = ctx.database;
  await db.updateTable('pieces').set({ image_url: REBRICKABLE_SET }).where('number', '=', 'harbourpack-1').execute();
  await db.updateTable('pieces').set({ image_url: media.setPicture('10139-1') }).where('number', '=', '10139-1').execute();
  // Not one of Rebrickable's picture folders: never passed to the browser.
  await db.updateTable('pieces').set({ image_url: 'https://cdn.rebrickable.com/static/img/logo.png' }).where('number', '=', '10138-1').execute();
  await db.updateTable('parts').set({ image_url: REBRICKABLE_PART }).where('number', '=', '3001pr0001').execute();
});
afterEach(() => {
  media.broken = false;
  media.requests.length = 0;
});
afterAll(async () => {
  await ctx?.close();
  await media?.close();
});

const ours = (address: string) => `/api/rest/pictures?src=${encodeURIComponent(address)}`;
const get = (context: TestContext, url: string) => request(context.app).get(url);
const fileOf = (context: TestContext, address: string) => path.join(context.config.CATALOGUE_IMAGE_DIR, crypto.createHash('sha256').update(address).digest('hex'));
const problemOf = async (context: TestContext, url: string, status: number) => {
  const res = await get(context, url);
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status, type: expect.stringMatching(/^application\/problem\+json/) });
  return res.body as { detail: string; errors?: Array<{ path: string; message: string }> };
};
/** A picture that cannot be had now is the placeholder (200, kept a minute), never a 502: the reason, as its header says it. */
const placeholderOf = async (context: TestContext, url: string): Promise<string> => {
  const res = await get(context, url);
  expect({ status: res.status, type: res.headers['content-type'], cache: res.headers['cache-control'] }).toEqual({ status: 200, type: 'image/svg+xml', cache: 'public, max-age=60' });
  expect(Buffer.compare(res.body as Buffer, PICTURE_PLACEHOLDER)).toBe(0);
  return String(res.headers['x-picture-unavailable']);
};

describe('the answers', () => {
  it("give our address for a piece's and a part's picture wherever they appear, and null for one off the allowlist", async () => {
    const list = (await get(ctx, '/api/rest/pieces?query=1013').expect(200)).body as Page<PieceSummary>;
    expect(Object.fromEntries(list.items.map((p) => [p.number, p.imageUrl]))).toEqual({ '10138-1': null, '10139-1': ours(media.setPicture('10139-1')) });

    const piece = (await get(ctx, '/api/rest/pieces/harbourpack-1').expect(200)).body as PieceDetail;
    expect(piece.imageUrl).toBe(ours(REBRICKABLE_SET));
    const printed = piece.groups.flatMap((g) => g.lines).find((l) => l.part.number === '3001pr0001')!;
    expect(printed.part.imageUrl).toBe(ours(REBRICKABLE_PART));

    const part = (await get(ctx, '/api/rest/parts/3001pr0001?pageSize=100').expect(200)).body as PartDetail;
    expect(part.imageUrl).toBe(ours(REBRICKABLE_PART));
    expect(part.usedIn.items.find((u) => u.piece.number === 'harbourpack-1')!.piece.imageUrl).toBe(ours(REBRICKABLE_SET));
    // Nothing of Rebrickable's own addresses reaches the browser.
    expect(JSON.stringify([list, piece, part])).not.toMatch(/"https?:\/\//);
  });
});

describe('GET /api/rest/pictures', () => {
  it('passes an allowed picture through with its type, nosniff and a month of caching, keeps it on disk and serves it from there', async () => {
    const src = media.setPicture('10139-1');
    const first = await get(ctx, ours(src)).expect(200);
    expect(first.headers).toMatchObject({ 'content-type': 'image/jpeg', 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=2592000, immutable' });
    expect(Buffer.compare(first.body as Buffer, FAKE_JPEG)).toBe(0);
    expect(fs.readFileSync(fileOf(ctx, src)).equals(FAKE_JPEG)).toBe(true);
    expect(media.requests).toEqual(['/media/sets/10139-1.jpg']);

    // Rebrickable down: the kept copy is served, and the CDN is not asked again.
    media.broken = true;
    const again = await get(ctx, ours(src)).expect(200);
    expect(Buffer.compare(again.body as Buffer, FAKE_JPEG)).toBe(0);
    expect(media.requests).toEqual(['/media/sets/10139-1.jpg']);
  });

  it('serves a part picture from the parts folder as a PNG', async () => {
    const res = await get(ctx, ours(`${media.mediaUrl}/parts/ldraw/4/3001.png`)).expect(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(res.body as Buffer, FAKE_PNG)).toBe(0);
  });

  it.each([
    ['another host', 'https://pictures.example.com/media/sets/10270-1.jpg'],
    ["another folder of Rebrickable's CDN", 'https://cdn.rebrickable.com/static/img/logo.png'],
    ["another folder of Rebrickable's media", 'https://cdn.rebrickable.com/media/users/someone/avatar.jpg'],
    ['a climb out of the sets folder', `${'MEDIA'}/sets/%2e%2e/%2e%2e/secret.jpg`],
    ['a query', 'https://cdn.rebrickable.com/media/sets/10270-1.jpg?size=big'],
    ["a sample page's picture", 'https://rickandmortyapi.com/api/character/avatar/1.jpeg'],
    ['plain http on Rebrickable', 'http://cdn.rebrickable.com/media/sets/10270-1.jpg'],
  ])('refuses %s as a 400 naming query.src, asking no one', async (_what, src) => {
    const body = await problemOf(ctx, ours(src.replace('MEDIA', media.mediaUrl)), 400);
    expect(body.errors?.map((e) => e.path)).toEqual(['query.src']);
    expect(body.detail).toBe('Pictures come only from Rebrickable’s pictures of sets and parts.');
    expect(media.requests).toEqual([]);
  });

  it('answers 404 for a picture the CDN does not have and the placeholder (not a 502) when the CDN cannot be reached, keeping nothing', async () => {
    await problemOf(ctx, ours(media.setPicture('missing-1')), 404);
    media.broken = true;
    const unreachable = media.setPicture('10270-1');
    expect(await placeholderOf(ctx, ours(unreachable))).toMatch(/could not be reached/);
    expect([media.setPicture('missing-1'), unreachable].map((src) => fs.existsSync(fileOf(ctx, src)) || fs.existsSync(`${fileOf(ctx, src)}.json`))).toEqual([false, false]);
  });

  it('answers a picture it could not have from memory for a while, without asking the CDN again (a page of an offline catalogue does not wait on each)', async () => {
    media.broken = true;
    const away = media.setPicture('6054-1');
    await placeholderOf(ctx, ours(away));
    const asked = media.requests.length;
    expect(asked).toBeGreaterThan(0);
    expect(await placeholderOf(ctx, ours(away))).toMatch(/could not be reached/);
    media.broken = false;
    await placeholderOf(ctx, ours(away));
    expect(media.requests).toHaveLength(asked);
  });

  it('is in the OpenAPI document', async () => {
    const { paths } = (await get(ctx, '/api/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(paths)).toContain('/api/rest/pictures');
  });
});

describe('the picture folder', () => {
  /**
   * A logger for the app that hears the folder's line of a pruning that removed pictures: `pruned`
   * resolves with it. The line is written once the pruning has removed what it removes.
   */
  function hearingPrunes() {
    let heard!: (line: { removed: number }) => void;
    const pruned = new Promise<{ removed: number }>((resolve) => (heard = resolve));
    const lines = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const line = JSON.parse(chunk.toString()) as { msg: string; removed: number };
        if (line.msg === 'catalogue pictures: pruned the least recently used') heard(line);
        done();
      },
    });
    return { logger: createLogger('info', lines), pruned };
  }
  const kept = (context: TestContext, names: string[]) => names.filter((name) => fs.existsSync(`${fileOf(context, media.setPicture(name))}.json`));
  /** Makes a stored picture look last used `hoursAgo` hours ago. */
  const lastUsed = (context: TestContext, name: string, hoursAgo: number) => {
    const when = new Date(Date.now() - hoursAgo * 3_600_000);
    for (const file of [fileOf(context, media.setPicture(name)), `${fileOf(context, media.setPicture(name))}.json`]) fs.utimesSync(file, when, when);
  };

  it('is pruned to CATALOGUE_IMAGE_DIR_MAX_MB after a picture is stored, the least recently used first', async () => {
    const { logger, pruned } = hearingPrunes();
    await withTestContext({ env: { ...media.env, CATALOGUE_IMAGE_DIR_MAX_MB: '1' }, overrides: { logger } }, async (small) => {
      // Three pictures of 300 kB: 0.9 MB, under the limit of 1 MB.
      const names = ['a-300kb', 'b-300kb', 'c-300kb'];
      for (const name of names) await get(small, ours(media.setPicture(name))).expect(200);
      lastUsed(small, 'a-300kb', 72);
      lastUsed(small, 'b-300kb', 48);
      lastUsed(small, 'c-300kb', 24);
      // `a` is looked at again: now it is the most recently used of the three, and `b` the least.
      await get(small, ours(media.setPicture('a-300kb'))).expect(200);
      expect(kept(small, names)).toEqual(names);

      // A fourth takes the folder over 1 MB: it is brought back under 90 % of it by removing `b` only.
      await get(small, ours(media.setPicture('d-300kb'))).expect(200);
      // Pruned in the background: its description goes first, then the picture, and then it says so.
      expect(await pruned).toMatchObject({ removed: 1 });
      expect([kept(small, ['b-300kb']), fs.existsSync(fileOf(small, media.setPicture('b-300kb')))]).toEqual([[], false]);
      expect(kept(small, [...names, 'd-300kb'])).toEqual(['a-300kb', 'c-300kb', 'd-300kb']);

      // A pruned picture is fetched again when it is asked for; a kept one is not.
      media.requests.length = 0;
      await get(small, ours(media.setPicture('c-300kb'))).expect(200);
      await get(small, ours(media.setPicture('b-300kb'))).expect(200);
      expect(media.requests).toEqual(['/media/sets/b-300kb.jpg']);
    });
  });

  it('is pruned by the hourly job too, which also runs at start: a folder another instance filled, or a limit lowered since', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-catalogue-pictures-'));
    // Two instances sharing one folder: the first with room to spare, the second with 1 MB.
    try {
      await withTestContext({ env: { ...media.env, CATALOGUE_IMAGE_DIR: folder } }, (roomy) =>
        withTestContext({ env: { ...media.env, CATALOGUE_IMAGE_DIR: folder, CATALOGUE_IMAGE_DIR_MAX_MB: '1' } }, async (tight) => {
          const names = ['e-400kb', 'f-400kb', 'g-400kb'];
          for (const name of names) await get(roomy, ours(media.setPicture(name))).expect(200);
          names.forEach((name, i) => lastUsed(roomy, name, 3 - i));
          expect(kept(tight, names)).toEqual(names); // 1.2 MB: nothing the second stored told it so

          const job = tight.jobs.find((j) => j.name === 'catalogue pictures pruning')!;
          job.start();
          await job.stop();
          expect(kept(tight, names)).toEqual(['f-400kb', 'g-400kb']);
        }),
      );
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
