import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/server';
import { SniffingFileStore } from './sniffing-file-store';

/**
 * The store's running SHA-256: known at the end only when every byte of the upload went through
 * this store's hash in order; otherwise it says it does not know, so the caller reads the file.
 */

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), crypto.randomBytes(300_000)]);
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-store-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const newStore = () =>
  new SniffingFileStore(
    { directory: dir },
    async () => ({ type: 'application/pdf', name: 'a.pdf', size: PDF.length }),
    async () => undefined,
  );

async function created(store: SniffingFileStore, id: string) {
  await store.create(new Upload({ id, size: PDF.length, offset: 0 }));
}
const part = (from: number, to?: number) => Readable.from([PDF.subarray(from, to)]);

it('knows the SHA-256 of an upload written in order, in one part or several', async () => {
  const store = newStore();
  await created(store, 'whole');
  expect(await store.write(part(0), 'whole', 0)).toBe(PDF.length);
  expect(store.finishedHash('whole', PDF.length)).toBe(sha256(PDF));

  await created(store, 'parts');
  let offset = 0;
  for (const end of [100_000, 200_000, PDF.length]) offset = await store.write(part(offset, end), 'parts', offset);
  expect(store.finishedHash('parts', PDF.length)).toBe(sha256(PDF));
  // Asked once: it is forgotten then.
  expect(store.finishedHash('parts', PDF.length)).toBeUndefined();
});

it('does not know it when part of the upload was written elsewhere (another instance, before a restart)', async () => {
  const before = newStore();
  await created(before, 'moved');
  const half = await before.write(part(0, 150_000), 'moved', 0);
  const after = newStore();
  expect(await after.write(part(half), 'moved', half)).toBe(PDF.length);
  expect(after.finishedHash('moved', PDF.length)).toBeUndefined();
  expect(sha256(fs.readFileSync(path.join(dir, 'moved')))).toBe(sha256(PDF));
});

it('does not know it before the last byte, nor after a part that broke off', async () => {
  const store = newStore();
  await created(store, 'short');
  await store.write(part(0, 200_000), 'short', 0);
  expect(store.finishedHash('short', PDF.length)).toBeUndefined();

  await created(store, 'broken');
  await store.write(part(0, 100_000), 'broken', 0);
  const breaking = new Readable({ read() {} });
  breaking.push(PDF.subarray(100_000, 150_000));
  setImmediate(() => breaking.destroy(new Error('connection lost')));
  await expect(store.write(breaking, 'broken', 100_000)).rejects.toBeDefined();
  const kept = fs.statSync(path.join(dir, 'broken')).size;
  expect(await store.write(part(kept), 'broken', kept)).toBe(PDF.length);
  expect(store.finishedHash('broken', PDF.length)).toBeUndefined();
});
