import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from './app';
import { loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/database';
import { seedIfEmpty } from './db/seed';
import { authServiceOn } from './features/auth/auth.service';
import { seedCatalogueIfEmpty } from './features/catalogue/catalogue.seed';
import { receiveKisiEvent, type KisiEventWrite } from './features/webhooks/kisi-event.receive';
import { kisiEventsRepository } from './features/webhooks/kisi-events.repository';
import type { PastWebhookDelivery } from './kisi/emulator/emulator.history';
import { connectKisi, type Kisi } from './kisi/kisi';
import type { InTransaction } from './lib/event-bus';
import { createLogger } from './lib/logger';
import { databaseFailure, listenFirst, requireClientBuild, type Listening } from './start-up';

/**
 * The emulator's past events (when it seeds its store: emulator mode only, so a real Kisi's events
 * are never mixed with made-up ones) reach the webhook receiver's storage as if Kisi had delivered
 * them then: the same body the emulator posts, read and stored by the receiver's own code, in one
 * transaction, the actor's email looked up from the emulator's user (the receiver asks Kisi for it
 * the same way).
 */
const pastWebhooksInto =
  (database: Database): PastWebhookDelivery =>
  async (deliveries, emailOfUser) => {
    const emails = new Map<number, string | null>();
    const emailOfKisiUser = async (id: number) => {
      let email = emails.get(id);
      if (email === undefined) emails.set(id, (email = await emailOfUser(id)));
      return email;
    };
    await database.db.transaction().execute(async (trx) => {
      const events = kisiEventsRepository(trx);
      // Already in one transaction; and past events are history, not live news.
      const inTransaction: InTransaction<KisiEventWrite> = (work) => work({ events, announce: () => {} });
      for (const { event, deliveredAt } of deliveries) {
        const raw = Buffer.from(JSON.stringify(event));
        await receiveKisiEvent({ events, inTransaction, emailOfKisiUser }, JSON.parse(raw.toString('utf8')), raw, deliveredAt);
      }
    });
  };

export interface StopOptions {
  /**
   * Keep listening for SHUTDOWN_DRAIN_MS first, readiness answering 503 "stopping" (SIGTERM: a
   * balancer may be routing by readiness). Without it, or called again while draining, the listener
   * closes at once.
   */
  drain?: boolean;
}

export interface RunningServer {
  url: string;
  server: Server;
  /** How this server reaches Kisi (in emulator mode, the emulator's own URL and key). */
  kisi: Kisi;
  close: (options?: StopOptions) => Promise<void>;
}

/** SHUTDOWN_DRAIN_MS when unset: a few seconds in production (two or three polls of a balancer's readiness check), none in development. */
export const DEFAULT_DRAIN_MS = 5000;
const drainMsOf = (config: Config): number => config.SHUTDOWN_DRAIN_MS ?? (config.NODE_ENV === 'production' ? DEFAULT_DRAIN_MS : 0);

function readVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export interface StartOptions {
  /** Outgoing Kisi requests per second (a whole number); Kisi's 5 unless a benchmark or test raises it. */
  kisiRatePerSecond?: number;
  /**
   * Refuse to start in production without the built client in STATIC_DIR (`bff/index.ts`, what
   * `npm start` and `npm run serve` run); tests that build the server in-process serve what they give.
   */
  requireClientBuild?: boolean;
}

type Announce = (line: string) => void;

/**
 * Listens, then opens the database, prepares the first admin and demo data, and serves. A start
 * that fails throws (a `StartError` says why in one line) and leaves nothing open behind it.
 */
export async function startServer(env: Record<string, string | undefined>, announce: Announce = console.log, options: StartOptions = {}): Promise<RunningServer> {
  const config = loadConfig(env);
  if (options.requireClientBuild && config.NODE_ENV === 'production') requireClientBuild(config.STATIC_DIR);
  // Listening comes first: a port in use is refused before anything is written (a first start would
  // otherwise create the admin, then fail, and never show the password it generated).
  const listening = await listenFirst(config.PORT, config.HOST);
  const opened: Array<() => unknown> = [listening.close];
  try {
    return await prepare({ config, listening, announce, options, opened });
  } catch (err) {
    // Newest first, so nothing (a pool, the emulator's server, a timer) keeps the process alive.
    for (const close of opened.reverse()) await Promise.resolve().then(close).catch(() => undefined);
    throw err;
  }
}

interface Start {
  config: Config;
  listening: Listening;
  announce: Announce;
  options: StartOptions;
  /** How to close what the start opened, in case a later step fails. */
  opened: Array<() => unknown>;
}

/** The start after listening: opens the database, then takes the start-up turn until ready. */
async function prepare(start: Start): Promise<RunningServer> {
  const { config, opened } = start;
  const database = await openDatabase(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE, connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS, statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS }).catch((err: unknown) => {
    throw databaseFailure(err, config.DATABASE_URL);
  });
  opened.push(database.close);
  // Instances starting together take turns, each until it is ready: one creates the admin and seeds,
  // the others find it done. A first admin still marked unannounced here was made by a start that
  // died before it could show the password, since that start held the turn until it did.
  return database.exclusively(() => ready(start, database));
}

/** The rest of the start, with the start-up turn held: the first admin, demo data, Kisi, the app, serving, announcing. */
async function ready({ config, listening, announce, options, opened }: Start, database: Database): Promise<RunningServer> {
  const logger = createLogger(config.LOG_LEVEL);
  const auth = authServiceOn(database.db, { sessionTtlMs: config.SESSION_TTL_HOURS * 3_600_000 });
  const admin = await auth.ensureAdmin(config.ADMIN_EMAIL, config.ADMIN_PASSWORD);

  // In emulator mode the emulator posts its signed webhooks to this server once it listens.
  const webhook: { url?: string } = {};
  const kisi = await connectKisi({ config, database, logger, webhookUrl: () => webhook.url, ratePerSecond: options.kisiRatePerSecond, history: pastWebhooksInto(database) });
  opened.push(() => kisi.emulator?.close());
  const built = createApp({ config, database, logger, version: readVersion(), door: kisi.door, kisi });
  await seedIfEmpty(database.db, built.seeders);
  await seedCatalogueIfEmpty(database);

  const { server } = listening;
  listening.serve(built.app);
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST}:${port}`;
  const loopback = config.HOST === '0.0.0.0' || config.HOST === 'localhost' ? '127.0.0.1' : config.HOST === '::' ? '[::1]' : config.HOST;
  webhook.url = `http://${loopback}:${port}/api/webhooks/kisi`;
  // The purges, the uploads' clean-up, the catch-up of door events whose webhooks never arrived.
  for (const job of built.jobs) job.start();
  opened.push(() => Promise.all(built.jobs.map((job) => job.stop())));

  announce(`Frontdesk is running at ${url}`);
  announce(kisi.emulator ? 'Kisi: the built-in emulator (set KISI_BASE_URL and KISI_API_KEY to use the real Kisi).' : `Kisi: ${kisi.settings.baseUrl}`);
  if (admin.generatedPassword) {
    announce(`First start: created the admin account. Log in at ${url}/login with`);
    announce(`  email:    ${admin.adminEmail}`);
    announce(`  password: ${admin.generatedPassword}   (shown only this once; change it with npm run account -- password)`);
  } else if (admin.created) {
    announce(`First start: created the admin account ${admin.adminEmail} with the password from ADMIN_PASSWORD.`);
  } else if (admin.adminEmail) {
    announce(`Log in at ${url}/login (admin: ${admin.adminEmail}; add accounts with npm run account -- add).`);
  } else {
    announce(`Log in at ${url}/login. No admin account was created: ${config.ADMIN_EMAIL} (ADMIN_EMAIL) has another role; add an admin with npm run account -- add --role admin.`);
  }
  if (admin.created) await auth.firstAdminAnnounced();

  let closing: Promise<void> | undefined;
  let endDrain: (() => void) | undefined;
  /**
   * The graceful stop (SIGTERM, docs/deploy.md "Operations"): readiness answers 503 and streams end at once (browsers
   * reconnect elsewhere), and every answer closes its connection; with `drain`, the instance goes on listening and
   * answering for SHUTDOWN_DRAIN_MS, so that a balancer polling readiness takes it out before it refuses connections;
   * then no new connection is accepted; requests in flight have SHUTDOWN_GRACE_MS to finish; then the connections
   * left are cut, and the database closes.
   */
  const close = ({ drain = false }: StopOptions = {}) => {
    // Asked again while draining (a second signal): the listener closes now.
    if (closing) {
      if (!drain) endDrain?.();
      return closing;
    }
    return (closing = (async () => {
      const jobsStopped = Promise.all(built.jobs.map((job) => job.stop()));
      built.drain();
      const drainMs = drain ? drainMsOf(config) : 0;
      if (drainMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, drainMs);
          endDrain = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.getConnections((_err, cut) => {
            if (cut > 0) logger.warn({ connections: cut, graceMs: config.SHUTDOWN_GRACE_MS }, 'shutdown: connections still open after the grace period were cut off');
          });
          server.closeAllConnections();
        }, config.SHUTDOWN_GRACE_MS);
        force.unref();
        // A request answered during shutdown leaves its keep-alive connection idle; close those as
        // they appear instead of waiting out the keep-alive timeout.
        const sweep = setInterval(() => server.closeIdleConnections(), 100);
        sweep.unref();
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      await jobsStopped;
      await kisi.emulator?.settle();
      await kisi.emulator?.close();
      await database.close();
    })());
  };

  return { url, server, kisi, close };
}
