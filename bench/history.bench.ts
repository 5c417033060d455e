import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../bff/db/database';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../bff/test-support/throwaway-postgres';
import { signIn, startBenchBff } from './bench-fixtures';
import { encodeCursor } from '../bff/lib/paginate';
import { bar, type Figure } from './figures';
import { fmt } from './load';
import { fillTwoYears, KEEP_THE_HISTORY, TWO_YEARS_IN_WORDS } from './two-years';

/**
 * Issue 51: every list, filter, filter choice, search, report, CSV export's first bytes and overview
 * figure that reads the history, timed on the seeded data and again after two years of a busy venue
 * (bench/two-years.ts), on both engines, signed in as the admin. One request at a time (median and
 * p95 of up to 20, after one to warm up) and at 8 connections (p99). A slow read is cut short by a
 * time budget rather than by its count, so the run stays within minutes; the printout says how many
 * requests each figure rests on. Targets (issue 51 "Done when"): median ≤ 50 ms, p99 at 8 ≤ 150 ms,
 * generation ≤ 5 minutes.
 */
const SERIAL_RUNS = 20;
const SERIAL_BUDGET_MS = 6_000;
const CONNECTIONS = 8;
const CONCURRENT_REQUESTS = 80;
const CONCURRENT_BUDGET_MS = 6_000;
const MEDIAN_TARGET_MS = 50;
const P99_TARGET_MS = 150;
const GENERATION_TARGET_S = 300;

interface Read {
  name: string;
  path: string;
  /** A CSV export: timed to its first bytes, then the download is dropped. */
  firstBytes?: boolean;
}

interface Timing {
  median: number;
  p95: number;
  p99At8: number;
  runs: number;
  runsAt8: number;
  statuses: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function readsOf(ids: Ids): Read[] {
  const now = Date.now();
  const from = day(now - 30 * 86_400_000);
  const to = day(now);
  const today = `${day(now)}T00:00:00.000Z`;
  const person = encodeURIComponent('Member 17');
  return [
    { name: 'door events, first page', path: '/api/webhook?page=0' },
    { name: 'door events, page 50', path: '/api/webhook?page=50' },
    { name: 'door events, denied', path: '/api/webhook?page=0&result=denied' },
    { name: 'door events, person "Member 17"', path: `/api/webhook?page=0&person=${person}` },
    { name: 'door events, one door', path: '/api/webhook?page=0&doorId=3' },
    { name: 'door events, last 24 hours', path: `/api/webhook?page=0&since=${encodeURIComponent(new Date(now - 86_400_000).toISOString())}` },
    { name: 'door events, filter choices', path: '/api/webhook/filters' },
    { name: 'door events CSV, first bytes', path: '/api/webhook/export.csv', firstBytes: true },
    { name: "a member's unlocks", path: '/api/webhooks/unlocks?page=0&email=history17%40members.example' },
    { name: 'visits today (overview)', path: `/api/gym/visits/count?since=${encodeURIComponent(today)}` },
    { name: 'members, first page', path: '/api/gym/users?page=0' },
    { name: 'members, search "Member 17"', path: `/api/gym/users?page=0&query=${person}` },
    { name: 'members, by last visit', path: '/api/gym/users?page=0&sort=-last_visit' },
    { name: 'members, 100 with their 4 weeks', path: '/api/gym/users?page=0&pageSize=100' },
    { name: 'members, door access never confirmed', path: '/api/gym/users?page=0&access=unconfirmed' },
    { name: 'members, door access never confirmed, by last visit', path: '/api/gym/users?page=0&access=unconfirmed&sort=-last_visit' },
    { name: "a member's attendance (12 weeks)", path: `/api/gym/users/${ids.member}/attendance` },
    // Deep in the list as its Next links reach it: the cursor of the member before the page.
    { name: 'members, page 1,500 (by its cursor)', path: `/api/gym/users?page=1500&next=${ids.memberCursor}` },
    { name: 'orders, open (runner board)', path: '/api/pt/orders?status=open' },
    { name: 'orders, served', path: '/api/pt/orders?status=served&page=0' },
    { name: 'orders, cancelled', path: '/api/pt/orders?status=cancelled&page=0' },
    { name: "a stall's kitchen tickets", path: `/api/pt/kitchen/${ids.stall}/tickets` },
    { name: "diners' menu (waits)", path: '/api/pt/menu' },
    { name: 'report, today', path: '/api/pt/reports' },
    { name: 'report, 31 days', path: `/api/pt/reports?from=${from}&to=${to}` },
    { name: 'report CSV 31 days, first bytes', path: `/api/pt/reports/export.csv?from=${from}&to=${to}`, firstBytes: true },
    { name: 'chat channels (unread, latest)', path: '/api/chat/channels' },
    { name: 'chat channel messages', path: `/api/chat/channels/${ids.channel}/messages` },
    { name: 'conversations, open', path: '/api/conversations' },
    { name: 'conversations, all', path: '/api/conversations?status=all&page=0' },
    { name: 'conversations, search "napkins"', path: '/api/conversations?status=all&query=napkins' },
    { name: 'guest messages waiting (tab count)', path: '/api/conversations/waiting' },
    { name: 'audit trail, first page', path: '/api/audit?page=0' },
    { name: 'audit trail, kind member', path: '/api/audit?page=0&kind=member' },
    { name: 'audit trail, person "Member 17"', path: `/api/audit?page=0&person=${person}` },
    { name: 'audit CSV, first bytes', path: '/api/audit/export.csv', firstBytes: true },
    { name: 'stored files, first page', path: '/api/uploads?page=0' },
    { name: "stored files, quota's use", path: '/api/uploads/limits' },
    { name: 'retention overview', path: '/api/operations/retention' },
  ];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

async function timeOnce(url: string, cookie: string, firstBytes: boolean): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const answer = await fetch(url, { headers: { cookie } });
  if (firstBytes && answer.body) {
    const reader = answer.body.getReader();
    await reader.read();
    const ms = performance.now() - started;
    await reader.cancel();
    return { ms, status: answer.status };
  }
  await answer.arrayBuffer();
  return { ms: performance.now() - started, status: answer.status };
}

async function timeRead(baseUrl: string, cookie: string, read: Read): Promise<Timing> {
  const url = `${baseUrl}${read.path}`;
  const statuses = new Set<number>();
  const firstBytes = read.firstBytes ?? false;
  statuses.add((await timeOnce(url, cookie, firstBytes)).status);
  const serial: number[] = [];
  const serialStart = performance.now();
  while (serial.length < SERIAL_RUNS && (serial.length < 5 || performance.now() - serialStart < SERIAL_BUDGET_MS)) {
    const run = await timeOnce(url, cookie, firstBytes);
    statuses.add(run.status);
    serial.push(run.ms);
  }
  const concurrent: number[] = [];
  const concurrentStart = performance.now();
  let sent = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let mine = 0; sent < CONCURRENT_REQUESTS && (mine === 0 || performance.now() - concurrentStart < CONCURRENT_BUDGET_MS); mine++) {
        sent++;
        const run = await timeOnce(url, cookie, firstBytes);
        statuses.add(run.status);
        concurrent.push(run.ms);
      }
    }),
  );
  serial.sort((a, b) => a - b);
  concurrent.sort((a, b) => a - b);
  return { median: percentile(serial, 0.5), p95: percentile(serial, 0.95), p99At8: percentile(concurrent, 0.99), runs: serial.length, runsAt8: concurrent.length, statuses: [...statuses].join('/') };
}

async function timeReads(databaseUrl: string, dir: string, reads: Read[]): Promise<Timing[]> {
  const server = await startBenchBff(databaseUrl, path.join(dir, 'static'), benchEnv(dir));
  try {
    const cookie = await signIn(server.url);
    const timings: Timing[] = [];
    for (const read of reads) timings.push(await timeRead(server.url, cookie, read));
    return timings;
  } finally {
    await server.stop();
  }
}

const benchEnv = (dir: string) => ({
  UPLOADS_DIR: path.join(dir, 'uploads'),
  CATALOGUE_IMAGE_DIR: path.join(dir, 'catalogue-images'),
  SAMPLES_IMAGE_DIR: path.join(dir, 'sample-images'),
  BACKUP_DIR: path.join(dir, 'backups'),
  ...KEEP_THE_HISTORY,
});

interface Ids {
  channel: number;
  stall: number;
  /** The member list's cursor 15,000 members in by name (as far in as there are, on the seeded data). */
  memberCursor: string;
  /** "Member 17" (history17@members.example), or the first member on the seeded data: their attendance. */
  member: number;
}

async function idsOf(database: Database): Promise<Ids> {
  const channel = (await database.db.selectFrom('chat_channels').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const stall = (await database.db.selectFrom('stalls').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const members = Number((await database.db.selectFrom('gym_users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const deep = await database.db.selectFrom('gym_users').select(['name', 'id']).orderBy('name').orderBy('id').offset(Math.min(15_000, members) - 1).limit(1).executeTakeFirstOrThrow();
  // On the seeded data (before the two years are written) Member 17 is not there yet: the first member stands in.
  const member =
    (await database.db.selectFrom('gym_users').select('id').where('email', '=', 'history17@members.example').executeTakeFirst())?.id ??
    (await database.db.selectFrom('gym_users').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  return { channel, stall, memberCursor: encodeCursor([deep.name, deep.id]), member };
}

const ms = (n: number) => (n >= 100 ? fmt(n) : fmt(n, 1));

/**
 * `HISTORY_ONLY=<regular expression>` times only the reads whose name it finds, and
 * `HISTORY_ENGINE=sqlite|postgres` only that engine: for working on a few reads. The figures for
 * docs/performance.md come from the whole bench.
 */
const only = process.env.HISTORY_ONLY ? new RegExp(process.env.HISTORY_ONLY, 'i') : undefined;
const engines = (process.env.HISTORY_ENGINE ?? 'sqlite,postgres').split(',');

async function measure(engine: string, databaseUrl: string, dir: string): Promise<Figure[]> {
  // A first start seeds the demo, as a venue's database begins.
  await (await startBenchBff(databaseUrl, path.join(dir, 'static'), benchEnv(dir))).stop();
  let database = await openDatabase(databaseUrl);
  let reads = readsOf(await idsOf(database)).filter((read) => !only || only.test(read.name));
  await database.close();

  let started = performance.now();
  const seeded = await timeReads(databaseUrl, dir, reads);
  console.log(`    the seeded data: ${reads.length} reads timed in ${fmt((performance.now() - started) / 1000, 1)} s`);

  database = await openDatabase(databaseUrl);
  started = performance.now();
  await fillTwoYears(database);
  const generation = (performance.now() - started) / 1000;
  // The same reads; a cursor names a row of the data it is read on.
  reads = readsOf(await idsOf(database)).filter((read) => !only || only.test(read.name));
  await database.close();
  console.log(`    two years of history written in ${fmt(generation, 1)} s`);

  started = performance.now();
  const history = await timeReads(databaseUrl, dir, reads);
  console.log(`    two years: ${reads.length} reads timed in ${fmt((performance.now() - started) / 1000, 1)} s\n`);

  console.log(`| ${engine}: read | seeded median | seeded p99@8 | two years median | p95 | p99@8 | runs | statuses |`);
  console.log('|---|--:|--:|--:|--:|--:|--:|---|');
  const figures: Figure[] = [bar(`${engine}: writing two years of history`, generation, 's', `≤ ${GENERATION_TARGET_S} s`, generation <= GENERATION_TARGET_S, 1)];
  reads.forEach((read, i) => {
    const before = seeded[i]!;
    const after = history[i]!;
    const flag = (n: number, target: number) => (n > target ? `**${ms(n)}**` : ms(n));
    console.log(
      `| \`${read.path}\` (${read.name}) | ${ms(before.median)} | ${ms(before.p99At8)} | ${flag(after.median, MEDIAN_TARGET_MS)} | ${ms(after.p95)} | ${flag(after.p99At8, P99_TARGET_MS)} | ${after.runs}/${after.runsAt8} | ${after.statuses === before.statuses ? after.statuses : `${before.statuses} → ${after.statuses}`} |`,
    );
    figures.push(bar(`${engine}: ${read.name}, median one at a time (seeded ${ms(before.median)} ms)`, after.median, 'ms', `≤ ${MEDIAN_TARGET_MS} ms`, after.median <= MEDIAN_TARGET_MS));
    figures.push(bar(`${engine}: ${read.name}, p99 at ${CONNECTIONS} connections (seeded ${ms(before.p99At8)} ms)`, after.p99At8, 'ms', `≤ ${P99_TARGET_MS} ms`, after.p99At8 <= P99_TARGET_MS));
  });
  const over = history.filter((t) => t.median > MEDIAN_TARGET_MS || t.p99At8 > P99_TARGET_MS).length;
  console.log(`\n    ${engine}: ${over} of ${reads.length} reads over a target (median ≤ ${MEDIAN_TARGET_MS} ms, p99@${CONNECTIONS} ≤ ${P99_TARGET_MS} ms); runs: one at a time / at ${CONNECTIONS} connections`);
  return figures;
}

export async function runHistoryBench(): Promise<Figure[]> {
  console.log(`\nhistory: every read of the history, on the seeded data and after two years (${TWO_YEARS_IN_WORDS})`);
  const benchStarted = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-history-bench-'));
  let pg: ThrowawayPostgres | undefined;
  try {
    const figures: Figure[] = [];
    if (engines.includes('sqlite')) {
      console.log('  ---- SQLite');
      figures.push(...(await measure('SQLite', `file:${path.join(dir, 'sqlite', 'frontdesk.db')}`, path.join(dir, 'sqlite'))));
    }
    if (engines.includes('postgres')) {
      console.log('  ---- PostgreSQL (throw-away cluster on this machine, fsync off)');
      try {
        pg = await startThrowawayPostgres();
      } catch (err) {
        console.log(`    skipped: ${(err as Error).message}`);
      }
    }
    if (pg) figures.push(...(await measure('PostgreSQL', pg.url, path.join(dir, 'postgres'))));
    console.log(`\n  the whole bench took ${fmt((performance.now() - benchStarted) / 60_000, 1)} min`);
    return figures;
  } finally {
    await pg?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
