import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import type { Page } from '../../contracts/common.contract';
import type { Role } from '../../contracts/endpoint.contract';
import type { StoredUpload, UploadLimits } from '../../contracts/uploads.contract';
import { listenOnAnyPort, signInPerson, type Person } from '../../test-support/live-client';
import { createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';

/**
 * Uploads as a person at the front desk meets them: files go up over tus (raw HTTP here, as the
 * browser's tus client speaks it), then are listed, downloaded and deleted through `/api/uploads`.
 * Limits are lowered so that every one of them can be reached with small files.
 */

const MB = 1024 * 1024;
/** A size in whole bytes, `n` megabytes. */
const mb = (n: number) => Math.round(n * MB);
const LIMITS = { UPLOAD_MAX_FILE_MB: '1', UPLOAD_MAX_BATCH_MB: '1', UPLOAD_QUOTA_MB: '2', UPLOAD_MAX_FILES: '2' };
/**
 * Every answer, refusals above all, comes (a refusal must never leave the client hanging): one that
 * has not come within this is a failure that names the request. Generous, as a busy machine is slow;
 * under the everyday tier's 20 s a test.
 */
const ANSWER_WITHIN_MS = 15_000;

let ctx: TestContext;
let server: Awaited<ReturnType<typeof listenOnAnyPort>>;
let admin: Person;
let runner: Person;

let seq = 0;
const signIn = (role: Role = 'staff') => signInPerson(ctx, role, `${role}-${++seq}@uploads.test`);

beforeAll(async () => {
  ctx = await createTestContext(LIMITS);
  server = await listenOnAnyPort(ctx);
  [admin, runner] = [await signIn('admin'), await signIn('runner')];
});
afterAll(async () => {
  await server.close();
  await ctx.close();
});

const partsDir = () => path.join(ctx.config.UPLOADS_DIR, 'parts');
const blobsDir = () => path.join(ctx.config.UPLOADS_DIR, 'blobs');
const entries = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
/** What tus keeps on disk for an upload under way: its bytes and its `.json` record. */
const onDiskFor = (tusId: string) => entries(partsDir()).filter((name) => name.startsWith(tusId));
// Bytes are compared by digest: toEqual on a Buffer of hundreds of KB takes seconds.
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

// ---- Files -------------------------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A file that starts like a PNG (random after that, so every file is new to the store). */
const png = (size: number) => Buffer.concat([PNG_SIGNATURE, crypto.randomBytes(size - PNG_SIGNATURE.length)]);
const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), crypto.randomBytes(size - 9)]);
const text = (content: string) => Buffer.from(content, 'utf8');

// ---- Speaking tus over raw HTTP ----------------------------------------------------------------

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether the whole request body had gone out when the answer came. */
  answeredAfterBody: boolean;
}

/**
 * One HTTP request on a connection of its own; fails the test when no answer comes in time.
 * `body` is sent with its Content-Length unless `chunked`.
 */
function raw(method: string, url: string, headers: Record<string, string>, body?: Buffer, { chunked = false } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // The path exactly as given (a URL would resolve `%2e%2e` segments before sending).
    const { hostname, port } = new URL(server.base);
    const req = http.request({ hostname, port, path: url, method, headers: { ...headers, ...(body && !chunked ? { 'Content-Length': String(body.length) } : {}) }, agent: false });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${url}: no answer within ${ANSWER_WITHIN_MS} ms`));
    }, ANSWER_WITHIN_MS);
    let bodySent = false;
    req.on('finish', () => (bodySent = true));
    req.on('response', (res) => {
      const answeredAfterBody = bodySent;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, answeredAfterBody });
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    if (body && chunked) {
      // Two writes, so the body really goes out in chunks without a length.
      req.write(body.subarray(0, Math.floor(body.length / 2)));
      req.end(body.subarray(Math.floor(body.length / 2)));
    } else req.end(body);
  });
}

const TUS = '/api/uploads/tus';
const tusHeaders = (who: Person | undefined, extra: Record<string, string> = {}): Record<string, string> => ({
  'Tus-Resumable': '1.0.0',
  ...(who ? { cookie: who.cookie } : {}),
  ...extra,
});
const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');

interface NewFile {
  name: string;
  type: string;
  size: number;
  batch?: string;
  batchFiles?: number;
  batchBytes?: number;
}
const metadataOf = ({ name, type, batch, batchFiles, batchBytes }: Omit<NewFile, 'size'>) =>
  metadata({
    filename: name,
    filetype: type,
    ...(batch !== undefined ? { batch } : {}),
    ...(batchFiles !== undefined ? { batchFiles: String(batchFiles) } : {}),
    ...(batchBytes !== undefined ? { batchBytes: String(batchBytes) } : {}),
  });

/** tus creation: the upload's length and metadata, no bytes yet. */
const create = (who: Person | undefined, file: NewFile, extra: Record<string, string> = {}) =>
  raw('POST', TUS, tusHeaders(who, { 'Upload-Length': String(file.size), 'Upload-Metadata': metadataOf(file), ...extra }));

/** Creates an upload that must be admitted; answers where it lives. */
async function started(who: Person, file: NewFile): Promise<string> {
  const res = await create(who, file);
  expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: '' });
  expect(res.headers.location).toMatch(/^\/api\/uploads\/tus\/[\w-]+$/);
  return res.headers.location!;
}

const patch = (who: Person | undefined, location: string, offset: number, bytes: Buffer, extra: Record<string, string> = {}, options: { chunked?: boolean } = {}) =>
  raw('PATCH', location, tusHeaders(who, { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream', ...extra }), bytes, options);
/**
 * A PATCH that promises the whole file from offset 0, sends its first `sent` bytes, and loses its
 * connection once `arrived` (started before the request goes) resolves.
 */
async function patchCutOff(who: Person, location: string, file: Buffer, sent: number, arrived: () => Promise<unknown>) {
  const { hostname, port } = new URL(server.base);
  const there = arrived();
  const req = http.request({
    hostname,
    port,
    path: location,
    method: 'PATCH',
    agent: false,
    headers: tusHeaders(who, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(file.length) }),
  });
  req.on('error', () => {}); // the connection is cut on purpose
  req.flushHeaders();
  const written = new Promise((resolve) => (sent > 0 ? req.write(file.subarray(0, sent), resolve) : resolve(undefined)));
  await Promise.all([there, written]);
  req.destroy();
}
/** Resolves once `file` holds at least `bytes` bytes (told by the file system, not polled). */
function grownTo(file: string, bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = fs.watch(file);
    const check = () => {
      if (fs.statSync(file).size < bytes) return;
      watcher.close();
      resolve();
    };
    watcher.on('change', check);
    watcher.on('error', reject);
    check();
  });
}
/** Resolves once the server has taken a `method` request for `url` (its headers; the body may still be coming). */
const requestReached = (method: string, url: string) =>
  new Promise<void>((resolve) => {
    const taken = (req: http.IncomingMessage) => {
      if (req.method !== method || req.url !== url) return;
      server.server.off('request', taken);
      resolve();
    };
    server.server.prependListener('request', taken);
  });
const head = (who: Person | undefined, location: string) => raw('HEAD', location, tusHeaders(who));
const terminate = (who: Person | undefined, location: string) => raw('DELETE', location, tusHeaders(who));
const offsetOf = (res: RawResponse) => Number(res.headers['upload-offset']);
const tusIdOf = (location: string) => location.split('/').pop()!;

/** The stored file a finishing PATCH answers (URI-encoded JSON in `Upload-Stored`). */
function storedIn(res: RawResponse): StoredUpload {
  const header = res.headers['upload-stored'];
  expect(typeof header).toBe('string');
  return JSON.parse(decodeURIComponent(header as string)) as StoredUpload;
}

/** A whole file up in one PATCH; answers the stored file. */
async function upload(who: Person, name: string, type: string, bytes: Buffer, extra: Partial<NewFile> = {}): Promise<StoredUpload> {
  const location = await started(who, { name, type, size: bytes.length, ...extra });
  const res = await patch(who, location, 0, bytes);
  expect({ status: res.status, body: res.body }).toEqual({ status: 204, body: '' });
  return storedIn(res);
}

/** A refusal as a problem document naming what was wrong. */
function expectProblem(res: { status: number; headers: Record<string, unknown>; body?: unknown; text?: string }, status: number, detail: RegExp) {
  const body = typeof res.text === 'string' ? res.text : Buffer.isBuffer(res.body) ? res.body.toString('utf8') : String(res.body);
  expect({ status: res.status, type: String(res.headers['content-type']).split(';')[0] }).toEqual({ status, type: 'application/problem+json' });
  const problem = JSON.parse(body) as { status: number; detail: string; title: string };
  expect(problem.status).toBe(status);
  expect(problem.detail).toMatch(detail);
}

const limitsOf = async (who: Person) => (await who.agent.get('/api/uploads/limits').expect(200)).body as UploadLimits;
const listed = async (id: number) => {
  const page = (await admin.agent.get('/api/uploads?pageSize=100').expect(200)).body as { items: StoredUpload[]; total: number };
  return page.items.find((item) => item.id === id);
};

/** The response body as bytes, whatever its type. */
const binary = (res: request.Response, callback: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
};
const download = (who: Person, id: number | string, range?: string) => {
  const req = who.agent.get(`/api/uploads/${id}/download`).buffer(true).parse(binary);
  return range ? req.set('Range', range) : req;
};

// ---- Tests -------------------------------------------------------------------------------------

describe('a resumable upload', () => {
  it('is created, takes the file in two parts, tells its offset in between, and is listed once finished', async () => {
    const staff = await signIn();
    const file = png(300_000);
    const created = await create(staff, { name: 'floor plan.png', type: 'image/png', size: file.length });
    expect(created.status).toBe(201);
    const location = created.headers.location!;
    expect(location).toMatch(/^\/api\/uploads\/tus\/[0-9a-f]{32}$/);
    // It may be finished for a day.
    expect(Date.parse(String(created.headers['upload-expires'])) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect((await limitsOf(staff)).usedBytes).toBe(file.length); // reserved from the start

    const fresh = await head(staff, location);
    expect({ status: fresh.status, offset: offsetOf(fresh), length: Number(fresh.headers['upload-length']) }).toEqual({ status: 200, offset: 0, length: file.length });

    const first = await patch(staff, location, 0, file.subarray(0, 120_000));
    expect({ status: first.status, offset: offsetOf(first), stored: first.headers['upload-stored'] }).toEqual({ status: 204, offset: 120_000, stored: undefined });
    const between = await head(staff, location);
    expect({ status: between.status, offset: offsetOf(between) }).toEqual({ status: 200, offset: 120_000 });

    const last = await patch(staff, location, 120_000, file.subarray(120_000));
    expect({ status: last.status, offset: offsetOf(last) }).toEqual({ status: 204, offset: file.length });
    const stored = storedIn(last);
    expect(stored).toEqual({
      id: expect.any(Number),
      name: 'floor plan.png',
      type: 'image/png',
      size: file.length,
      sha256: sha256(file),
      uploadedBy: { id: staff.id, name: staff.name },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await listed(stored.id)).toEqual(stored);
    expect(sha256((await download(staff, stored.id).expect(200)).body as Buffer)).toBe(sha256(file));

    // Finished: no longer under way, nothing left among the parts, still counted once in the quota.
    expect((await head(staff, location)).status).toBe(404);
    expect(onDiskFor(tusIdOf(location))).toEqual([]);
    expect((await limitsOf(staff)).usedBytes).toBe(file.length);
  });

  it('takes a whole file with its creation request (creation-with-upload)', async () => {
    const staff = await signIn();
    const file = text('Locker 12: key lost on Monday\n');
    const res = await raw(
      'POST',
      TUS,
      tusHeaders(staff, { 'Upload-Length': String(file.length), 'Upload-Metadata': metadataOf({ name: 'note.txt', type: 'text/plain' }), 'Content-Type': 'application/offset+octet-stream' }),
      file,
    );
    expect(res.status).toBe(201);
    expect(offsetOf(res)).toBe(file.length);
    const stored = storedIn(res);
    expect(stored).toMatchObject({ name: 'note.txt', type: 'text/plain', size: file.length, sha256: sha256(file) });
    expect(sha256((await download(staff, stored.id).expect(200)).body as Buffer)).toBe(sha256(file));
  });

  it('resumes after the connection drops in the middle of a PATCH, from the offset the server kept', async () => {
    const staff = await signIn();
    const file = png(600_000);
    const location = await started(staff, { name: 'scan.png', type: 'image/png', size: file.length });
    const sent = 250_000;

    // Once those bytes are on the server's disk, the connection dies.
    await patchCutOff(staff, location, file, sent, () => grownTo(path.join(partsDir(), tusIdOf(location)), sent));

    const after = await head(staff, location);
    expect(after.status).toBe(200);
    const kept = offsetOf(after);
    expect(kept).toBe(sent);

    // A PATCH from anywhere else is refused; from the kept offset the file completes.
    expect((await patch(staff, location, 0, file.subarray(0, 10))).status).toBe(409);
    const rest = await patch(staff, location, kept, file.subarray(kept));
    expect({ status: rest.status, offset: offsetOf(rest) }).toEqual({ status: 204, offset: file.length });
    const stored = storedIn(rest);
    expect(stored.sha256).toBe(sha256(file));
    expect(sha256((await download(staff, stored.id).expect(200)).body as Buffer)).toBe(sha256(file));
  });

  it('resumes a first PATCH cut off before its bytes could show their type', async () => {
    const staff = await signIn();
    const file = png(20_000);
    for (const sent of [1000, 3, 0]) {
      const location = await started(staff, { name: `cut-${sent}.png`, type: 'image/png', size: file.length });
      // Held back until they show their type, the bytes cannot be seen arriving: cut once the server
      // has the request and the bytes have left.
      await patchCutOff(staff, location, file, sent, () => requestReached('PATCH', location));
      const after = await head(staff, location);
      expect({ sent, status: after.status }).toEqual({ sent, status: 200 });
      const kept = offsetOf(after);
      // A few bytes cannot tell a PNG from anything else: none are kept, and nothing is refused.
      if (sent < 16) expect(kept).toBe(0);
      else expect(kept).toBeLessThanOrEqual(sent);
      const rest = await patch(staff, location, kept, file.subarray(kept));
      expect({ sent, status: rest.status }).toEqual({ sent, status: 204 });
      expect(storedIn(rest).sha256).toBe(sha256(file));
    }
  });
});

describe('limits, each checked before a byte is taken', () => {
  it('refuses a file over the size limit at creation, saying so, and keeps nothing of it', async () => {
    const staff = await signIn();
    const partsBefore = entries(partsDir());
    const res = await create(staff, { name: 'video.pdf', type: 'application/pdf', size: MB + 1 });
    expectProblem(res, 413, /^video\.pdf is 1\.1 MB; the limit is 1 MB per file\.$/);
    expect(res.headers.location).toBeUndefined();
    expect(entries(partsDir())).toEqual(partsBefore);
    expect((await limitsOf(staff)).usedBytes).toBe(0);
    // Exactly at the limit is fine.
    await started(staff, { name: 'video.pdf', type: 'application/pdf', size: MB });
  });

  it('refuses an upload that does not say its length', async () => {
    const staff = await signIn();
    const deferred = await raw('POST', TUS, tusHeaders(staff, { 'Upload-Defer-Length': '1', 'Upload-Metadata': metadataOf({ name: 'a.pdf', type: 'application/pdf' }) }));
    expectProblem(deferred, 400, /size/);
    expect((await limitsOf(staff)).usedBytes).toBe(0);
  });

  it('refuses a PATCH that sends more than the upload said it would, and keeps the upload as it was', async () => {
    const staff = await signIn();
    const file = pdf(50_000);
    const location = await started(staff, { name: 'menu.pdf', type: 'application/pdf', size: file.length });
    const tooMuch = await patch(staff, location, 0, Buffer.concat([file, Buffer.alloc(100, 0x41)]));
    expectProblem(tooMuch, 413, /more bytes than the upload said it has/);
    expect(offsetOf(await head(staff, location))).toBe(0);

    // Without a Content-Length the server cannot tell in advance: it stops at the upload's length.
    const streamed = await patch(staff, location, 0, Buffer.concat([file, Buffer.alloc(100_000, 0x41)]), {}, { chunked: true });
    expectProblem(streamed, 413, /more bytes than the upload said it has/);
    const kept = offsetOf(await head(staff, location));
    expect(kept).toBeLessThanOrEqual(file.length);

    const rest = await patch(staff, location, kept, file.subarray(kept));
    expect(rest.status).toBe(204);
    expect(storedIn(rest).sha256).toBe(sha256(file));
  });

  it('refuses a creation request that carries more bytes than its length, and keeps nothing of it', async () => {
    const staff = await signIn();
    const partsBefore = entries(partsDir());
    const file = pdf(1000);
    const res = await raw(
      'POST',
      TUS,
      tusHeaders(staff, { 'Upload-Length': '500', 'Upload-Metadata': metadataOf({ name: 'long.pdf', type: 'application/pdf' }), 'Content-Type': 'application/offset+octet-stream' }),
      file,
    );
    expectProblem(res, 413, /more bytes than the upload said it has/);
    expect(entries(partsDir())).toEqual(partsBefore);
    expect((await limitsOf(staff)).usedBytes).toBe(0);
  });

  it('answers a refusal at once even while a large body is still coming', async () => {
    const staff = await signIn();
    const location = await started(staff, { name: 'small.pdf', type: 'application/pdf', size: 1000 });
    const tooLong = await patch(staff, location, 0, pdf(8 * MB));
    expectProblem(tooLong, 413, /more bytes/);
    const fake = await started(staff, { name: 'fake.png', type: 'image/png', size: MB });
    const notPng = await patch(staff, fake, 0, pdf(MB));
    expectProblem(notPng, 415, /does not hold/);
    // The 413 came while the 8 MB were still going out (the 1 MB of the 415 fit in the sockets' buffers at once).
    expect(tooLong.answeredAfterBody).toBe(false);
  });

  it('counts stored files and unfinished uploads against the quota, per person', async () => {
    const staff = await signIn();
    await upload(staff, 'stored.png', 'image/png', png(MB)); // stored: 1 MB
    const unfinished = await started(staff, { name: 'half.pdf', type: 'application/pdf', size: mb(0.9) }); // reserved: 0.9 MB
    expect((await limitsOf(staff)).usedBytes).toBe(MB + mb(0.9));

    const refused = await create(staff, { name: 'one more.pdf', type: 'application/pdf', size: mb(0.2) });
    expectProblem(refused, 413, /^one more\.pdf does not fit in your space: 1\.9 MB of 2 MB is used\. Delete some files first\.$/);
    expect((await limitsOf(staff)).usedBytes).toBe(MB + mb(0.9));
    // What is left still fits, and someone else has a quota of their own.
    await started(staff, { name: 'small.pdf', type: 'application/pdf', size: mb(0.1) });
    await started(await signIn(), { name: 'one more.pdf', type: 'application/pdf', size: mb(0.2) });

    // Giving up the unfinished upload gives its room back.
    expect((await terminate(staff, unfinished)).status).toBe(204);
    expect((await limitsOf(staff)).usedBytes).toBe(MB + mb(0.1));
    await started(staff, { name: 'one more.pdf', type: 'application/pdf', size: mb(0.2) });
  });

  it('admits files sent at the same moment only as far as the quota and the batch allow', async () => {
    const staff = await signIn();
    // Twelve at once, 0.5 MB each, into a 2 MB quota: four fit, whichever come first.
    const quota = await Promise.all(Array.from({ length: 12 }, (_, i) => create(staff, { name: `race-${i}.pdf`, type: 'application/pdf', size: mb(0.5) })));
    expect(quota.filter((res) => res.status === 201).length).toBe(4);
    expect(quota.filter((res) => res.status === 413).length).toBe(8);
    expect((await limitsOf(staff)).usedBytes).toBe(4 * mb(0.5));

    // Six at once in one batch of at most two files: two go.
    const other = await signIn();
    const batch = await Promise.all(Array.from({ length: 6 }, (_, i) => create(other, { name: `${i}.txt`, type: 'text/plain', size: 10, batch: 'together', batchFiles: 2, batchBytes: 20 })));
    expect(batch.filter((res) => res.status === 201).length).toBe(2);
  });

  it('refuses a batch of more files or bytes than allowed, as it says and as it comes', async () => {
    const staff = await signIn();
    // What the batch says about itself up front.
    expectProblem(await create(staff, { name: 'a.txt', type: 'text/plain', size: 10, batch: 'say-files', batchFiles: 3, batchBytes: 30 }), 413, /^At most 2 files at once\.$/);
    expectProblem(await create(staff, { name: 'a.txt', type: 'text/plain', size: 10, batch: 'say-bytes', batchFiles: 2, batchBytes: MB + 1 }), 413, /^At most 1 MB at once\.$/);

    // What the server counts, whatever the batch says: a third file, or bytes past the batch limit.
    await started(staff, { name: 'a.txt', type: 'text/plain', size: 10, batch: 'count-files', batchFiles: 1 });
    await upload(staff, 'b.txt', 'text/plain', text('stored, still part of the batch'), { batch: 'count-files', batchFiles: 1 });
    expectProblem(await create(staff, { name: 'c.txt', type: 'text/plain', size: 10, batch: 'count-files', batchFiles: 1 }), 413, /^At most 2 files at once\.$/);
    await started(staff, { name: 'a.pdf', type: 'application/pdf', size: mb(0.6), batch: 'count-bytes', batchFiles: 2, batchBytes: mb(0.6) });
    expectProblem(await create(staff, { name: 'b.pdf', type: 'application/pdf', size: mb(0.6), batch: 'count-bytes', batchFiles: 2, batchBytes: mb(0.6) }), 413, /^At most 1 MB at once\.$/);

    // Another batch starts from nothing; so does an upload in no batch.
    await started(staff, { name: 'b.pdf', type: 'application/pdf', size: mb(0.6), batch: 'next-batch', batchFiles: 1, batchBytes: mb(0.6) });
    await started(staff, { name: 'c.pdf', type: 'application/pdf', size: mb(0.6) });
  });

  it('refuses a type that is not accepted, and a name that does not end like its type (415)', async () => {
    const staff = await signIn();
    expectProblem(await create(staff, { name: 'page.html', type: 'text/html', size: 10 }), 415, /^page\.html: this kind of file is not accepted\. Accepted: .*\.png.*\.pdf/);
    expectProblem(await create(staff, { name: 'drawing.svg', type: 'image/svg+xml', size: 10 }), 415, /not accepted/);
    expectProblem(await raw('POST', TUS, tusHeaders(staff, { 'Upload-Length': '10' })), 415, /not accepted/); // no metadata at all
    expectProblem(await create(staff, { name: 'photo.pdf', type: 'image/png', size: 10 }), 415, /^photo\.pdf: the name does not end like a image\/png file \(\.png\)\.$/);
    expectProblem(await create(staff, { name: 'script.png.exe', type: 'image/png', size: 10 }), 415, /does not end like/);
    expectProblem(await create(staff, { name: 'noextension', type: 'text/plain', size: 10 }), 415, /does not end like/);
    expect((await limitsOf(staff)).usedBytes).toBe(0);
    // Types and extensions are matched without regard to case.
    await started(staff, { name: 'PHOTO.JPEG', type: 'Image/JPEG', size: 10 });
  });

  it('refuses at the first PATCH bytes that are not what the upload claimed, and forgets the upload', async () => {
    const staff = await signIn();
    const fake = Buffer.concat([Buffer.from('<!doctype html><script>fetch("/api/auth/getAuth")</script>'), Buffer.alloc(20_000, 0x20)]);
    const location = await started(staff, { name: 'cat.png', type: 'image/png', size: fake.length });
    const refused = await patch(staff, location, 0, fake);
    expectProblem(refused, 415, /^cat\.png does not hold what a image\/png file holds/);

    expect((await head(staff, location)).status).toBe(404);
    expect((await patch(staff, location, 0, png(fake.length))).status).toBe(404);
    expect(onDiskFor(tusIdOf(location))).toEqual([]);
    expect((await limitsOf(staff)).usedBytes).toBe(0);
    const page = (await staff.agent.get('/api/uploads?pageSize=100').expect(200)).body as { items: StoredUpload[] };
    expect(page.items.filter((item) => item.uploadedBy.id === staff.id)).toEqual([]);
  });

  it('refuses a small fake in a creation request that carries it (creation-with-upload)', async () => {
    const staff = await signIn();
    const fake = text('MZ not a pdf');
    const partsBefore = entries(partsDir());
    const res = await raw(
      'POST',
      TUS,
      tusHeaders(staff, { 'Upload-Length': String(fake.length), 'Upload-Metadata': metadataOf({ name: 'invoice.pdf', type: 'application/pdf' }), 'Content-Type': 'application/offset+octet-stream' }),
      fake,
    );
    expectProblem(res, 415, /^invoice\.pdf does not hold what a application\/pdf file holds/);
    expect(entries(partsDir())).toEqual(partsBefore);
    expect((await limitsOf(staff)).usedBytes).toBe(0);
  });

  it('refuses an empty file of a type whose bytes it cannot check, and stores an empty text file', async () => {
    const staff = await signIn();
    expectProblem(await create(staff, { name: 'empty.png', type: 'image/png', size: 0 }), 415, /empty\.png/);
    expect((await limitsOf(staff)).usedBytes).toBe(0);
    const created = await create(staff, { name: 'empty.txt', type: 'text/plain', size: 0 });
    expect(created.status).toBe(201);
    const stored = storedIn(created);
    expect(stored).toMatchObject({ name: 'empty.txt', size: 0, sha256: sha256(Buffer.alloc(0)) });
    expect((await download(staff, stored.id).expect(200)).body).toEqual(Buffer.alloc(0));
  });
});

describe('the same bytes twice', () => {
  it('are two files in the list and one copy on disk, which goes with the last of them', async () => {
    const [staff, colleague] = [await signIn(), await signIn()];
    const bytes = pdf(40_000);
    const blobsBefore = entries(blobsDir());
    const first = await upload(staff, 'rota.pdf', 'application/pdf', bytes);
    const second = await upload(colleague, 'rota (copy).pdf', 'application/pdf', bytes);

    expect(second.id).not.toBe(first.id);
    expect([first.sha256, second.sha256]).toEqual([sha256(bytes), sha256(bytes)]);
    expect([(await listed(first.id))?.name, (await listed(second.id))?.name]).toEqual(['rota.pdf', 'rota (copy).pdf']);
    expect(entries(blobsDir())).toEqual([...blobsBefore, sha256(bytes)].sort());
    // Each person's quota counts their own upload.
    expect([(await limitsOf(staff)).usedBytes, (await limitsOf(colleague)).usedBytes]).toEqual([bytes.length, bytes.length]);

    await staff.agent.delete(`/api/uploads/${first.id}`).expect(204);
    expect(fs.existsSync(path.join(blobsDir(), sha256(bytes)))).toBe(true);
    expect(sha256((await download(colleague, second.id).expect(200)).body as Buffer)).toBe(sha256(bytes));
    expect(await listed(first.id)).toBeUndefined();

    await colleague.agent.delete(`/api/uploads/${second.id}`).expect(204);
    expect(entries(blobsDir())).toEqual(blobsBefore);
    expect([(await limitsOf(staff)).usedBytes, (await limitsOf(colleague)).usedBytes]).toEqual([0, 0]);
  });
});

describe('the same file sent again', () => {
  it('by the same person is one file in the list, dated anew, and counted once', async () => {
    const staff = await signIn();
    const bytes = pdf(30_000);
    const first = await upload(staff, 'weekly menu.pdf', 'application/pdf', bytes);
    const again = await upload(staff, 'weekly menu.pdf', 'application/pdf', bytes);

    expect(again.id).toBe(first.id);
    expect(again.createdAt >= first.createdAt).toBe(true);
    expect((await limitsOf(staff)).usedBytes).toBe(bytes.length);
    const page = (await staff.agent.get('/api/uploads?pageSize=100').expect(200)).body as { items: StoredUpload[] };
    expect(page.items.filter((u) => u.name === 'weekly menu.pdf')).toHaveLength(1);
    expect(page.items[0]?.id).toBe(first.id);

    // Other bytes under the same name are another file.
    const changed = await upload(staff, 'weekly menu.pdf', 'application/pdf', pdf(31_000));
    expect(changed.id).not.toBe(first.id);
  });
});

describe('downloads', () => {
  let staff: Person;
  let stored: StoredUpload;
  const bytes = pdf(5000);
  beforeAll(async () => {
    staff = await signIn();
    stored = await upload(staff, 'price list.pdf', 'application/pdf', bytes);
  });

  it('are attachments of the stored type that the browser must not sniff or cache', async () => {
    const res = await download(staff, stored.id).expect(200);
    expect(res.body).toEqual(bytes);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="price list.pdf"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
  });

  it('send a text file as text/plain, still as an attachment', async () => {
    const note = text('<script>alert(1)</script> is just text here\n');
    const txt = await upload(staff, 'page.txt', 'text/plain', note);
    const res = await download(staff, txt.id).expect(200);
    expect(res.body).toEqual(note);
    expect(res.headers['content-type']).toMatch(/^text\/plain(;|$)/);
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it.each([
    ['path parts', '../../etc/C:\\Users\\x\\report.txt', 'report.txt'],
    ['control characters', 'line\r\nbreak\u0007\u0000.txt', 'linebreak.txt'],
    ['quotes', 'the "final" one.txt', 'the "final" one.txt'],
    ['a right-to-left override', 'invoice\u202Etxt.exe\u202C.txt', 'invoicetxt.exe.txt'],
    ['leading dots', '...hidden.txt', 'hidden.txt'],
    ['non-ASCII', 'Café menü – 2026 😀.txt', 'Café menü – 2026 😀.txt'],
  ])('carry a clean name (%s)', async (_what, sent, shown) => {
    const file = await upload(staff, sent, 'text/plain', text('what the name says'));
    expect(file.name).toBe(shown);
    expect((await listed(file.id))?.name).toBe(shown);
    const disposition = String((await download(staff, file.id).expect(200)).headers['content-disposition']);
    // A header is Latin-1 with no line breaks; a name that is not plain ASCII also travels RFC 5987-encoded.
    expect(disposition).toMatch(/^[\x20-\x7e]+$/);
    const [, quoted, token] = /^attachment; filename=(?:"((?:[^"\\]|\\.)*)"|([^";]+))/.exec(disposition) ?? [];
    const plain = quoted?.replace(/\\(.)/g, '$1') ?? token;
    const extended = /; filename\*=UTF-8''([^;]+)$/.exec(disposition)?.[1];
    expect(extended === undefined ? plain : decodeURIComponent(extended)).toBe(shown);
    expect(plain).not.toMatch(/[/\\]/);
  });

  it('answer a range with 206 and just those bytes', async () => {
    const res = await download(staff, stored.id, 'bytes=100-199').expect(206);
    expect(res.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
    expect(res.body).toEqual(bytes.subarray(100, 200));
    const tail = await download(staff, stored.id, 'bytes=-10').expect(206);
    expect(tail.body).toEqual(bytes.subarray(bytes.length - 10));
    expect(tail.headers['content-type']).toBe('application/pdf');
    expect(tail.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('answer a range past the end with 416', async () => {
    const res = await download(staff, stored.id, `bytes=${bytes.length}-${bytes.length + 10}`).expect(416);
    expectProblem(res, 416, /range/);
  });

  it('answer 404, not a broken file, when the bytes went missing from the disk', async () => {
    const lost = await upload(staff, 'lost.txt', 'text/plain', text(`lost ${crypto.randomUUID()}`));
    fs.rmSync(path.join(blobsDir(), lost.sha256));
    expectProblem(await download(staff, lost.id), 404, /missing/);
    // It can still be deleted from the list.
    await staff.agent.delete(`/api/uploads/${lost.id}`).expect(204);
  });

  it('need an id that is a positive integer, of a stored file', async () => {
    expectProblem(await staff.agent.get('/api/uploads/999999/download'), 404, /999999/);
    for (const bad of ['abc', '0', '-1', '1.5']) expect({ bad, status: (await staff.agent.get(`/api/uploads/${bad}/download`)).status }).toEqual({ bad, status: 400 });
  });
});

describe('deleting a stored file', () => {
  it('is for the one who uploaded it, or an admin', async () => {
    const [owner, colleague] = [await signIn(), await signIn()];
    const mine = await upload(owner, 'mine.txt', 'text/plain', text(`mine ${crypto.randomUUID()}`));
    const theirs = await upload(owner, 'theirs.txt', 'text/plain', text(`theirs ${crypto.randomUUID()}`));

    expectProblem(await colleague.agent.delete(`/api/uploads/${mine.id}`), 403, /files you uploaded/);
    expect(await listed(mine.id)).toEqual(mine);

    await owner.agent.delete(`/api/uploads/${mine.id}`).expect(204);
    expect(await listed(mine.id)).toBeUndefined();
    expectProblem(await owner.agent.get(`/api/uploads/${mine.id}/download`), 404, new RegExp(String(mine.id)));
    expect(fs.existsSync(path.join(blobsDir(), mine.sha256))).toBe(false);
    expect((await limitsOf(owner)).usedBytes).toBe(theirs.size);

    await admin.agent.delete(`/api/uploads/${theirs.id}`).expect(204);
    expect(await listed(theirs.id)).toBeUndefined();
    expect((await limitsOf(owner)).usedBytes).toBe(0);
  });

  it('answers 404 for a file that is not there (or no longer) and 400 for a malformed id', async () => {
    const staff = await signIn();
    const once = await upload(staff, 'once.txt', 'text/plain', text(`once ${crypto.randomUUID()}`));
    await staff.agent.delete(`/api/uploads/${once.id}`).expect(204);
    expectProblem(await staff.agent.delete(`/api/uploads/${once.id}`), 404, new RegExp(String(once.id)));
    expectProblem(await admin.agent.delete('/api/uploads/999999'), 404, /999999/);
    for (const bad of ['abc', '0', '-3', '2.5', '1e3']) {
      const res = await staff.agent.delete(`/api/uploads/${bad}`);
      expect({ bad, status: res.status, type: res.type }).toEqual({ bad, status: 400, type: 'application/problem+json' });
    }
  });
});

describe('who may upload', () => {
  let owner: Person;
  let location: string;
  let stored: StoredUpload;
  beforeAll(async () => {
    owner = await signIn();
    location = await started(owner, { name: 'private.pdf', type: 'application/pdf', size: 1000 });
    stored = await upload(owner, 'kept.txt', 'text/plain', text(`kept ${crypto.randomUUID()}`));
  });

  it('needs a session for every upload endpoint, tus included', async () => {
    const anonymous = request(ctx.app);
    for (const res of [
      await anonymous.get('/api/uploads/limits'),
      await anonymous.get('/api/uploads'),
      await anonymous.get(`/api/uploads/${stored.id}/download`),
      await anonymous.delete(`/api/uploads/${stored.id}`),
    ])
      expectProblem(res, 401, /log in/);
    expectProblem(await create(undefined, { name: 'a.pdf', type: 'application/pdf', size: 10 }), 401, /log in/);
    expectProblem(await patch(undefined, location, 0, pdf(1000)), 401, /log in/);
    expectProblem(await terminate(undefined, location), 401, /log in/);
    expectProblem(await raw('GET', location, {}), 401, /log in/);
    expect((await head(undefined, location)).status).toBe(401);
    // None of it touched the upload.
    expect(offsetOf(await head(owner, location))).toBe(0);
    expect(await listed(stored.id)).toEqual(stored);
  });

  it('is not for a runner, on any endpoint', async () => {
    for (const res of [
      await runner.agent.get('/api/uploads/limits'),
      await runner.agent.get('/api/uploads'),
      await runner.agent.get(`/api/uploads/${stored.id}/download`),
      await runner.agent.delete(`/api/uploads/${stored.id}`),
    ])
      expect(res.status).toBe(403);
    expectProblem(await create(runner, { name: 'a.pdf', type: 'application/pdf', size: 10 }), 403, /role/);
    expectProblem(await patch(runner, location, 0, pdf(1000)), 403, /role/);
    expectProblem(await terminate(runner, location), 403, /role/);
    expect((await head(runner, location)).status).toBe(403);
    expect(offsetOf(await head(owner, location))).toBe(0);
    expect(await listed(stored.id)).toEqual(stored);
  });

  it('lets an admin upload like staff', async () => {
    const file = png(2000);
    const mine = await upload(admin, 'logo.png', 'image/png', file);
    expect(mine).toMatchObject({ name: 'logo.png', uploadedBy: { id: admin.id, name: admin.name } });
    await admin.agent.delete(`/api/uploads/${mine.id}`).expect(204);
  });

  it("hides someone else's upload under way: 404 to HEAD, PATCH and DELETE, and it carries on", async () => {
    const other = await signIn();
    for (const who of [other, admin]) {
      expectProblem(await patch(who, location, 0, pdf(1000)), 404, /No such upload/);
      expectProblem(await terminate(who, location), 404, /No such upload/);
      expect((await head(who, location)).status).toBe(404);
    }
    // An id that is not an upload at all, or tries to leave the parts folder, is no different.
    for (const id of ['nonexistent', '..%2F..%2Fblobs%2F' + stored.sha256, '%2e%2e']) expect((await head(owner, `${TUS}/${id}`)).status).toBe(404);
    expect(fs.existsSync(path.join(blobsDir(), stored.sha256))).toBe(true);

    const file = pdf(1000);
    const finished = await patch(owner, location, 0, file);
    expect(finished.status).toBe(204);
    expect(storedIn(finished)).toMatchObject({ name: 'private.pdf', sha256: sha256(file) });
  });

  it("cannot reach someone else's upload by overriding the method (X-HTTP-Method-Override)", async () => {
    const other = await signIn();
    const theirs = await started(owner, { name: 'override.pdf', type: 'application/pdf', size: 1000 });
    for (const method of ['OPTIONS', 'HEAD', 'POST']) {
      for (const override of ['DELETE', 'PATCH']) {
        const body = override === 'PATCH' && method !== 'HEAD' ? pdf(1000) : undefined;
        const res = await raw(method, theirs, tusHeaders(other, { 'X-HTTP-Method-Override': override, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }), body);
        expect({ method, override, status: res.status }).toEqual({ method, override, status: 400 });
      }
    }
    // Not even on one's own upload: the method is the method.
    expect((await raw('POST', theirs, tusHeaders(owner, { 'X-HTTP-Method-Override': 'DELETE' }))).status).toBe(400);
    const after = await head(owner, theirs);
    expect({ status: after.status, offset: offsetOf(after) }).toEqual({ status: 200, offset: 0 });
    expect((await patch(owner, theirs, 0, pdf(1000))).status).toBe(204);
  });

  it('never serves a file over tus (GET answers 405)', async () => {
    expectProblem(await raw('GET', location, tusHeaders(owner)), 405, /\/api\/uploads\/:id\/download/);
    expectProblem(await raw('GET', TUS, tusHeaders(owner)), 405, /download/);
  });
});

describe('cross-site requests', () => {
  it('refuses a tus creation or PATCH from another origin (403), and a PATCH that is not tus bytes (415)', async () => {
    const staff = await signIn();
    const foreign = { Origin: 'https://evil.example' };
    expectProblem(await create(staff, { name: 'a.pdf', type: 'application/pdf', size: 1000 }, foreign), 403, /Cross-origin/);
    expect((await limitsOf(staff)).usedBytes).toBe(0);

    const location = await started(staff, { name: 'a.pdf', type: 'application/pdf', size: 1000 });
    expectProblem(await patch(staff, location, 0, pdf(1000), foreign), 403, /Cross-origin/);
    expectProblem(await raw('DELETE', location, tusHeaders(staff, foreign)), 403, /Cross-origin/);
    const after = await head(staff, location);
    expect({ status: after.status, offset: offsetOf(after) }).toEqual({ status: 200, offset: 0 });
    expect((await limitsOf(staff)).usedBytes).toBe(1000);
  });

  it('takes tus bytes only as application/offset+octet-stream with Tus-Resumable', async () => {
    const staff = await signIn();
    const location = await started(staff, { name: 'b.pdf', type: 'application/pdf', size: 1000 });
    const file = pdf(1000);
    // What an HTML form could send cross-site: a text/plain body, no tus header.
    expectProblem(await patch(staff, location, 0, file, { 'Content-Type': 'text/plain' }), 415, /application\/json/);
    expectProblem(await raw('PATCH', location, { cookie: staff.cookie, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' }, file), 415, /application\/json/);
    expect(offsetOf(await head(staff, location))).toBe(0);
    // The same request from our own origin goes through.
    const ok = await patch(staff, location, 0, file, { Origin: server.base });
    expect(ok.status).toBe(204);
  });
});

describe('giving up an upload (tus termination)', () => {
  it('removes it, its parts and its place in the quota', async () => {
    const staff = await signIn();
    const file = png(300_000);
    const location = await started(staff, { name: 'abandoned.png', type: 'image/png', size: file.length });
    expect((await patch(staff, location, 0, file.subarray(0, 100_000))).status).toBe(204);
    expect(onDiskFor(tusIdOf(location))).not.toEqual([]);
    expect((await limitsOf(staff)).usedBytes).toBe(file.length);

    const res = await terminate(staff, location);
    expect(res.status).toBe(204);
    expect((await limitsOf(staff)).usedBytes).toBe(0);
    expect(onDiskFor(tusIdOf(location))).toEqual([]);
    expect((await head(staff, location)).status).toBe(404);
    expectProblem(await patch(staff, location, 100_000, file.subarray(100_000)), 404, /No such upload/);
  });
});

describe('an upload left unfinished', () => {
  it('is cleaned up after a day: its parts go and its room in the quota comes back', async () => {
    const staff = await signIn();
    const old = await started(staff, { name: 'forgotten.png', type: 'image/png', size: 50_000 });
    expect((await patch(staff, old, 0, png(50_000).subarray(0, 20_000))).status).toBe(204);
    const recent = await started(staff, { name: 'recent.pdf', type: 'application/pdf', size: 1000 });
    // Make the first one a day and an hour old, as tus and the database record it.
    const dayAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
    const record = path.join(partsDir(), `${tusIdOf(old)}.json`);
    fs.writeFileSync(record, JSON.stringify({ ...(JSON.parse(fs.readFileSync(record, 'utf8')) as object), creation_date: dayAgo }));
    await ctx.database.db.updateTable('pending_uploads').set({ created_at: dayAgo }).where('tus_id', '=', tusIdOf(old)).execute();

    // The hourly clean-up, run once: a job runs at start, and stopping it waits for that run.
    const cleanUp = ctx.jobs.find((job) => job.name === 'clean-up of expired uploads')!;
    cleanUp.start();
    await cleanUp.stop();
    expect(onDiskFor(tusIdOf(old))).toEqual([]);
    expect((await head(staff, old)).status).toBe(404);
    expect((await limitsOf(staff)).usedBytes).toBe(1000);
    const kept = await head(staff, recent);
    expect({ status: kept.status, offset: offsetOf(kept) }).toEqual({ status: 200, offset: 0 });
  });
});

describe('the limits the page shows', () => {
  it('are the server’s, with what this person uses', async () => {
    const staff = await signIn();
    const limits = await limitsOf(staff);
    expect(limits).toEqual({
      maxFileBytes: MB,
      maxBatchBytes: MB,
      maxBatchFiles: 2,
      quotaBytes: 2 * MB,
      usedBytes: 0,
      chunkBytes: expect.any(Number),
      allowedTypes: expect.objectContaining({ 'image/png': ['png'], 'image/jpeg': ['jpg', 'jpeg'], 'application/pdf': ['pdf'], 'text/plain': ['txt', 'log', 'md'] }),
    });
    expect(limits.chunkBytes).toBeGreaterThan(0);
    await upload(staff, 'a.txt', 'text/plain', text(`twelve bytes ${crypto.randomUUID()}`));
    await started(staff, { name: 'b.pdf', type: 'application/pdf', size: 5000 });
    expect((await limitsOf(staff)).usedBytes).toBe(13 + 36 + 5000);
  });

  it('follow UPLOAD_TYPES when it narrows the accepted types', async () => {
    await withTestContext({ env: { UPLOAD_TYPES: 'application/pdf, image/png' } }, async (narrow) => {
      const agent = await narrow.loginAs('staff');
      const limits = (await agent.get('/api/uploads/limits').expect(200)).body as UploadLimits;
      expect(limits.allowedTypes).toEqual({ 'application/pdf': ['pdf'], 'image/png': ['png'] });
    });
  });
});

describe('the list of stored files', () => {
  it('pages through them newest first', async () => {
    const staff = await signIn();
    const before = ((await staff.agent.get('/api/uploads').expect(200)).body as { total: number }).total;
    const files: StoredUpload[] = [];
    for (const n of [1, 2, 3]) files.push(await upload(staff, `page-${n}.txt`, 'text/plain', text(`page ${n} ${crypto.randomUUID()}`)));

    const first = (await staff.agent.get('/api/uploads?page=0&pageSize=2').expect(200)).body as { items: StoredUpload[]; page: number; pageSize: number; total: number };
    expect({ ...first, items: first.items.map((i) => i.id) }).toEqual({ items: [files[2]!.id, files[1]!.id], page: 0, pageSize: 2, total: before + 3, next: expect.any(String) });
    const second = (await staff.agent.get('/api/uploads?page=1&pageSize=2').expect(200)).body as { items: StoredUpload[] };
    expect(second.items[0]).toEqual(files[0]);
    const defaults = (await staff.agent.get('/api/uploads').expect(200)).body as { pageSize: number; items: unknown[] };
    expect(defaults.pageSize).toBe(10);
    expect(defaults.items.length).toBe(Math.min(10, before + 3));
    const past = (await staff.agent.get('/api/uploads?page=999').expect(200)).body as { items: unknown[] };
    expect(past.items).toEqual([]);
    for (const bad of ['page=-1', 'pageSize=0', 'pageSize=101', 'page=abc']) expect({ bad, status: (await staff.agent.get(`/api/uploads?${bad}`)).status }).toEqual({ bad, status: 400 });
  });
});

describe('the list of stored files after years', () => {
  it('says "1,000+", pages on by Next and back by Previous, each page read from its cursor', async () => {
    await withTestContext({ env: LIMITS }, async (years) => {
      const staff = await signInPerson(years, 'staff', 'archivist@uploads.test');
      const start = Date.parse('2024-01-01T00:00:00.000Z');
      const rows = Array.from({ length: 1_030 }, (_, i) => ({
        name: `receipt-${i}.pdf`,
        type: 'application/pdf',
        size: 1_000,
        sha256: `history-${i}`,
        account_id: staff.id,
        uploaded_by: staff.name,
        created_at: new Date(start + i * 60_000).toISOString(),
      }));
      for (let i = 0; i < rows.length; i += 200) await years.database.db.insertInto('uploads').values(rows.slice(i, i + 200)).execute();
      const list = async (query: string) => (await staff.agent.get(`/api/uploads?pageSize=10${query}`).expect(200)).body as Page<StoredUpload>;
      const first = await list('');
      expect(first).toMatchObject({ page: 0, total: 1_000, totalIsLowerBound: true, next: expect.any(String) });
      expect(first.items.map((f) => f.name)).toEqual(Array.from({ length: 10 }, (_, i) => `receipt-${1_029 - i}.pdf`));
      const second = await list(`&page=1&next=${first.next!}`);
      expect(second.items.map((f) => f.name)).toEqual(Array.from({ length: 10 }, (_, i) => `receipt-${1_019 - i}.pdf`));
      expect(second).toMatchObject({ page: 1, total: 1_010, totalIsLowerBound: true, previous: expect.any(String) });
      expect((await list(`&previous=${second.previous!}`)).items).toEqual(first.items);
      await staff.agent.get('/api/uploads?next=not-a-cursor!').expect(400);
    });
  });
});

describe('tus protocol mistakes', () => {
  it('are answered as problems, like every other refusal', async () => {
    const staff = await signIn();
    const location = await started(staff, { name: 'p.pdf', type: 'application/pdf', size: 100 });
    expectProblem(await raw('POST', TUS, { cookie: staff.cookie, 'Upload-Length': '100', 'Upload-Metadata': metadataOf({ name: 'a.pdf', type: 'application/pdf' }) }), 412, /Tus-Resumable/);
    expectProblem(await create(staff, { name: 'a.pdf', type: 'application/pdf', size: 100 }, { 'Tus-Resumable': '0.2.2' }), 412, /Tus-Resumable/);
    expectProblem(await raw('POST', TUS, tusHeaders(staff, { 'Upload-Length': '12.5', 'Upload-Metadata': metadataOf({ name: 'a.pdf', type: 'application/pdf' }) })), 400, /Upload-Length/i);
    expectProblem(await raw('POST', TUS, tusHeaders(staff, { 'Upload-Length': '100', 'Upload-Metadata': 'filename not*base64!' })), 400, /Upload-Metadata/i);
    expectProblem(await patch(staff, location, 0, pdf(100), { 'Upload-Offset': '-1' }), 400, /Upload-Offset/i);
    expectProblem(await raw('PATCH', location, tusHeaders(staff, { 'Upload-Offset': '0' })), 415, /application\/offset\+octet-stream/);
    expectProblem(await raw('PATCH', location, tusHeaders(staff, { 'Upload-Offset': '0', 'Content-Type': 'application/json' })), 400, /Content-Type/);
    expectProblem(await patch(staff, location, 5, pdf(95)), 409, /offset/i);
    expectProblem(await create(staff, { name: 'a.pdf', type: 'application/pdf', size: 100 }, { 'Upload-Concat': 'partial' }), 501, /.+/);
    expectProblem(await create(staff, { name: 'a.pdf', type: 'application/pdf', size: 100 }, { 'Upload-Concat': 'nonsense' }), 400, /Upload-Concat/);
    // An address the server never handed out is no upload (a NUL byte in it would be refused by PostgreSQL itself).
    for (const id of ['%00', 'not-an-upload', location.split('/').pop()!.toUpperCase()]) {
      expectProblem(await patch(staff, `${TUS}/${id}`, 0, pdf(100)), 404, /No such upload/);
      expectProblem(await raw('DELETE', `${TUS}/${id}`, tusHeaders(staff)), 404, /No such upload/);
    }
    expect(offsetOf(await head(staff, location))).toBe(0);
  });
});
