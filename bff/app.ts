import compression from 'compression';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Config } from './config';
import { openApiContract } from './contracts/openapi.contract';
import type { Endpoint } from './contracts/endpoint.contract';
import { instanceSignal, type Database, type Db } from './db/database';
import { isDatabaseUnavailable } from './db/engine';
import type { Seeder } from './db/seed';
import { counterStoreFor } from './db/shared-limits';
import type { Feature, FeatureContext } from './feature';
import { auditFeature } from './features/audit/audit.feature';
import { backupsFeature, lastBackupFigures } from './features/backups/backups.feature';
import { authFeature } from './features/auth/auth.feature';
import { SESSIONS_ENDED_CHANNEL } from './features/auth/auth.service';
import type { LoginLimits } from './features/auth/login-throttle';
import { catalogueFeature } from './features/catalogue/catalogue.feature';
import { chatFeature } from './features/chat/chat.feature';
import { conversationsFeature } from './features/conversations/conversations.feature';
import { eventsFeature } from './features/events/events.feature';
import { liveEventsRepository } from './features/events/live-events.repository';
import { doorSwitchesWaiting, gymFeature, type DoorSyncTiming } from './features/gym/gym.feature';
import { healthFeature } from './features/health/health.feature';
import type { DoorAccess } from './features/gym/gym.service';
import { ptFeature } from './features/pt/pt.feature';
import { retentionFeature } from './features/retention/retention.feature';
import { samplesFeature } from './features/samples/samples.feature';
import { statusFeature } from './features/status/status.feature';
import { uploadsFeature } from './features/uploads/uploads.feature';
import { webhooksFeature } from './features/webhooks/webhooks.feature';
import type { Kisi } from './kisi/kisi';
import { kisiFeature } from './kisi/kisi.feature';
import { sessionMiddleware } from './lib/auth.middleware';
import { endpointRouter, route } from './lib/endpoint-router';
import { bodyIdleTimeout } from './lib/body-timeout.middleware';
import { apiNotFound, errorHandler, notFound } from './lib/error-handler';
import { EventBus } from './lib/event-bus';
import { livePosition } from './lib/live-position.middleware';
import { eventStreams, type EventStreamSettings } from './lib/event-stream';
import { periodicJob, type Job } from './lib/jobs';
import { refuseDeepJson } from './lib/json-depth';
import type { Logger } from './lib/logger';
import { createMetrics, NO_COUNTERS } from './lib/metrics';
import { openApiDocument } from './lib/openapi';
import { csrfGuard, hostGuard, publicOrigins } from './lib/origins.middleware';
import { requestLog } from './lib/request-log.middleware';
import { spaMiddleware } from './lib/static.middleware';

export const JSON_BODY_LIMIT = '100kb';
/** How often SQLite's planner statistics are brought up to date (a no-op for tables that did not change much). */
const PLANNER_STATISTICS_EVERY_MS = 60_000;

export interface AppDeps {
  config: Config;
  database: Database;
  logger: Logger;
  version: string;
  startedAt?: Date;
  /** How long a session read is reused from memory (default 5 s; ending a session forgets it at once). */
  sessionCacheMs?: number;
  /** The login limits (tests lower them to reach them). */
  loginLimits?: Partial<LoginLimits>;
  /** Tries with invitation and reset links one address may make in 15 minutes (tests raise it; default 30). */
  linkTries?: number;
  /** Passkey sign-in requests one address may make in 5 minutes (tests raise it; default 60). */
  passkeyTries?: number;
  /** The door-access provider for gym memberships (Kisi, or the emulator). */
  door: DoorAccess;
  /** How often door switches owed to Kisi are looked for, and an away Kisi asked (tests shorten them). */
  doorSync?: DoorSyncTiming;
  eventStream?: Partial<EventStreamSettings>;
  /** Kisi (remote, or the in-process emulator): proxy, webhook secret, server-side client. Without it /api/kisi answers 503. */
  kisi?: Kisi;
  /** Orders one client may place per minute (tests lower it to see the limit). */
  ordersPerMinute?: number;
  /** How long a request body may stop arriving before the request is answered 408 (default BODY_IDLE_MS; tests lower it). */
  bodyIdleMs?: number;
  /** Messages one sender may write per minute, help requests one client may start per hour (tests lower them). */
  messagesPerMinute?: number;
  helpRequestsPerHour?: number;
  /** Validate every answer against its contract (default: under tests). */
  checkResponses?: boolean;
}

/** The built BFF: the Express app and what the server runs beside it. */
export interface App {
  app: Express;
  /** The live event bus every feature publishes on. */
  bus: EventBus<Db>;
  /** Every endpoint the API answers (its own, and Kisi's through the proxy). */
  endpoints: readonly Endpoint[];
  /** Background work, for the server to start and stop (tests start what they need). */
  jobs: readonly Job[];
  /** Demo data for a brand-new database, in order. */
  seeders: readonly Seeder[];
  /** Ends the open event streams (shutdown), so requests in flight can finish. */
  endStreams: () => void;
  /**
   * The instance is stopping (SIGTERM): readiness answers 503, every answer closes its connection
   * after it, and the event streams end (new ones at once), so browsers reconnect to another instance.
   */
  drain: () => void;
}

/** Builds the whole BFF from its features; `bff/server.ts` listens and runs the jobs, tests use it in-process. */
export function createApp(deps: AppDeps): App {
  const { config, database, logger } = deps;
  const liveEvents = liveEventsRepository(database);
  const bus = new EventBus(liveEvents, (err) => logger.error({ err }, 'live event delivery failed'));
  // A logout on any instance closes the event streams of that session on every instance at once.
  const sessionsEnded = instanceSignal(database, SESSIONS_ENDED_CHANNEL, () => {
    auth.auth.forgetCachedSessions();
    void streams.endStreamsOfEndedSessions();
  });
  const streams = eventStreams({
    subscribe: (listener) => bus.subscribe(listener),
    replay: liveEvents.after,
    position: () => bus.handedOut(),
    // A role change ends the stream too: the page asks who it is, and opens one for its new role.
    isSessionAlive: async (token, audience) => {
      const user = await auth.auth.userForToken(token);
      return !!user && (audience === undefined || user.role === audience);
    },
    settings: deps.eventStream,
  });
  const checkResponses = deps.checkResponses ?? process.env.NODE_ENV === 'test';
  let stopping = false;
  // Off unless a token is set: then nothing of it is built, and /metrics is a page that does not exist (decision 0070).
  const metrics = config.METRICS_TOKEN ? createMetrics(config.METRICS_TOKEN, { openStreams: streams.openCount, poolUse: database.poolUse, doorSwitchesWaiting: () => doorSwitchesWaiting(database), lastBackup: () => lastBackupFigures(database) }) : undefined;
  const jsonBody = express.json({ limit: JSON_BODY_LIMIT, type: ['application/json', 'application/*+json'], verify: refuseDeepJson });
  const context: FeatureContext = {
    config,
    database,
    logger,
    bus,
    streams,
    counterStore: counterStoreFor(database),
    counters: metrics?.counters ?? NO_COUNTERS,
    jsonBody,
    mount: (routes) => ({ endpoints: routes.map((r) => r.endpoint), router: endpointRouter(routes, { checkResponses, jsonBody }) }),
  };

  const auth = authFeature(context, { sessionsEnded: sessionsEnded.send, sessionCacheMs: deps.sessionCacheMs, loginLimits: deps.loginLimits, linkTries: deps.linkTries, passkeyTries: deps.passkeyTries });
  const features: Feature[] = [
    auth,
    eventsFeature(context),
    webhooksFeature(context, { kisi: deps.kisi }),
    gymFeature(context, { door: deps.door, doorSync: deps.doorSync }),
    ptFeature(context, { ordersPerMinute: deps.ordersPerMinute }),
    chatFeature(context, { messagesPerMinute: deps.messagesPerMinute }),
    conversationsFeature(context, { messagesPerMinute: deps.messagesPerMinute, helpRequestsPerHour: deps.helpRequestsPerHour }),
    uploadsFeature(context),
    samplesFeature(context),
    catalogueFeature(context),
    statusFeature(context, { version: deps.version, startedAt: deps.startedAt ?? new Date() }),
    auditFeature(context),
    backupsFeature(context, { version: deps.version }),
    retentionFeature(context),
    kisiFeature(context, deps.kisi),
  ];
  // Mounted ahead of the host check and the API's middleware, apart from the features below (decision 0070).
  const health = healthFeature(context, { isStopping: () => stopping });
  const endpoints = [...features.flatMap((f) => f.endpoints), ...health.endpoints, openApiContract.document];
  const openApi = openApiDocument(endpoints, { version: deps.version });
  features.push(context.mount([route(openApiContract.document, () => openApi)]));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'simple');
  app.use(requestLog(logger));
  if (metrics) app.use(metrics.requests);
  app.use(bodyIdleTimeout(deps.bodyIdleMs));
  app.use((_req, res, next) => {
    // Stopping: each answer tells its client not to send another request on this connection, so none is cut off by the close that follows.
    if (stopping) res.setHeader('Connection', 'close');
    next();
  });
  // Probes and scrapers name an instance by its address, not the public name: these answer for any
  // host (they hold nothing a DNS-rebound page could use; /metrics wants its token anyway).
  app.use('/api', health.router);
  if (metrics) app.use(metrics.router);
  const origins = publicOrigins(config.PUBLIC_ORIGIN);
  app.use(hostGuard(origins));
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          // No other site's pictures: they come through the picture proxies (decision 0068), so the browser talks only to us.
          'img-src': ["'self'", 'data:', 'blob:'],
          'connect-src': ["'self'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'media-src': ["'self'", 'blob:'],
          'upgrade-insecure-requests': config.COOKIE_SECURE ? [] : null,
        },
      },
      strictTransportSecurity: config.COOKIE_SECURE,
    }),
  );
  // Answers over 1 KB go out compressed when the browser accepts it; an event stream never waits in a compression buffer.
  app.use(compression({ filter: (req, res) => !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res) }));

  const api = express.Router();
  api.use(csrfGuard(origins));
  api.use(sessionMiddleware(auth.auth.userForToken));
  api.use(livePosition(() => bus.handedOut()));
  for (const feature of features) api.use(feature.router);
  api.use(apiNotFound);
  app.use('/api', api);
  // A page names the first reads of its session in its HTML (decision 0067): the HTML knows who asks.
  app.use(spaMiddleware(config.STATIC_DIR, { userForToken: auth.auth.userForToken }));
  app.use(notFound);
  app.use(errorHandler(logger, { isUnavailable: isDatabaseUnavailable }));

  return {
    app,
    bus,
    endpoints,
    // The planner's statistics follow the data as it grows through the day (see Connection.optimize).
    jobs: [...features.flatMap((f) => f.jobs ?? []), periodicJob('query planner statistics', PLANNER_STATISTICS_EVERY_MS, () => database.optimize(), logger)],
    seeders: features.flatMap((f) => f.seeders ?? []),
    endStreams: streams.endAll,
    drain: () => {
      stopping = true;
      streams.endAll();
    },
  };
}
