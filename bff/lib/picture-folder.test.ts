import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from './logger';
import { pictureFolder, USE_RECORDED_EVERY_MS } from './picture-folder';

/** The pruning of a picture folder on files written as the picture proxy writes them, with their times set by hand. */

const KB = 1024;
const HOUR = 3_600_000;
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-picture-folder-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const keyOf = (n: number) => n.toString(16).padStart(64, '0');
/** A stored picture (bytes and description) of `kb` kB, last used `hoursAgo` hours ago. */
function picture(n: number, kb: number, hoursAgo: number) {
  const file = path.join(dir, keyOf(n));
  fs.writeFileSync(file, Buffer.alloc(kb * KB));
  fs.writeFileSync(`${file}.json`, '{"type":"image/png","size":0}');
  setAge(`${file}`, hoursAgo);
  setAge(`${file}.json`, hoursAgo);
  return file;
}
function setAge(file: string, hoursAgo: number) {
  const when = new Date(Date.now() - hoursAgo * HOUR);
  fs.utimesSync(file, when, when);
}
const present = () => fs.readdirSync(dir).sort();
const folderOf = (maxKb: number) => pictureFolder({ directory: dir, maxBytes: maxKb * KB, logger: createLogger('silent'), name: 'test pictures' });

it('removes the least recently used pictures, bytes and description, until the folder is under 90 % of its limit', async () => {
  picture(1, 100, 5);
  picture(2, 100, 1); // used recently, though stored long ago
  picture(3, 100, 4);
  picture(4, 100, 3);
  picture(5, 100, 2);
  // 500 kB in a folder of 400: down to 360 kB or less takes the two used longest ago.
  const result = await folderOf(400).prune();
  expect(present()).toEqual([2, 4, 5].flatMap((n) => [keyOf(n), `${keyOf(n)}.json`]));
  expect(result).toEqual({ removed: 2, freedBytes: expect.any(Number), totalBytes: expect.any(Number) });
  expect(result.totalBytes).toBeLessThanOrEqual(360 * KB);
});

it('leaves a folder under its limit, and files that are not pictures, alone', async () => {
  picture(1, 100, 10);
  fs.writeFileSync(path.join(dir, 'README.txt'), 'x'.repeat(600 * KB));
  expect(await folderOf(400).prune()).toEqual({ removed: 0, freedBytes: 0, totalBytes: 100 * KB + 29 });
  expect(present()).toEqual([keyOf(1), `${keyOf(1)}.json`, 'README.txt']);
});

it('removes what a stopped process left half-written, but never a download under way', async () => {
  const leftover = `${keyOf(7)}.0a0b0c.tmp`;
  const underWay = `${keyOf(8)}.0d0e0f.tmp`;
  fs.writeFileSync(path.join(dir, leftover), Buffer.alloc(KB));
  setAge(path.join(dir, leftover), 1);
  fs.writeFileSync(path.join(dir, underWay), Buffer.alloc(300 * KB));
  picture(1, 100, 2);
  // 400 kB in a folder of 300: the download under way is counted but stays; the older picture goes.
  const result = await folderOf(300).prune();
  expect(present()).toEqual([underWay]);
  expect(result.removed).toBe(2);
});

it('counts an empty or missing folder as empty', async () => {
  fs.rmSync(dir, { recursive: true });
  expect(await folderOf(1).prune()).toEqual({ removed: 0, freedBytes: 0, totalBytes: 0 });
});

it('prunes after a store only once the folder may be over its limit, counting what was stored since it was last counted', async () => {
  const folder = folderOf(400);
  picture(1, 200, 3);
  await folder.prune(); // counted: 200 kB
  // A pruning starts by reading the folder, in the call that starts it: a store that starts none reads nothing.
  const readFolder = jest.spyOn(fsPromises, 'readdir');
  try {
    picture(2, 150, 2);
    folder.stored(150 * KB); // 350 kB: under the limit, nothing to do
    expect(readFolder).not.toHaveBeenCalled();
    picture(3, 100, 1);
    folder.stored(100 * KB); // 450 kB: pruned in the background
    expect(readFolder).toHaveBeenCalledTimes(1);
    // A prune asked for while one runs shares it: this waits for the one in the background, and starts none.
    await folder.prune();
    expect(readFolder).toHaveBeenCalledTimes(1);
  } finally {
    readFolder.mockRestore();
  }
  expect(present()).toEqual([2, 3].flatMap((n) => [keyOf(n), `${keyOf(n)}.json`]));
});

it('records a use on the description at most once an hour', async () => {
  const file = picture(1, 1, 2);
  const folder = folderOf(400);
  const mtime = () => fs.statSync(`${file}.json`).mtimeMs;
  await folder.used(`${file}.json`, mtime());
  expect(Date.now() - mtime()).toBeLessThan(60_000);

  setAge(`${file}.json`, (USE_RECORDED_EVERY_MS - 60_000) / HOUR);
  const recent = mtime();
  await folder.used(`${file}.json`, recent);
  expect(mtime()).toBe(recent);
});

it('prunes as a job: once at start, then every hour', async () => {
  picture(1, 300, 2);
  picture(2, 300, 1);
  const { job } = folderOf(400);
  expect(job.name).toBe('test pictures pruning');
  job.start();
  await job.stop();
  expect(present()).toEqual([keyOf(2), `${keyOf(2)}.json`]);
});
