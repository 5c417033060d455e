import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { eventsRoutes } from './emulator.events';
import { groupLinksRoutes } from './emulator.group-links';
import { groupsRoutes } from './emulator.groups';
import { locksRoutes, type UnlockOutcome } from './emulator.locks';
import { roleAssignmentsRoutes } from './emulator.role-assignments';
import { ENDPOINT_MISSING, kisiError } from './emulator.shared';
import type { EmulatorStore } from './emulator.store';
import { usersRoutes } from './emulator.users';

/**
 * The stand-in Kisi API (docs/kisi-api.md): the endpoints Frontdesk uses, with Kisi's
 * conventions — KISI-LOGIN auth, bare arrays with X-Collection-Range, per-endpoint limit/offset
 * defaults and maxima, 200 on create, 204 on PATCH/PUT/DELETE, `{error, code}` for
 * 401/403/404/409/503 and `{errors: {field: [...]}}` for 422. Each resource's routes live beside
 * its store functions; this file only puts them behind the key check and the rate limit.
 */

export interface EmulatorAppDeps {
  store: EmulatorStore;
  apiKey: string;
  /** The API user the key belongs to (creator of links, actor of remote unlocks, `user_id=me`). */
  apiUserId: () => Promise<number | null>;
  /** Remote unlock by the API user: records the event and sends the webhook. */
  unlock: (lockId: number) => Promise<UnlockOutcome>;
  /** Kisi allows 5 requests/s per user; off unless set (tests use it to show a 429). */
  rateLimitPerSecond?: number;
}

/** A sliding one-second window per key, answering 429 like Kisi when it is exceeded. */
function rateLimit(perSecond: number): RequestHandler {
  const starts: number[] = [];
  return (_req, res, next) => {
    const now = Date.now();
    while (starts.length && now - starts[0]! >= 1000) starts.shift();
    if (starts.length >= perSecond) return void kisiError(res, 429, 'Rate limit exceeded. Please retry later.', '000429');
    starts.push(now);
    next();
  };
}

export function createEmulatorApp(deps: EmulatorAppDeps) {
  const { store } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('etag', false);

  app.use((req, res, next) => {
    if (req.get('Authorization') !== `KISI-LOGIN ${deps.apiKey}`) return void kisiError(res, 401, 'Your login is invalid or has expired. Please sign in again.', '000401');
    next();
  });
  if (deps.rateLimitPerSecond) app.use(rateLimit(deps.rateLimitPerSecond));
  app.use(express.json({ limit: '1mb' }));

  app.use(
    usersRoutes(store, deps.apiUserId),
    roleAssignmentsRoutes(store, deps.apiUserId),
    groupsRoutes(store),
    groupLinksRoutes(store, deps.apiUserId),
    locksRoutes(store, deps.unlock),
    eventsRoutes(store),
  );

  app.use((_req, res) => void res.status(404).json(ENDPOINT_MISSING));
  const onError: ErrorRequestHandler = (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const type = (err as { type?: string }).type;
    if (type === 'entity.parse.failed') return void kisiError(res, 400, 'The request body is not valid JSON.', '000400');
    if (type === 'entity.too.large') return void kisiError(res, 413, 'The request body is too large.', '000413');
    kisiError(res, 500, 'An unexpected issue occured.', 'ffffff');
  };
  app.use(onError);
  return app;
}
