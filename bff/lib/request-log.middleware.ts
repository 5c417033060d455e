import crypto from 'node:crypto';
import type { Express, Request, RequestHandler } from 'express';
import type { Logger } from './logger';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own extension point
  namespace Express {
    interface Request {
      /** This request's id, also sent back as `X-Request-Id` and written on each of its log lines. */
      id: string;
      /** The logger for this request: its lines carry the request id. */
      log: Logger;
    }
  }
}

/** A diner's order token in a query string is a key to their order: it never reaches the log. */
const redactTokens = (url: string) => (url.includes('token=') ? url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]') : url);

/**
 * One log line per request, written when the answer is finished: id, method, URL, status and time,
 * and never a header (cookies, authorization). A refusal is the client's mistake and logs at info,
 * so a flood of bad requests never buries the server's own warnings; a 5xx logs at error. Nothing
 * is built for a line the level leaves out.
 *
 * `req.log` is a getter on the app's request prototype, defined once here: defining it on each
 * request turned every request object into a slow dictionary and cost about 25 µs a request
 * (README Decisions, hot paths). Its child logger is made only when a handler asks for one.
 */
export function requestLog(app: Express, logger: Logger): RequestHandler {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request) {
      return logger.child({ reqId: this.id });
    },
  });
  return (req, res, next) => {
    const started = performance.now();
    const id = crypto.randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    res.once('finish', () => {
      const level = res.statusCode >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        { req: { id, method: req.method, url: redactTokens(req.originalUrl) }, res: { statusCode: res.statusCode }, responseTime: Math.round(performance.now() - started) },
        'request completed',
      );
    });
    next();
  };
}
