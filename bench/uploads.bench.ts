import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as v from 'valibot';
import { StoredUploadSchema, TUS_PATH, UPLOAD_METADATA_KEYS, UPLOAD_STORED_HEADER, UploadLimitsSchema, type StoredUpload } from '../bff/contracts/uploads.contract';
import { addAccounts, BENCH_ADMIN, signIn, startBenchBff } from './bench-fixtures';
import { bar, info, type Figure } from './figures';
import { fmt, ratio, type ChildServer } from './load';
import * as cpu from './proc-cpu';

/** The uploads issue's figures (its DESIGN §11: "a 200 MB file through the BFF at ≥ 0.5 × writing it to disk directly, memory flat"). */
const MB = 1024 * 1024;
const FILE_MB = 200;
const FILE_BYTES = FILE_MB * MB;
const TARGET_RATIO = 0.5;
/**
 * "Flat": the BFF's resident memory during an upload rises by less than this over what it was
 * just before. A path that held the file (or the whole of one PATCH) would rise by 200 MB; one
 * that streams stays within its buffers and the garbage the collector has not come for yet.
 */
const FLAT_MB = 32;
const ROUNDS = 3;
/** The warm-up file, uploaded both ways before the rounds: the first large upload of a fresh process runs slower. */
const WARM_UP_MB = 32;
const RSS_SAMPLE_MS = 50;
/** How long after the 204 the "after" memory is read. */
const SETTLE_MS = 500;
const TUS_VERSION = '1.0.0';
/** What makes the file a PDF to the BFF's type sniff. */
const PDF_SIGNATURE = '%PDF-1.7\n';
const FILE_NAME = 'bench.pdf';
const FILE_TYPE = 'application/pdf';
const CORES = os.availableParallelism();

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));
const f2 = (n: number) => fmt(n, 2);
const mb = (bytes: number) => `${fmt(bytes / MB)} MB`;
const signedMb = (bytes: number) => `${bytes < 0 ? '−' : '+'}${fmt(Math.abs(bytes) / MB)} MB`;
const mbPerSecond = (seconds: number) => FILE_MB / seconds;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** `FILE_MB` of random bytes that start like a PDF, written to `file` and synced (so no writeback of it runs during the measurements); answers its SHA-256. */
async function writeSourceFile(file: string, megabytes: number): Promise<string> {
  const hash = crypto.createHash('sha256');
  function* blocks() {
    for (let i = 0; i < megabytes; i++) {
      const block = crypto.randomFillSync(Buffer.allocUnsafe(MB));
      if (i === 0) block.write(PDF_SIGNATURE, 0, 'latin1');
      hash.update(block);
      yield block;
    }
  }
  await pipeline(Readable.from(blocks()), fs.createWriteStream(file));
  syncFile(file);
  return hash.digest('hex');
}

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The anchor: the same file copied with a Node stream on the same filesystem, timed (with `sync`, its fsync before the clock stops). */
async function copyDirectly(source: string, target: string, sync: boolean): Promise<number> {
  const t0 = performance.now();
  await pipeline(fs.createReadStream(source), fs.createWriteStream(target));
  if (sync) syncFile(target);
  const seconds = (performance.now() - t0) / 1000;
  fs.rmSync(target, { force: true }); // before writeback: its dirty pages go with it
  return seconds;
}

/**
 * Reads a file back with a stream, timed (median of two): what the BFF does once the last byte is in
 * (`uploadsService.finish`: `fs.createReadStream` at its default 64 KB reads, into SHA-256); with
 * `hash` false the bytes are only read.
 */
async function timeReadBack(file: string, options: { hash: boolean; readBytes?: number }): Promise<number> {
  const once = async () => {
    const t0 = performance.now();
    const sink = options.hash ? crypto.createHash('sha256') : new Writable({ write: (_chunk, _encoding, callback) => callback() });
    await pipeline(fs.createReadStream(file, { highWaterMark: options.readBytes }), sink);
    return (performance.now() - t0) / 1000;
  };
  return median([await once(), await once()]);
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When the last byte of the request was handed to the socket (performance.now()). */
  sentAt: number;
  /** When the answer's status line arrived. */
  answeredAt: number;
}

/** One request with plain node:http, its body (if any) streamed from `body`. */
function send(url: string, method: string, headers: http.OutgoingHttpHeaders, agent: http.Agent, body?: Readable): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sentAt = NaN;
    const req = http.request(url, { method, headers, agent }, (res) => {
      const answeredAt = performance.now();
      if ((res.statusCode ?? 0) >= 400 && body) {
        // Refused part-way: stop sending the rest.
        body.unpipe(req);
        body.destroy();
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, sentAt, answeredAt }));
      res.on('error', reject);
    });
    req.on('finish', () => (sentAt = performance.now()));
    req.on('error', reject);
    if (body) {
      body.on('error', (err) => req.destroy(err));
      body.pipe(req);
    } else {
      req.end();
    }
  });
}

const metadata = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

interface Uploaded {
  /** From the creation POST to the final PATCH's 204. */
  seconds: number;
  /** From the last byte sent to the final 204: the BFF finishing the bytes it still had, then its SHA-256 re-read of the file, the move into place and the rows. */
  tailMs: number;
  patches: number;
  /** Per PATCH but the last: from its last byte sent to its 204 (the BFF draining the socket, ending the write, its bookkeeping). */
  patchTailsMs: number[];
  stored: StoredUpload;
}

/**
 * Uploads a file over tus as a client does: a creation POST (its name and type in
 * Upload-Metadata), then PATCHes of `chunkBytes` each (the whole file in one when `chunkBytes`
 * is at least its size), each streamed from disk. Answers the time and the stored file the last
 * PATCH reported (header Upload-Stored).
 */
async function tusUpload(baseUrl: string, cookie: string, agent: http.Agent, file: string, size: number, chunkBytes: number): Promise<Uploaded> {
  const t0 = performance.now();
  const tus = { cookie, 'Tus-Resumable': TUS_VERSION };
  const created = await send(`${baseUrl}${TUS_PATH}`, 'POST', { ...tus, 'Upload-Length': String(size), 'Upload-Metadata': metadata({ [UPLOAD_METADATA_KEYS.name]: FILE_NAME, [UPLOAD_METADATA_KEYS.type]: FILE_TYPE }) }, agent);
  const location = created.headers.location;
  if (created.status !== 201 || !location) throw new Error(`uploads bench: the creation POST answered ${created.status} ${created.body}`);
  let offset = 0;
  let last: Answer | undefined;
  let patches = 0;
  const patchTailsMs: number[] = [];
  while (offset < size) {
    if (last) patchTailsMs.push(last.answeredAt - last.sentAt);
    const length = Math.min(chunkBytes, size - offset);
    last = await send(
      new URL(location, baseUrl).href,
      'PATCH',
      { ...tus, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(length) },
      agent,
      fs.createReadStream(file, { start: offset, end: offset + length - 1 }),
    );
    patches++;
    offset += length;
    if (last.status !== 204 || last.headers['upload-offset'] !== String(offset)) {
      throw new Error(`uploads bench: PATCH ${patches} (to offset ${offset}) answered ${last.status}, Upload-Offset ${String(last.headers['upload-offset'])}: ${last.body}`);
    }
  }
  if (!last) throw new Error('uploads bench: nothing to upload');
  const seconds = (last.answeredAt - t0) / 1000;
  const header = last.headers[UPLOAD_STORED_HEADER.toLowerCase()];
  if (typeof header !== 'string') throw new Error(`uploads bench: the last PATCH carried no ${UPLOAD_STORED_HEADER} header`);
  const stored = v.parse(StoredUploadSchema, JSON.parse(decodeURIComponent(header)));
  return { seconds, tailMs: last.answeredAt - last.sentAt, patches, patchTailsMs, stored };
}

/** The BFF's VmRSS, sampled every RSS_SAMPLE_MS while `work` runs: just before, the highest seen during it, and SETTLE_MS after. */
async function watchingMemory<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; memory?: { before: number; peak: number; after: number } }> {
  if (!cpu.available) return { result: await work() };
  const rss = () => cpu.memoryOf(pid)?.rssBytes ?? 0;
  const before = rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), RSS_SAMPLE_MS);
  let result: T;
  try {
    result = await work();
    peak = Math.max(peak, rss());
  } finally {
    clearInterval(timer);
  }
  await sleep(SETTLE_MS);
  return { result, memory: { before, peak, after: rss() } };
}

interface Measured {
  uploaded: Uploaded;
  memory?: { before: number; peak: number; after: number };
  /** CPU seconds over the upload: the BFF's and this process's (the client). */
  cpu?: { bff: number; self: number };
  shaMatches: boolean;
}

async function measureUpload(bff: ChildServer, cookie: string, agent: http.Agent, file: string, sourceSha256: string, chunkBytes: number): Promise<Measured> {
  const cpuBefore = cpu.available ? { bff: cpu.processCpuSeconds(bff.pid), self: cpu.selfCpuSeconds() } : undefined;
  const { result: uploaded, memory } = await watchingMemory(bff.pid, () => tusUpload(bff.url, cookie, agent, file, FILE_BYTES, chunkBytes));
  const cpuUsed = cpuBefore && { bff: cpu.processCpuSeconds(bff.pid) - cpuBefore.bff, self: cpu.selfCpuSeconds() - cpuBefore.self };
  await removeStored(bff.url, cookie, uploaded.stored.id);
  const end = bff.ended();
  if (end) throw new Error(`uploads bench: the BFF (pid ${bff.pid}) ended: ${end}; its output:\n${bff.output.join('\n')}`);
  return { uploaded, memory, cpu: cpuUsed, shaMatches: uploaded.stored.sha256 === sourceSha256 && uploaded.stored.size === FILE_BYTES };
}

/** Deletes a stored file, so each upload moves a new file into place (not a copy the BFF already has) and the quota stays free. */
async function removeStored(baseUrl: string, cookie: string, id: number): Promise<void> {
  const answer = await fetch(`${baseUrl}/api/uploads/${id}`, { method: 'DELETE', headers: { cookie } });
  if (answer.status !== 204) throw new Error(`uploads bench: DELETE /api/uploads/${id} answered ${answer.status} ${await answer.text()}`);
}

function summarise(title: string, runs: Measured[], anchorSeconds: number) {
  const seconds = median(runs.map((r) => r.uploaded.seconds));
  const speed = mbPerSecond(seconds);
  const r = ratio(speed, mbPerSecond(anchorSeconds));
  const growth = runs.flatMap((run) => (run.memory ? [run.memory.peak - run.memory.before] : []));
  return { title, runs, seconds, speed, ratio: r, tailMs: median(runs.map((run) => run.uploaded.tailMs)), worstGrowth: growth.length ? Math.max(...growth) : undefined };
}

/**
 * The uploads target, "a 200 MB file through the BFF at ≥ 0.5 × writing it to disk directly,
 * memory flat": the BFF on SQLite in its own process with UPLOADS_DIR in a temporary directory; a
 * 200 MB PDF-looking file uploaded over tus from this process in 8 MB PATCHes (as the browser
 * client does) and in one PATCH, each against the same file copied with a Node stream on the same
 * filesystem, rounds interleaved.
 */
export async function runUploadsBench(): Promise<Figure[]> {
  const started = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-uploads-bench-'));
  const source = path.join(dir, 'source.pdf');
  const copy = path.join(dir, 'direct-copy.pdf');
  const uploadsDir = path.join(dir, 'uploads');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let bff: ChildServer | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaned ??= (async () => {
      agent.destroy();
      await bff?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    })());
  const onSignal = (signal: NodeJS.Signals) => void cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const databaseUrl = `file:${path.join(dir, 'uploads.db')}`;
    const staff = { email: 'uploads-bench@frontdesk.test', password: BENCH_ADMIN.password, name: 'Bench uploader', role: 'staff' as const };
    const [sourceSha256] = await Promise.all([writeSourceFile(source, FILE_MB), addAccounts(databaseUrl, [staff])]);

    bff = await startBenchBff(databaseUrl, dir, {
      UPLOADS_DIR: uploadsDir,
      UPLOAD_MAX_FILE_MB: String(FILE_MB * 2),
      UPLOAD_QUOTA_MB: String(FILE_MB * 20),
    });
    const server = bff;
    const cookie = await signIn(server.url, staff);
    const limitsAnswer = await fetch(`${server.url}/api/uploads/limits`, { headers: { cookie } });
    if (!limitsAnswer.ok) throw new Error(`uploads bench: GET /api/uploads/limits answered ${limitsAnswer.status}`);
    const { chunkBytes } = v.parse(UploadLimitsSchema, await limitsAnswer.json());

    // Warm-up: a smaller file the same two ways, checked whole, before anything is measured.
    const rssAtStart = cpu.memoryOf(server.pid)?.rssBytes;
    const small = path.join(dir, 'warm-up.pdf');
    const smallSha256 = await writeSourceFile(small, WARM_UP_MB);
    for (const size of [chunkBytes, WARM_UP_MB * MB]) {
      const warm = await tusUpload(server.url, cookie, agent, small, WARM_UP_MB * MB, size);
      if (warm.stored.sha256 !== smallSha256) throw new Error(`uploads bench: the warm-up file was stored as ${warm.stored.sha256}, its SHA-256 is ${smallSha256}`);
      await removeStored(server.url, cookie, warm.stored.id);
    }
    fs.rmSync(small);
    await sleep(300);
    await copyDirectly(source, copy, false); // warms the anchor's path too: its first copy runs slower

    const anchor: number[] = [];
    const chunked: Measured[] = [];
    const whole: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      anchor.push(await copyDirectly(source, copy, false));
      chunked.push(await measureUpload(server, cookie, agent, source, sourceSha256, chunkBytes));
      whole.push(await measureUpload(server, cookie, agent, source, sourceSha256, FILE_BYTES));
    }
    // For scale, not the anchor: the same copy when it has to reach the disk (the BFF does not fsync).
    const anchorSynced = await copyDirectly(source, copy, true);
    const readBack = {
      hashed: await timeReadBack(source, { hash: true }),
      readOnly: await timeReadBack(source, { hash: false }),
      hashedLargeReads: await timeReadBack(source, { hash: true, readBytes: MB }),
    };

    const anchorSeconds = median(anchor);
    const anchorSpeed = mbPerSecond(anchorSeconds);
    const results = [summarise(`tus, ${fmt(chunkBytes / MB)} MB PATCHes (${chunked[0]!.uploaded.patches} of them)`, chunked, anchorSeconds), summarise('tus, one PATCH of the whole file', whole, anchorSeconds)];
    const list = (values: number[]) => values.map((s) => f2(s)).join(', ');

    console.log(
      `\nUploads: a ${FILE_MB} MB PDF through the BFF vs writing it to disk directly (SQLite; UPLOADS_DIR and the direct copy in one temporary directory on the same filesystem; the BFF in its own process, the tus client in this one; ${ROUNDS} interleaved rounds, medians; ${CORES} cores)`,
    );
    console.log(`  Neither path fsyncs: the BFF's tus file store and its move into place do not, so the anchor does not either; both end in the page cache.`);
    console.log(`  anchor: fs.createReadStream → fs.createWriteStream  ${fmt(anchorSpeed).padStart(5)} MB/s   ${f2(anchorSeconds)} s (rounds ${list(anchor)} s)`);
    console.log(`          the same with fsync at the end          ${fmt(mbPerSecond(anchorSynced)).padStart(5)} MB/s   ${f2(anchorSynced)} s (for scale only: what reaching the disk costs here)`);
    for (const r of results) {
      console.log(`  ${r.title}`);
      console.log(
        `    ${fmt(r.speed).padStart(5)} MB/s   ${f2(r.seconds)} s from the creation POST to the last PATCH's 204 (rounds ${list(r.runs.map((run) => run.uploaded.seconds))} s); ratio ${f2(r.ratio)} (target ≥ ${f2(TARGET_RATIO)}): ${r.ratio >= TARGET_RATIO ? 'met' : 'not met'}`,
      );
      console.log(`    last byte sent → 204: ${fmt(r.tailMs)} ms (median): the BFF's SHA-256 re-read of the file, the move into place and its rows`);
      const memories = r.runs.flatMap((run) => (run.memory ? [run.memory] : []));
      if (memories.length > 0) {
        const at = (pick: (m: { before: number; peak: number; after: number }) => number) => median(memories.map(pick));
        console.log(
          `    BFF memory (VmRSS, every ${RSS_SAMPLE_MS} ms): before ${mb(at((m) => m.before))}, peak during ${mb(at((m) => m.peak))} (${signedMb(at((m) => m.peak - m.before))}), ${SETTLE_MS} ms after ${mb(at((m) => m.after))}; per round peak − before ${memories.map((m) => signedMb(m.peak - m.before)).join(', ')}`,
        );
      }
      const cpus = r.runs.flatMap((run) => (run.cpu ? [{ ...run.cpu, wall: run.uploaded.seconds }] : []));
      if (cpus.length > 0) {
        const bffSeconds = median(cpus.map((c) => c.bff));
        console.log(
          `    CPU: BFF ${f2(median(cpus.map((c) => c.bff / c.wall)))} cores busy (${f2(bffSeconds)} s, ${fmt((bffSeconds * 1000) / FILE_MB, 1)} ms per MB), this process (the client) ${f2(median(cpus.map((c) => c.self / c.wall)))} of ${CORES}`,
        );
      }
    }
    const rssAtEnd = cpu.memoryOf(server.pid)?.rssBytes;
    if (rssAtStart !== undefined && rssAtEnd !== undefined) {
      console.log(`  BFF memory over the whole bench: ${mb(rssAtStart)} once started (before the ${WARM_UP_MB} MB warm-up), ${mb(rssAtEnd)} after ${fmt(2 + 2 * ROUNDS)} uploads (${signedMb(rssAtEnd - rssAtStart)})`);
    }
    const all = [...chunked, ...whole];
    const matching = all.filter((m) => m.shaMatches).length;
    console.log(`  SHA-256 in Upload-Stored = the source's (${sourceSha256.slice(0, 16)}…, ${fmt(FILE_BYTES)} bytes): ${matching === all.length ? 'yes' : 'NO'}, ${matching} of ${all.length} uploads`);

    // Where the time goes beyond the copy: the BFF writes the bytes as they come, then reads the whole file back to hash it.
    const ms = (seconds: number) => `${fmt(seconds * 1000)} ms`;
    console.log(`  Where the time goes: once the last byte is in, the BFF reads the whole file back for its SHA-256 (uploadsService.finish). Here, in this process, from the page cache:`);
    console.log(
      `    read back + SHA-256 as finish does it (64 KB stream reads) ${ms(readBack.hashed)} = reading ${ms(readBack.readOnly)} + hashing ~${ms(readBack.hashed - readBack.readOnly)}; with 1 MB reads ${ms(readBack.hashedLargeReads)}`,
    );
    for (const r of results) {
      const streamed = Math.max(r.seconds - r.tailMs / 1000, 1e-9);
      console.log(
        `    ${r.title}: ${f2(streamed)} s until every byte was sent (${fmt(mbPerSecond(streamed))} MB/s, ${f2(ratio(mbPerSecond(streamed), anchorSpeed))} of the anchor), then ${fmt(r.tailMs)} ms until the 204 (${fmt((r.tailMs / 1000 / r.seconds) * 100)}% of the upload)`,
      );
      const tails = r.runs.flatMap((run) => run.uploaded.patchTailsMs);
      if (tails.length > 0) {
        const perPatch = median(tails);
        const patches = r.runs[0]!.uploaded.patches - 1;
        console.log(`      each PATCH before the last: last byte sent → 204 in ${fmt(perPatch, 1)} ms (median), ${fmt(perPatch * patches)} ms over ${patches} of them (the BFF draining what the socket still held, ending the write, its bookkeeping; nothing new is sent meanwhile)`);
      }
    }

    const headline: Figure[] = results.flatMap((r) => [
      info(`${r.title}: speed`, r.speed, 'MB/s'),
      bar(`${r.title}: ratio to a disk copy (${fmt(anchorSpeed)} MB/s)`, r.ratio, '×', `≥ ${f2(TARGET_RATIO)}`, r.ratio >= TARGET_RATIO),
    ]);
    const ratioMet = results.every((r) => r.ratio >= TARGET_RATIO);
    console.log(`  ≥ ${f2(TARGET_RATIO)}: ${ratioMet ? 'met' : 'not met'} (${results.map((r) => `${f2(r.ratio)} ${r === results[0] ? 'chunked' : 'one PATCH'}`).join(', ')})`);
    if (!ratioMet) {
      const share = Math.max(...results.map((r) => r.tailMs / 1000 / r.seconds));
      if (share > 0.2) console.log(`    up to ${fmt(share * 100)}% of an upload is the wait after its last byte (the re-read above): hashing the bytes as the file store writes them would take it out of the wait`);
    }
    const growths = results.flatMap((r) => (r.worstGrowth === undefined ? [] : [r.worstGrowth]));
    const firstBefore = all.find((m) => m.memory)?.memory?.before;
    if (growths.length > 0 && firstBefore !== undefined && rssAtEnd !== undefined) {
      const worst = Math.max(...growths);
      const drift = rssAtEnd - firstBefore;
      const flat = worst < FLAT_MB * MB && drift < FLAT_MB * MB;
      headline.push(bar(`BFF memory: peak − start at worst over ${all.length} uploads of ${FILE_MB} MB`, worst / MB, 'MB', `< +${FLAT_MB} MB (flat)`, flat));
      console.log(
        `  memory flat: ${flat ? 'yes' : 'no'} (peak − start ${signedMb(worst)} at worst over ${all.length} uploads of ${FILE_MB} MB, ${signedMb(drift)} from before the first to after the last; flat = both under +${FLAT_MB} MB)`,
      );
    } else {
      console.log('  memory flat: unknown (no /proc to read VmRSS from)');
    }
    return headline;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await cleanUp();
    console.log(`  (uploads bench: ${fmt((performance.now() - started) / 1000)} s)`);
  }
}
