import express from 'express';
import { kisiMode, type Config } from './config';
import { instanceSignal, type Database } from './db/database';
import { sharedCounters, sharedCounterStore } from './db/shared-limits';
import { accountsRepository } from './features/auth/accounts.repository';
import { authRoutes } from './features/auth/auth.router';
import { DEFAULT_LOGIN_LIMITS, loginThrottle, type LoginLimits } from './features/auth/login-throttle';
import { authService, SESSIONS_ENDED_CHANNEL } from './features/auth/auth.service';
import { sessionsRepository } from './features/auth/sessions.repository';
import { eventsRouter, type EventStreamOptions } from './features/events/events.router';
import { liveEventsRepository } from './features/events/live-events.repository';
import { gymRoutes } from './features/gym/gym.router';
import { gymService, type DoorAccess } from './features/gym/gym.service';
import { membersRepository } from './features/gym/members.repository';
import { ownersRepository } from './features/gym/owners.repository';
import { chatRepository } from './features/chat/chat.repository';
import { chatRoutes } from './features/chat/chat.router';
import { chatService } from './features/chat/chat.service';
import { conversationsRepository } from './features/conversations/conversations.repository';
import { conversationRoutes } from './features/conversations/conversations.router';
import { conversationsService } from './features/conversations/conversations.service';
import { ordersRepository } from './features/pt/orders.repository';
import { ptRoutes } from './features/pt/pt.router';
import { catalogueRepository } from './features/catalogue/catalogue.repository';
import { catalogueRoutes } from './features/catalogue/catalogue.router';
import { catalogueService } from './features/catalogue/catalogue.service';
import { ptService } from './features/pt/pt.service';
import { sampleAnswers } from './features/samples/sample-answers.cache';
import { sampleCacheRepository } from './features/samples/sample-cache.repository';
import { pictureAllowlist, PROVIDER_PICTURE_LOCATIONS, sampleImages } from './features/samples/sample-images.service';
import { samplesRoutes } from './features/samples/samples.router';
import { samplesService } from './features/samples/samples.service';
import { upstreamClient } from './features/samples/upstream.client';
import { stallsRepository } from './features/pt/stalls.repository';
import { statusRoutes } from './features/status/status.router';
import { uploadsRepository } from './features/uploads/uploads.repository';
import { tusUploads, uploadRoutes } from './features/uploads/uploads.router';
import { uploadsService } from './features/uploads/uploads.service';
import { DEFAULT_ALLOWED_TYPES } from './contracts/uploads.contract';
import { kisiEventsRepository } from './features/webhooks/kisi-events.repository';
import { kisiWebhookRoute } from './features/webhooks/kisi-webhook.router';
import { webhookInboxRoutes } from './features/webhooks/webhook-inbox.router';
import { webhookInboxService } from './features/webhooks/webhook-inbox.service';
import { kisiApi } from './contracts/kisi.contract';
import { openApiContract } from './contracts/openapi.contract';
import { emulatorControlRoutes } from './kisi/emulator/emulator-control.router';
import type { Kisi } from './kisi/kisi';
import { kisiProxy } from './kisi/proxy';
import { answerCache } from './lib/answer-cache';
import { refuseDeepJson } from './lib/json-depth';
import { sessionMiddleware } from './lib/auth.middleware';
import { csrfGuard, hostGuard, publicOrigins } from './lib/origins.middleware';
import { EventBus } from './lib/event-bus';
import { HttpError } from './lib/http-error';
import { apiNotFound, errorHandler } from './lib/error-handler';
import { mountRoutes, route } from './lib/endpoint-router';
import { openApiDocument } from './lib/openapi';
import type { Logger } from './lib/logger';
import { requestLog } from './lib/request-log.middleware';
import { securityHeaders } from './lib/security-headers.middleware';
import { spaMiddleware } from './lib/static.middleware';

export const JSON_BODY_LIMIT = '100kb';

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
  /** The door-access provider for gym memberships (Kisi, or the emulator). */
  door: DoorAccess;
  eventStream?: Partial<EventStreamOptions>;
  /** Kisi (remote, or the in-process emulator): proxy, webhook secret, server-side client. Without it /api/kisi answers 503. */
  kisi?: Kisi;
  /** Orders one client may place per minute (tests lower it to see the limit). */
  ordersPerMinute?: number;
  /** Messages one sender may write per minute, help requests one client may start per hour (tests lower them). */
  messagesPerMinute?: number;
  helpRequestsPerHour?: number;
  /** Validate every answer against its contract (default: under tests). */
  checkResponses?: boolean;
}

/** Builds the whole BFF as an Express app; `bff/index.ts` only listens, tests use it in-process. */
export function createApp(deps: AppDeps) {
  const { config, database, logger } = deps;
  const sessionTtlMs = config.SESSION_TTL_HOURS * 3_600_000;
  // A logout on any instance closes the event streams of that session on every instance at once.
  const sessionsEnded = instanceSignal(database, SESSIONS_ENDED_CHANNEL, () => {
    auth.forgetCachedSessions();
    void events.endStreamsOfEndedSessions();
  });
  const auth = authService({
    accounts: accountsRepository(database.db),
    sessions: sessionsRepository(database.db),
    sessionTtlMs,
    sessionsEnded: sessionsEnded.send,
    sessionCacheMs: deps.sessionCacheMs,
  });

  const kisiEvents = kisiEventsRepository(database.db);
  const liveEvents = liveEventsRepository(database);
  const bus = new EventBus(liveEvents, (err) => logger.error({ err }, 'live event delivery failed'));
  const events = eventsRouter({ bus, events: liveEvents, isSessionAlive: async (token) => !!(await auth.userForToken(token)), options: deps.eventStream });

  const counterStore = (prefix: string) => sharedCounterStore(database.db, prefix);
  const pt = ptRoutes(
    ptService({
      stalls: stallsRepository(database.db, database.transactionLock),
      orders: ordersRepository(database.db),
      inTransaction: (work) => database.db.transaction().execute((trx) => work({ stalls: stallsRepository(trx, database.transactionLock), orders: ordersRepository(trx) })),
      venue: { tables: config.VENUE_TABLES, currency: config.VENUE_CURRENCY },
      // The order is stored whatever happens here: a failed announcement is logged, the diner still gets their 201.
      publish: (order) => bus.publish('order', order).catch((err: unknown) => logger.error({ err, orderId: order.id }, 'order event could not be announced')),
    }),
    { counterStore, ordersPerMinute: deps.ordersPerMinute ?? config.ORDERS_PER_MINUTE, subscribe: (listener) => bus.subscribe(listener), heartbeatMs: deps.eventStream?.heartbeatMs },
  );

  const messagesPerMinute = deps.messagesPerMinute ?? config.MESSAGES_PER_MINUTE;
  const chat = chatRoutes(
    chatService({
      chat: chatRepository(database.db),
      // The message is stored whatever happens here: a failed announcement is logged, the sender still gets their answer
      // (a 500 would have them send it again); readers catch up when their stream reopens.
      publish: (event, audience) =>
        bus.publish('chat', { ...event, audience }).catch((err: unknown) => logger.error({ err, channelId: event.channelId }, 'chat event could not be announced')),
    }),
    { counterStore, messagesPerMinute },
  );
  const conversations = conversationRoutes(
    conversationsService({
      conversations: conversationsRepository(database.db),
      inTransaction: (work) => database.db.transaction().execute((trx) => work(conversationsRepository(trx))),
      venue: { tables: config.VENUE_TABLES },
      // Stored whatever happens here (as above): a guest answered 500 would get no cookie for the conversation they just started.
      publish: (event) =>
        bus.publish('conversation', event).catch((err: unknown) => logger.error({ err, conversationId: event.conversation.id }, 'conversation event could not be announced')),
    }),
    {
      counterStore,
      cookieSecure: config.COOKIE_SECURE,
      helpRequestsPerHour: deps.helpRequestsPerHour ?? config.HELP_REQUESTS_PER_HOUR,
      messagesPerMinute,
      subscribe: (listener) => bus.subscribe(listener),
      heartbeatMs: deps.eventStream?.heartbeatMs,
    },
  );

  const MB = 1024 * 1024;
  const allowedTypes = config.UPLOAD_TYPES
    ? Object.fromEntries(config.UPLOAD_TYPES.split(',').map((type) => [type.trim(), DEFAULT_ALLOWED_TYPES[type.trim()]!]))
    : DEFAULT_ALLOWED_TYPES;
  const uploads = uploadsService({
    uploads: uploadsRepository(database.db),
    underLock: (name, work) =>
      database.db.transaction().execute(async (trx) => {
        await database.transactionLock(trx, name);
        return work(uploadsRepository(trx));
      }),
    settings: {
      directory: config.UPLOADS_DIR,
      maxFileBytes: config.UPLOAD_MAX_FILE_MB * MB,
      maxBatchBytes: config.UPLOAD_MAX_BATCH_MB * MB,
      maxBatchFiles: config.UPLOAD_MAX_FILES,
      quotaBytes: config.UPLOAD_QUOTA_MB * MB,
      allowedTypes,
      chunkBytes: 8 * MB,
    },
  });
  const tus = tusUploads(uploads, logger);

  // The sample pages' upstreams: one client (timeout, single-flight), one answer cache, one picture allowlist —
  // the providers' picture locations plus those of the configured upstreams (a mirror or local fake serves its own).
  const upstream = upstreamClient({ timeoutMs: config.SAMPLES_TIMEOUT_MS });
  const pictures = pictureAllowlist([...PROVIDER_PICTURE_LOCATIONS, `${config.SAMPLES_POKEAPI_SPRITES_URL}/`, `${config.SAMPLES_RICKANDMORTY_URL}/character/avatar/`]);
  const samples = samplesRoutes(
    samplesService({
      upstream,
      answers: sampleAnswers({ repository: sampleCacheRepository(database.db), ttlMs: config.SAMPLES_CACHE_SECONDS * 1000, logger }),
      pictures,
      urls: {
        pokeApi: config.SAMPLES_POKEAPI_URL,
        pokeApiSprites: config.SAMPLES_POKEAPI_SPRITES_URL,
        rickAndMorty: config.SAMPLES_RICKANDMORTY_URL,
        jsonPlaceholder: config.SAMPLES_JSONPLACEHOLDER_URL,
      },
    }),
    sampleImages({ upstream, allowlist: pictures, directory: config.SAMPLES_IMAGE_DIR }),
  );

  const app = express();
  // Removes unfinished uploads past their expiry (the server's hourly purge calls it).
  app.locals.cleanUpUploads = tus.cleanUp;
  // Ends the open event streams at shutdown so in-flight requests can finish.
  app.locals.closeStreams = () => {
    events.endAll();
    pt.endStreams();
    conversations.endStreams();
  };
  app.locals.bus = bus;
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'simple');

  app.use(requestLog(app, logger));

  const origins = publicOrigins(config.PUBLIC_ORIGIN);
  app.use(hostGuard(origins));

  app.use(
    securityHeaders({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'connect-src': ["'self'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'media-src': ["'self'", 'blob:'],
          'upgrade-insecure-requests': config.COOKIE_SECURE ? [] : null,
        },
      },
      strictTransportSecurity: config.COOKIE_SECURE,
    }),
  );

  const checkResponses = deps.checkResponses ?? process.env.NODE_ENV === 'test';
  const api = express.Router();
  api.use(csrfGuard(origins));
  // Signed Kisi webhooks read their raw body themselves (the JSON parser leaves a read body alone).
  const webhookRoutes = [
    kisiWebhookRoute({
      events: kisiEvents,
      secret: deps.kisi?.settings.webhookSecret,
      emailOfKisiUser: deps.kisi ? async (id) => (await deps.kisi!.client.getUser(id))?.email ?? null : undefined,
      publish: (event) => bus.publish('webhook', event),
      logger,
    }),
  ];
  const readSession = sessionMiddleware(auth.userForToken);
  const jsonBody = express.json({ limit: JSON_BODY_LIMIT, type: ['application/json', 'application/*+json'], verify: refuseDeepJson });

  const routes = [
    ...authRoutes(auth, {
      cookieSecure: config.COOKIE_SECURE,
      sessionTtlMs,
      throttle: loginThrottle(sharedCounters(database.db), { ...DEFAULT_LOGIN_LIMITS, ...deps.loginLimits }),
    }),
    events.route,
    ...(deps.kisi?.emulator ? emulatorControlRoutes(deps.kisi.emulator) : []),
    ...webhookInboxRoutes(webhookInboxService({ events: kisiEvents })),
    ...pt.routes,
    ...chat,
    ...conversations.routes,
    ...uploadRoutes(uploads),
    ...samples,
    ...catalogueRoutes(catalogueService({ catalogue: catalogueRepository(database.db), matchesText: database.matchesText })),
    ...gymRoutes(gymService({ owners: ownersRepository(database.db), members: membersRepository(database.db), door: deps.door })),
    ...statusRoutes({ version: deps.version, startedAt: deps.startedAt ?? new Date(), databaseEngine: database.engine, kisiMode: kisiMode(config) }),
  ];
  // Every endpoint the API answers: its own handlers, and Kisi's through the proxy.
  const endpoints = [...webhookRoutes, ...routes].map((r) => r.endpoint).concat(Object.values(kisiApi), openApiContract.document);
  const openApi = openApiDocument(endpoints, { version: deps.version });
  routes.push(route(openApiContract.document, () => openApi));
  const answers = database.changeMarker && answerCache(database.changeMarker);
  mountRoutes(api, [...webhookRoutes, ...routes], { checkResponses, session: readSession, jsonBody, answers });
  app.locals.endpoints = endpoints;

  // What the contracts' endpoints do not answer: tus uploads and the Kisi proxy, each for signed-in roles.
  api.use(readSession);
  // tus streams a file's bytes to disk itself; it is not a JSON endpoint.
  api.all(['/uploads/tus', '/uploads/tus/:id'], tus.handler);
  api.use(
    '/kisi',
    jsonBody,
    deps.kisi
      ? kisiProxy({ settings: deps.kisi.settings, limiter: deps.kisi.limiter, logger })
      : () => {
          throw new HttpError(503, 'Kisi is not configured on this server.');
        },
  );

  api.use(apiNotFound);
  app.use('/api', api);
  app.use(spaMiddleware(config.STATIC_DIR));
  app.use(errorHandler(logger));
  return app;
}
