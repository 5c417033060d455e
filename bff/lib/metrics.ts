import crypto from 'node:crypto';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { LRUCache } from 'lru-cache';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { HttpError } from './http-error';
import { nameRoute, routeNameOf } from './route-name';

/** What features count as it happens, once the write is committed; `rate()` over them gives "per minute". */
export interface Counters {
  orderPlaced: () => void;
  chatMessagePosted: () => void;
}

/** Counters that count nothing: metrics are off. */
export const NO_COUNTERS: Counters = { orderPlaced: () => {}, chatMessagePosted: () => {} };

/** What the metrics read at scrape time (nothing is sampled in between). */
export interface MetricsSources {
  openStreams: () => number;
  /** PostgreSQL's pool (SQLite has none). */
  poolUse?: () => { open: number; idle: number; waiting: number; max: number };
  /** Door switches owed to Kisi (the database's count, shared by every instance). */
  doorSwitchesWaiting?: () => Promise<number>;
  /** The last backup of any instance or the command line (from the database); null where there has been none. */
  lastBackup?: () => Promise<{ lastOk: boolean | null; lastSuccessAt: number | null; lastSuccessBytes: number | null }>;
}

export interface Metrics {
  counters: Counters;
  /** Times every request and labels it by route pattern, method and status. Mount it first. */
  requests: RequestHandler;
  /** `GET /metrics`, for a caller with `Authorization: Bearer <token>`. */
  router: Router;
}

/** Seconds: from a cached read (~1 ms) to a slow upload part or a catalogue import's page. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A request no route answered: by its area only, so a scan of made-up paths grows no label. */
const unnamedRoute = (req: Request): string => (req.originalUrl.startsWith('/api/') || req.originalUrl === '/api' ? '(other /api)' : '(pages and files)');

/**
 * Wrong tokens (or none) from one address: each answered after `delayMs`, and past `perWindow` of
 * them in `windowMs` the address is refused without a look, its right token too (429 with
 * Retry-After), so that a token cannot be guessed at speed. Counted in this instance's memory: a
 * scraper is one known caller, and the token is long.
 */
export interface WrongTokenLimits {
  perWindow: number;
  windowMs: number;
  delayMs: number;
}
export const WRONG_TOKEN_LIMITS: WrongTokenLimits = { perWindow: 10, windowMs: 60_000, delayMs: 500 };

/** Compares in constant time (the length apart, which a hash of each hides). */
const sameToken = (given: string, expected: string): boolean =>
  crypto.timingSafeEqual(crypto.createHash('sha256').update(given).digest(), crypto.createHash('sha256').update(expected).digest());

/**
 * Prometheus metrics of one app, in a registry of its own (tests build several apps in one process):
 * Node's own (event-loop lag, heap, RSS, CPU, handles: prom-client's defaults), requests by route
 * pattern, open event streams, the database pool, orders and chat messages.
 */
export function createMetrics(token: string, sources: MetricsSources, limits: WrongTokenLimits = WRONG_TOKEN_LIMITS): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'frontdesk_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status (event streams included)', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'frontdesk_http_request_duration_seconds',
    help: 'Time from a request to the end of its answer, by method, route pattern and status (event streams excluded: they last as long as the page is open)',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const aborted = new Counter({ name: 'frontdesk_http_requests_aborted_total', help: 'Requests whose connection closed before the answer was complete, by method and route pattern', labelNames: ['method', 'route'], registers: [registry] });
  if (sources.doorSwitchesWaiting) {
    const waiting = sources.doorSwitchesWaiting;
    let last = 0;
    new Gauge({
      name: 'frontdesk_door_switches_waiting',
      help: 'Members whose Kisi door access does not follow their membership yet (switches queued for Kisi, all instances)',
      registers: [registry],
      // The database away: the last count stays (the scrape still answers with every other figure).
      async collect() {
        last = await waiting().catch(() => last);
        this.set(last);
      },
    });
  }
  if (sources.lastBackup) {
    const lastBackup = sources.lastBackup;
    // The database away: the last figures stay (the scrape still answers with every other figure).
    let figures: Awaited<ReturnType<typeof lastBackup>> = { lastOk: null, lastSuccessAt: null, lastSuccessBytes: null };
    const current = async () => (figures = await lastBackup().catch(() => figures));
    new Gauge({
      name: 'frontdesk_last_backup_timestamp_seconds',
      help: 'When the last successful backup finished (Unix seconds; 0: none yet), by any instance or npm run backup',
      registers: [registry],
      async collect() {
        this.set(((await current()).lastSuccessAt ?? 0) / 1000);
      },
    });
    new Gauge({
      name: 'frontdesk_last_backup_ok',
      help: 'Whether the last backup tried succeeded (1) or failed (0; also before the first)',
      registers: [registry],
      async collect() {
        this.set((await current()).lastOk ? 1 : 0);
      },
    });
    new Gauge({
      name: 'frontdesk_last_backup_size_bytes',
      help: 'The size of the last successful backup (databases and files)',
      registers: [registry],
      async collect() {
        this.set((await current()).lastSuccessBytes ?? 0);
      },
    });
  }
  new Gauge({ name: 'frontdesk_event_streams_open', help: 'Server-Sent Events streams open on this instance', registers: [registry], collect() { this.set(sources.openStreams()); } });
  if (sources.poolUse) {
    const poolUse = sources.poolUse;
    new Gauge({
      name: 'frontdesk_db_pool_connections',
      help: 'PostgreSQL pool connections of this instance, by state (open = busy + idle; max is DATABASE_POOL_SIZE)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const use = poolUse();
        this.set({ state: 'open' }, use.open);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'busy' }, use.open - use.idle);
        this.set({ state: 'max' }, use.max);
      },
    });
    new Gauge({ name: 'frontdesk_db_pool_waiting', help: 'Queries waiting for a free pool connection', registers: [registry], collect() { this.set(poolUse().waiting); } });
  }
  const orders = new Counter({ name: 'frontdesk_orders_placed_total', help: 'Food-court orders placed on this instance (a replayed submit is not counted again)', registers: [registry] });
  const messages = new Counter({ name: 'frontdesk_chat_messages_posted_total', help: 'Staff chat messages posted on this instance', registers: [registry] });

  const timeRequests: RequestHandler = (req, res, next) => {
    const start = process.hrtime.bigint();
    res.once('close', () => {
      const route = routeNameOf(res) ?? unnamedRoute(req);
      // Node's parser admits only the methods it knows: a bounded set.
      const labels = { method: req.method, route, status: String(res.statusCode) };
      // A stream ends when the page leaves: that is its normal end, not an aborted answer.
      if (String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream')) return void requests.inc(labels);
      if (!res.writableFinished) return void aborted.inc({ method: req.method, route });
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
    });
    next();
  };

  // By address (an IPv6 client by its /56, as the other limits count it): the wrong tokens of the window, and when it ends.
  const wrongTokens = new LRUCache<string, { count: number; resetAt: number }>({ max: 10_000, ttl: limits.windowMs });

  const router = express.Router();
  router.get('/metrics', async (req: Request, res: Response) => {
    nameRoute(res, '/metrics');
    const address = ipKeyGenerator(req.ip ?? '');
    const wrong = wrongTokens.get(address);
    if (wrong && wrong.count >= limits.perWindow) {
      const seconds = Math.max(1, Math.ceil((wrong.resetAt - Date.now()) / 1000));
      throw new HttpError(429, `Too many wrong metrics tokens from this address: try again in ${seconds} s.`, { headers: { 'Retry-After': String(seconds) } });
    }
    const [scheme, given] = (req.get('Authorization') ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !given || !sameToken(given, token)) {
      // Counted before the wait, so that tries sent side by side are counted as they come.
      if (wrong) wrong.count++;
      else wrongTokens.set(address, { count: 1, resetAt: Date.now() + limits.windowMs });
      await new Promise((resolve) => setTimeout(resolve, limits.delayMs));
      throw new HttpError(401, 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.', { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } });
    }
    res.setHeader('Cache-Control', 'no-store');
    res.type(registry.contentType).send(await registry.metrics());
  });

  return { counters: { orderPlaced: () => orders.inc(), chatMessagePosted: () => messages.inc() }, requests: timeRequests, router };
}
