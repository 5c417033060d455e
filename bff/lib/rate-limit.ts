import type { Request } from 'express';
import { rateLimit, type Options, type RateLimitInfo, type Store } from 'express-rate-limit';
import { sendProblem } from './problem';

/** Where a limiter keeps its counts, one store per limiter (`prefix` keeps their keys apart). */
export type CounterStoreFor = (prefix: string) => Store;

/**
 * The one way to rate-limit a route: `limit` requests per `windowMs` per key (the client's IP
 * unless `keyGenerator` says otherwise), counted in `store`; over it, a 429 problem with
 * `Retry-After` and `message(secondsToWait)`.
 */
export function limitRequests(options: {
  limit: number;
  windowMs: number;
  store: Store;
  message: (seconds: number) => string;
  keyGenerator?: Options['keyGenerator'];
}) {
  const { limit, windowMs, store, message, keyGenerator } = options;
  return rateLimit({
    windowMs,
    limit,
    store,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    ...(keyGenerator ? { keyGenerator } : {}),
    handler: (req, res) => {
      const resetTime = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit?.resetTime;
      const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : Math.ceil(windowMs / 1000);
      res.set('Retry-After', String(seconds));
      sendProblem(res, 429, message(seconds));
    },
  });
}
