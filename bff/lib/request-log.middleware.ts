import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from './logger';

/** A diner's order token in a query string is a key to their order: it never reaches the log. */
const redactTokens = (url: string) => (url.includes('token=') ? url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]') : url);

/**
 * One log line per request (pino-http), written when the answer is finished: id, method, URL, status
 * and time, and never a header (cookies, authorization). A refusal is the client's mistake and logs
 * at info, so a flood of bad requests never buries the server's own warnings; a 5xx logs at error.
 * The id is sent back as `X-Request-Id`; `req.log` writes lines that carry the request (id, method,
 * URL): one child logger a request, made once.
 */
export function requestLog(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => {
      const id = crypto.randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; originalUrl?: string }) => ({ id: req.id, method: req.method, url: redactTokens(req.originalUrl ?? req.url ?? '') }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
