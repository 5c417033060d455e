import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '../bff/contracts/common.contract';
import type { Menu, Order, PlacedOrder } from '../bff/contracts/pt.contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../bff/test-support/throwaway-postgres';
import { signIn, startBenchBff } from './bench-fixtures';
import { openEventStream, type EventStreamClient } from './event-stream-client';
import { bar, info, type Figure } from './figures';
import { fmt, load, type ChildServer } from './load';
import * as cpu from './proc-cpu';

/** Issue 33 item 9: lunch at a food court. */
const TABLES = 40;
const ORDERS_PER_SECOND = 10;
/** Two minutes as the issue says; RUSH_SECONDS shortens a run while working on it. */
const RUSH_SECONDS = Number(process.env.RUSH_SECONDS ?? 120);
const BACKLOG = 10_000;
const BOARD_CONNECTIONS = 50;
/** Orders placed side by side while the backlog is built (not measured). */
const BACKLOG_CONNECTIONS = 20;
const TARGET_EVENT_P99_MS = 100;
const TARGET_BOARD_P99_MS = 50;
/** "Memory flat": the BFF's resident memory at the end of the rush within this of the rush's first minute's. */
const MEMORY_GROWTH_ALLOWED = 1.25;
const RSS_SAMPLE_MS = 5_000;
/**
 * How long a diner follows their order before leaving (their stream closes). Orders are not served in
 * the rush, so without it every diner would stay to the end and open streams would only grow: from the
 * first minute on about 600 stay open, and "flat" compares the BFF at the same load, not 600 streams with 1,200.
 */
const DINER_STAYS_MS = 60_000;
/** How long events of the last orders may take to arrive before they count as lost. */
const SETTLE_MS = 3_000;

const OPEN_PATH = '/api/pt/orders?status=open';
/** The page the runner board asks for (client/features/pt/pt.api.ts BOARD_PAGE_SIZE): the bench reads what the browser reads. */
const BOARD_PAGE = 100;

interface Rush {
  placed: number;
  refused: number;
  lost: number;
  twice: number;
  /** Order → runner board: when the POST was sent to when the board's stream had the order. */
  boardMs: number[];
  /** Order → each stall screen it has dishes for. */
  stallMs: number[];
  stallMissed: number;
  /** Diners' streams still open when the rush ended (those who had not left yet). */
  dinerStreams: number;
  dinerMissed: number;
  rssFirstMinute: number;
  rssEnd: number;
  openInDatabase: number;
  openBefore: number;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function readJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`rush bench: ${init.method ?? 'GET'} ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** An order's marker, in its first line's note ("no chilli · rush-1a2b-17"): how a stream's event is matched to the POST that placed it. */
const markerOf = (order: Order, pattern: RegExp) => {
  for (const line of order.lines) {
    const n = Number(pattern.exec(line.note ?? '')?.[1] ?? NaN);
    if (Number.isInteger(n)) return n;
  }
  return NaN;
};

/**
 * The rush against one BFF: the runner board's stream and five stall screens' streams open (each an
 * `/api/events` stream, as the pages open them), then diners at 40 tables place 10 orders a second,
 * each from two stalls, each diner then following their order on its own stream, for RUSH_SECONDS.
 */
async function rush(bff: ChildServer, cookie: string): Promise<Rush> {
  const menu = await readJson<Menu>(`${bff.url}/api/pt/menu`);
  const stalls = menu.stalls.filter((stall) => stall.availability.state === 'open').map((stall) => ({ id: stall.id, items: stall.items.filter((item) => !item.soldOut).map((item) => item.id) })).filter((s) => s.items.length > 0);
  if (stalls.length < 2) throw new Error(`rush bench: the demo menu has ${stalls.length} stalls with dishes; a two-stall order needs 2`);
  const openBefore = (await readJson<Page<Order>>(`${bff.url}${OPEN_PATH}&pageSize=1`, { headers: { cookie } })).total;

  const total = RUSH_SECONDS * ORDERS_PER_SECOND;
  const tag = crypto.randomBytes(3).toString('hex');
  const pattern = new RegExp(`rush-${tag}-(\\d+)`);
  const sentAt = new Float64Array(total).fill(NaN);
  const boardAt = new Float64Array(total).fill(NaN);
  const boardSeen = new Uint8Array(total);
  const stallsOf: number[][] = Array.from({ length: total }, () => []);
  const stallAt = new Map<number, Float64Array>(stalls.map((s) => [s.id, new Float64Array(total).fill(NaN)]));
  let twice = 0;

  const onOrder = (data: string, at: number, stallId?: number) => {
    const order = JSON.parse(data) as Order;
    if (order.status !== 'received') return;
    const n = markerOf(order, pattern);
    if (!Number.isInteger(n) || n >= total) return;
    if (stallId === undefined) {
      // The board: a new order is announced once; a second `received` of it would be an order twice.
      if (boardSeen[n]! > 0 && order.tickets.every((t) => t.status === 'received')) twice++;
      boardSeen[n] = 1;
      if (Number.isNaN(boardAt[n]!)) boardAt[n] = at;
    } else if (order.lines.some((line) => line.stallId === stallId)) {
      const seen = stallAt.get(stallId)!;
      if (Number.isNaN(seen[n]!)) seen[n] = at;
    }
  };
  const streams: EventStreamClient[] = [];
  const events = `${bff.url}/api/events`;
  streams.push(await openEventStream(events, { cookie }, (type, data, at) => type === 'order' && onOrder(data, at), 'the runner board'));
  for (const stall of stalls.slice(0, 5)) {
    streams.push(await openEventStream(events, { cookie }, (type, data, at) => type === 'order' && onOrder(data, at, stall.id), `stall ${stall.id}'s screen`));
  }

  let placed = 0;
  let refused = 0;
  let dinerMissed = 0;
  let dinersLeft = 0;
  const dinerStreams: EventStreamClient[] = [];
  const leaving: NodeJS.Timeout[] = [];
  const rss: Array<{ at: number; bytes: number }> = [];
  const started = performance.now();
  const sampler = setInterval(() => rss.push({ at: performance.now() - started, bytes: cpu.memoryOf(bff.pid)?.rssBytes ?? NaN }), RSS_SAMPLE_MS);
  const pick = <T>(list: readonly T[]) => list[crypto.randomInt(list.length)]!;

  const placeOne = async (n: number) => {
    const [a, b] = crypto.randomInt(2) === 0 ? [stalls[n % stalls.length]!, stalls[(n + 1) % stalls.length]!] : [stalls[(n + 2) % stalls.length]!, stalls[(n + 3) % stalls.length]!];
    stallsOf[n] = [a.id, b.id].filter((id) => stallAt.has(id));
    const body = JSON.stringify({
      table: 1 + (n % TABLES),
      cart: [
        { itemId: pick(a.items), quantity: 1 + crypto.randomInt(2), note: `no chilli · rush-${tag}-${n}` },
        { itemId: pick(b.items), quantity: 1 },
      ],
    });
    sentAt[n] = performance.now();
    const res = await fetch(`${bff.url}/api/pt/order`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `rush-${tag}-${n}` } });
    if (res.status !== 201) {
      refused++;
      await res.text();
      return;
    }
    placed++;
    const order = (await res.json()) as PlacedOrder;
    // The diner follows their order on its stream for a minute, then leaves.
    try {
      const stream = await openEventStream(`${bff.url}/api/pt/orders/${order.id}/stream?token=${encodeURIComponent(order.token)}`, {}, () => {}, 'a diner');
      dinerStreams.push(stream);
      leaving.push(
        setTimeout(() => {
          if (stream.ended()) return;
          stream.close();
          dinersLeft++;
        }, DINER_STAYS_MS),
      );
    } catch {
      dinerMissed++;
    }
  };

  // 10 a second, on the clock (not one after another): a slow answer does not slow the diners down.
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / ORDERS_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(placeOne(n));
  }
  await Promise.all(inFlight);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  clearInterval(sampler);
  for (const timer of leaving) clearTimeout(timer);
  const dinersOpen = dinerStreams.length - dinersLeft;
  const ended = [...streams, ...dinerStreams].map((s) => s.ended()).filter(Boolean);
  if (ended.length > 0) console.log(`  WARNING: ${ended.length} streams ended during the rush (${ended[0]})`);
  for (const stream of [...streams, ...dinerStreams]) stream.close();

  const boardMs: number[] = [];
  const stallMs: number[] = [];
  let lost = 0;
  let stallMissed = 0;
  for (let n = 0; n < total; n++) {
    if (Number.isNaN(sentAt[n]!)) continue;
    if (Number.isNaN(boardAt[n]!)) lost++;
    else boardMs.push(boardAt[n]! - sentAt[n]!);
    for (const stallId of stallsOf[n]!) {
      const at = stallAt.get(stallId)![n]!;
      if (Number.isNaN(at)) stallMissed++;
      else stallMs.push(at - sentAt[n]!);
    }
  }
  // Lost counts only orders that were placed (answered 201) and never reached the board.
  lost -= refused;
  const firstMinute = rss.filter((s) => s.at <= 60_000).map((s) => s.bytes);
  const openInDatabase = (await readJson<Page<Order>>(`${bff.url}${OPEN_PATH}&pageSize=1`, { headers: { cookie } })).total;
  return {
    placed,
    refused,
    lost: Math.max(0, lost),
    twice,
    boardMs,
    stallMs,
    stallMissed,
    dinerStreams: dinersOpen,
    dinerMissed,
    rssFirstMinute: Math.max(...firstMinute.filter(Number.isFinite), 0),
    rssEnd: rss.at(-1)?.bytes ?? NaN,
    openInDatabase,
    openBefore,
  };
}

/** Places orders side by side until `open` orders are open (the lunch's leftovers and more): the board's worst case. */
async function buildBacklog(bff: ChildServer, cookie: string, open: number): Promise<number> {
  const menu = await readJson<Menu>(`${bff.url}/api/pt/menu`);
  const items = menu.stalls.filter((stall) => stall.availability.state === 'open').flatMap((stall) => stall.items.filter((item) => !item.soldOut).map((item) => item.id));
  let now = (await readJson<Page<Order>>(`${bff.url}${OPEN_PATH}&pageSize=1`, { headers: { cookie } })).total;
  let next = 0;
  const worker = async () => {
    while (now < open) {
      now++;
      const body = JSON.stringify({ table: 1 + (next++ % TABLES), cart: [{ itemId: items[next % items.length]!, quantity: 1 }] });
      const res = await fetch(`${bff.url}/api/pt/order`, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
      await res.text();
      if (res.status !== 201) throw new Error(`rush bench: building the backlog, an order answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: BACKLOG_CONNECTIONS }, worker));
  return (await readJson<Page<Order>>(`${bff.url}${OPEN_PATH}&pageSize=1`, { headers: { cookie } })).total;
}

const ms = (n: number) => `${fmt(n, 1)} ms`;
const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MB`;

async function runOn(engine: string, databaseUrl: string, dir: string): Promise<Figure[]> {
  const bff = await startBenchBff(databaseUrl, dir, { ORDERS_PER_MINUTE: '100000' });
  try {
    const cookie = await signIn(bff.url);
    const result = await rush(bff, cookie);
    const open = await buildBacklog(bff, cookie, BACKLOG);
    const board = await load(`${bff.url}${OPEN_PATH}&page=0&pageSize=${BOARD_PAGE}`, { connections: BOARD_CONNECTIONS, durationSeconds: 5, headers: { cookie } });
    const end = bff.ended();
    if (end) throw new Error(`rush bench: the BFF ended during the run: ${end}`);

    const boardP99 = percentile(result.boardMs, 99);
    const stallP99 = percentile(result.stallMs, 99);
    const flat = result.rssEnd <= result.rssFirstMinute * MEMORY_GROWTH_ALLOWED;
    const exact = result.lost === 0 && result.twice === 0 && result.refused === 0 && result.stallMissed === 0 && result.openInDatabase - result.openBefore === result.placed;
    console.log(`\nLunch rush on ${engine}: ${TABLES} tables, ${ORDERS_PER_SECOND} orders/s for ${RUSH_SECONDS} s, each from two stalls; the runner board and 5 stall screens on /api/events, every diner on their order's stream; the BFF in its own process, the diners and screens in this one (${os.availableParallelism()} cores)`);
    console.log(`  orders placed ${fmt(result.placed)}, refused ${result.refused}; on the board ${fmt(result.placed - result.lost)}, lost ${result.lost}, twice ${result.twice}; stall screens missed ${result.stallMissed}; open in the database +${fmt(result.openInDatabase - result.openBefore)}`);
    console.log(`  order → runner board   p50 ${ms(percentile(result.boardMs, 50))}   p99 ${ms(boardP99)}   (target < ${TARGET_EVENT_P99_MS} ms)`);
    console.log(`  order → stall screen   p50 ${ms(percentile(result.stallMs, 50))}   p99 ${ms(stallP99)}   (target < ${TARGET_EVENT_P99_MS} ms)`);
    console.log(`  diners' order streams open at the end ${fmt(result.dinerStreams)} (each diner follows their order for ${DINER_STAYS_MS / 1000} s; ${result.dinerMissed} could not open)`);
    console.log(`  BFF memory (VmRSS): ${mb(result.rssFirstMinute)} in the first minute, ${mb(result.rssEnd)} at the end (${flat ? 'flat' : 'GREW'})`);
    console.log(`  the board's list (its page of ${BOARD_PAGE}) with ${fmt(open)} open orders, ${BOARD_CONNECTIONS} connections: ${fmt(board.requestsPerSecond)} req/s, p99 ${board.p99Ms} ms (target < ${TARGET_BOARD_P99_MS} ms)`);
    return [
      bar(`${engine}: order → runner board p99`, boardP99, 'ms', `< ${TARGET_EVENT_P99_MS}`, boardP99 < TARGET_EVENT_P99_MS, 1),
      bar(`${engine}: order → stall screen p99`, stallP99, 'ms', `< ${TARGET_EVENT_P99_MS}`, stallP99 < TARGET_EVENT_P99_MS, 1),
      bar(`${engine}: orders lost or twice`, result.lost + result.twice + result.stallMissed, 'orders', '0', exact, 0),
      bar(`${engine}: BFF memory end ÷ first minute`, result.rssEnd / result.rssFirstMinute, '×', `≤ ${MEMORY_GROWTH_ALLOWED}`, flat, 2),
      bar(`${engine}: board list p99 (${fmt(open)} open, ${BOARD_CONNECTIONS} connections)`, board.p99Ms, 'ms', `< ${TARGET_BOARD_P99_MS}`, board.p99Ms < TARGET_BOARD_P99_MS),
      info(`${engine}: board list throughput`, board.requestsPerSecond, 'req/s'),
    ];
  } finally {
    await bff.stop();
  }
}

/** `npm run bench -- rush`: the lunch rush on SQLite, then on a throwaway PostgreSQL when one can be started here. */
export async function runRushBench(): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-rush-'));
  let pg: ThrowawayPostgres | undefined;
  try {
    const figures = await runOn('SQLite', `file:${path.join(dir, 'rush.db')}`, dir);
    try {
      pg = await startThrowawayPostgres();
    } catch (err) {
      console.log(`  (PostgreSQL: not run, no server could be started here: ${err instanceof Error ? err.message : String(err)})`);
      return figures;
    }
    return [...figures, ...(await runOn('PostgreSQL', pg.url, dir))];
  } finally {
    await pg?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
