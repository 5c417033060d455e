import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Menu } from '../bff/contracts/pt.contract';
import { TUS_PATH, UPLOAD_METADATA_KEYS } from '../bff/contracts/uploads.contract';
import { signIn, startBenchBff } from './bench-fixtures';
import { openEventStream, type EventStreamClient } from './event-stream-client';
import { bar, info, type Figure } from './figures';
import { fmt, startChildServer, type ChildServer } from './load';
import * as cpu from './proc-cpu';

/** Issue 34 item 6: twenty minutes of mixed use; SOAK_MINUTES shortens a run while working on it. */
const MINUTES = Number(process.env.SOAK_MINUTES ?? 20);
/**
 * The first quarter of the run fills caches, pools, JIT code and the allocator's arenas: growth is
 * measured from its end. (The first 20-minute run rose until about minute 6 and then held within
 * 3 %: measured from minute 3, it would have counted the filling as growth.)
 */
const WARM_UP_MINUTES = Math.max(1, Math.floor(MINUTES / 4));
const TARGET_GROWTH = 0.1;
const SAMPLE_MS = 60_000;
const METRICS_TOKEN = crypto.randomBytes(24).toString('base64url');
const MB = 1024 * 1024;
const UPLOAD_BYTES = 256 * 1024;
const PDF_SIGNATURE = '%PDF-1.7\n';
/** How many event streams are open at once; each closes after 5–30 s and another opens. */
const STREAMS = 20;
const ORDER_NOTES = ['no chilli', 'extra sauce', 'no ice'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => fmt(bytes / MB, 1);

/** What one loop of the traffic did, by what it asked for. */
type Tally = Map<string, { ok: number; failed: number; lastFailure?: string }>;

interface Sample {
  minute: number;
  rssBytes: number;
  heapUsedBytes: number;
  requests: number;
}

/** The BFF's heap in use, from its own /metrics (prom-client's `nodejs_heap_size_used_bytes`). */
async function heapUsed(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const match = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text);
  if (!match) throw new Error('soak bench: /metrics has no nodejs_heap_size_used_bytes');
  return Number(match[1]);
}

/** The resting RSS of a process 5 s after it started (nothing asked of it yet). */
async function restingRss(server: ChildServer): Promise<number> {
  await sleep(5_000);
  return cpu.memoryOf(server.pid)?.rssBytes ?? NaN;
}

/**
 * The mixed use the BFF sees in a day, each kind in a loop of its own at a pace a venue gives it:
 * lists read by the desk (members, the board, chat, catalogue, audit), diners' orders, staff chat,
 * door unlocks through the Kisi emulator (their webhooks come back into the BFF), event streams
 * opening and closing, and small uploads over tus, each deleted again.
 */
function traffic(url: string, cookie: string, menu: Menu, until: () => boolean, tally: Tally) {
  const count = (what: string, ok: boolean, failure?: string) => {
    const entry = tally.get(what) ?? { ok: 0, failed: 0 };
    if (ok) {
      entry.ok++;
    } else {
      entry.failed++;
      entry.lastFailure = failure;
    }
    tally.set(what, entry);
  };
  const call = async (what: string, pathname: string, init: RequestInit = {}, expect = [200]) => {
    try {
      const res = await fetch(`${url}${pathname}`, { ...init, headers: { cookie, ...(init.body && typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}), ...init.headers } });
      const body = await res.text();
      count(what, expect.includes(res.status), `${res.status} ${body.slice(0, 200)}`);
      return { status: res.status, body, headers: res.headers };
    } catch (err) {
      count(what, false, String(err));
      return undefined;
    }
  };
  const loop = async (pauseMs: number, work: (n: number) => Promise<unknown>) => {
    for (let n = 0; !until(); n++) {
      await work(n);
      await sleep(pauseMs);
    }
  };
  const lists = ['/api/gym/users?pageSize=50', '/api/pt/orders?status=open', '/api/chat/channels/1/messages', '/api/rest/pieces?query=house', '/api/audit', '/api/uploads', '/api/webhooks/unlocks?email=alice.moreau%40mail.example', '/api/pt/menu'];
  const items = menu.stalls.filter((stall) => stall.availability.state === 'open').flatMap((stall) => stall.items.filter((item) => !item.soldOut).map((item) => item.id));
  const tag = crypto.randomBytes(4).toString('hex');
  const upload = Buffer.concat([Buffer.from(PDF_SIGNATURE, 'latin1'), crypto.randomBytes(UPLOAD_BYTES - PDF_SIGNATURE.length)]);
  const meta = `${UPLOAD_METADATA_KEYS.name} ${Buffer.from('soak.pdf').toString('base64')},${UPLOAD_METADATA_KEYS.type} ${Buffer.from('application/pdf').toString('base64')}`;
  const streams = new Set<EventStreamClient>();

  return Promise.all([
    // Lists: the desk's pages, about 20 reads a second.
    loop(50, (n) => call(`GET ${lists[n % lists.length]!.split('?')[0]}`, lists[n % lists.length]!)),
    // Orders: five a second, a fresh Idempotency-Key each.
    loop(200, (n) =>
      call(
        'POST /api/pt/order',
        '/api/pt/order',
        {
          method: 'POST',
          headers: { 'idempotency-key': `soak-${tag}-${n}` },
          body: JSON.stringify({ table: 1 + (n % menu.tables), cart: [{ itemId: items[n % items.length]!, quantity: 1 + (n % 2), note: ORDER_NOTES[n % 3] }] }),
        },
        [201],
      ),
    ),
    // Chat: two messages a second in the first channel.
    loop(500, (n) => call('POST /api/chat/channels/1/messages', '/api/chat/channels/1/messages', { method: 'POST', body: JSON.stringify({ body: `Soak message ${n}: the delivery is at the side door.` }) }, [201])),
    // Door events: an unlock a second at the emulator; its webhook comes back into the BFF.
    loop(1_000, () => call('POST /api/kisi-emulator/unlocks', '/api/kisi-emulator/unlocks', { method: 'POST', body: JSON.stringify({ email: 'alice.moreau@mail.example' }) })),
    // Streams: STREAMS open at once, each kept 5–30 s.
    ...Array.from({ length: STREAMS }, () =>
      loop(100, async () => {
        try {
          const stream = await openEventStream(`${url}/api/events`, { cookie }, () => undefined, 'a soak stream');
          streams.add(stream);
          await sleep(5_000 + Math.random() * 25_000);
          stream.close();
          streams.delete(stream);
          count('GET /api/events (stream)', true);
        } catch (err) {
          count('GET /api/events (stream)', false, String(err));
          await sleep(1_000);
        }
      }),
    ),
    // Uploads: a 256 kB file over tus every 5 s, then deleted (the quota stays free).
    loop(5_000, async () => {
      const created = await call('POST tus (create)', TUS_PATH, { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': String(UPLOAD_BYTES), 'upload-metadata': meta } }, [201]);
      const location = created?.headers.get('location');
      if (!location) return;
      const patched = await call(
        'PATCH tus',
        new URL(location, url).pathname,
        { method: 'PATCH', headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: upload },
        [204],
      );
      const stored = patched?.headers.get('upload-stored');
      if (stored) {
        const { id } = JSON.parse(decodeURIComponent(stored)) as { id: number };
        await call('DELETE /api/uploads/:id', `/api/uploads/${id}`, { method: 'DELETE' }, [204]);
      }
    }),
  ]).finally(() => {
    for (const stream of streams) stream.close();
  });
}

/**
 * "Memory that stays flat" (issue 34 item 6): the BFF on SQLite in its own process under MINUTES of
 * mixed use, its RSS (/proc) and heap in use (its /metrics) every minute; after the warm-up RSS may
 * grow by at most 10 %. Beside it, the resting RSS of a fresh instance and of a bare Express process.
 */
export async function runSoakBench(): Promise<Figure[]> {
  if (!cpu.available) throw new Error('soak bench: needs /proc to read the server’s memory');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-soak-'));
  const env = { METRICS_TOKEN, UPLOADS_DIR: path.join(dir, 'uploads'), ORDERS_PER_MINUTE: '100000', MESSAGES_PER_MINUTE: '100000' };
  let bff: ChildServer | undefined;
  try {
    const bare = await startChildServer('bench/bare-express.server.ts', {});
    const bareRss = await restingRss(bare);
    await bare.stop();
    bff = await startBenchBff(`file:${path.join(dir, 'soak.db')}`, path.join(dir, 'static'), env);
    const freshRss = await restingRss(bff);
    const cookie = await signIn(bff.url);
    const menu = (await (await fetch(`${bff.url}/api/pt/menu`)).json()) as Menu;

    const tally: Tally = new Map();
    const ends = performance.now() + MINUTES * 60_000;
    const samples: Sample[] = [];
    const running = traffic(bff.url, cookie, menu, () => performance.now() >= ends, tally);
    console.log(`\nA soak of ${MINUTES} min (SQLite; mixed use: lists, orders, chat, door events, ${STREAMS} event streams opening and closing, uploads)`);
    console.log('  minute   RSS MB   heap MB   requests');
    for (let minute = 1; minute <= MINUTES; minute++) {
      await sleep(Math.max(0, ends - (MINUTES - minute) * SAMPLE_MS - performance.now()));
      const end = bff.ended();
      if (end) throw new Error(`soak bench: the BFF ended in minute ${minute}: ${end}\n${bff.output.slice(-20).join('\n')}`);
      const requests = [...tally.values()].reduce((sum, t) => sum + t.ok + t.failed, 0);
      const sample = { minute, rssBytes: cpu.memoryOf(bff.pid)?.rssBytes ?? NaN, heapUsedBytes: await heapUsed(bff.url), requests };
      samples.push(sample);
      console.log(`  ${String(minute).padStart(6)} ${mb(sample.rssBytes).padStart(8)} ${mb(sample.heapUsedBytes).padStart(9)} ${fmt(requests - (samples.at(-2)?.requests ?? 0)).padStart(10)}`);
    }
    await running;

    const failures = [...tally].filter(([, t]) => t.failed > 0);
    for (const [what, t] of [...tally].sort()) console.log(`  ${what.padEnd(48)} ${fmt(t.ok).padStart(7)} ok${t.failed ? `, ${fmt(t.failed)} failed (last: ${t.lastFailure})` : ''}`);
    const base = samples[WARM_UP_MINUTES - 1]!;
    const last = samples.at(-1)!;
    const growth = last.rssBytes / base.rssBytes - 1;
    const heapGrowth = last.heapUsedBytes / base.heapUsedBytes - 1;
    const met = growth <= TARGET_GROWTH;
    console.log(
      `  RSS after the ${WARM_UP_MINUTES}-minute warm-up ${mb(base.rssBytes)} MB, at the end ${mb(last.rssBytes)} MB: ${growth >= 0 ? '+' : ''}${fmt(growth * 100, 1)} % (target ≤ +${TARGET_GROWTH * 100} %) ${met ? 'met' : 'MISSED'}; heap ${mb(base.heapUsedBytes)} → ${mb(last.heapUsedBytes)} MB`,
    );
    console.log(`  Resting RSS: a fresh instance ${mb(freshRss)} MB, a bare Express process ${mb(bareRss)} MB`);
    if (failures.length > 0) throw new Error(`soak bench: requests failed: ${failures.map(([what, t]) => `${what} ×${t.failed} (${t.lastFailure})`).join('; ')}`);
    return [
      bar(`RSS growth after the ${WARM_UP_MINUTES}-minute warm-up, ${MINUTES} min of mixed use`, growth * 100, '%', `≤ ${TARGET_GROWTH * 100} %`, met, 1),
      info('RSS after the warm-up', base.rssBytes / MB, 'MB', 1),
      info('RSS at the end', last.rssBytes / MB, 'MB', 1),
      info('heap in use, growth after the warm-up', heapGrowth * 100, '%', 1),
      info('resting RSS of a fresh instance', freshRss / MB, 'MB', 1),
      info('resting RSS of a bare Express process', bareRss / MB, 'MB', 1),
      info('requests answered', last.requests, 'requests'),
    ];
  } finally {
    await bff?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
