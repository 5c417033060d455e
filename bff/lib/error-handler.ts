import type { ErrorRequestHandler, RequestHandler } from 'express';
import { HttpError, undecodablePath } from './http-error';
import { TOO_DEEP_DETAIL } from './json-depth';
import type { Logger } from './logger';
import { sendProblem } from './problem';

/** Errors body-parser raises for the client's mistakes, by their `type`. */
const BODY_ERRORS: Record<string, [number, string]> = {
  'entity.parse.failed': [400, 'The request body is not valid JSON.'],
  'entity.too.large': [413, 'The request body is too large.'],
  'encoding.unsupported': [415, 'The request body encoding is not supported.'],
  'charset.unsupported': [415, 'The request body charset is not supported.'],
  'request.aborted': [400, 'The request was aborted.'],
  'entity.too.deep': [400, TOO_DEEP_DETAIL],
};

export const apiNotFound: RequestHandler = (req, res) => {
  sendProblem(res, 404, `No API endpoint ${req.method} ${req.originalUrl.split('?')[0]}.`);
};

/**
 * What no route, file or page answered (a missing asset, a method pages do not take): the app's own
 * 404 problem, never Express's HTML page. Pages themselves never get here (the SPA answers them).
 */
export const notFound: RequestHandler = (req, res) => {
  sendProblem(res, 404, `Nothing at ${req.method} ${req.originalUrl.split('?')[0]}.`);
};

/** How long a client is asked to wait when the database cannot be reached (PostgreSQL restarting, a failover). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface ErrorHandlerOptions {
  /**
   * Whether an error means the database cannot be reached now (`isDatabaseUnavailable`, which knows
   * each engine's codes): a try a little later may succeed, so it is a 503 with Retry-After, not a 500.
   */
  isUnavailable?: (err: unknown) => boolean;
}

/** The one error handler: expected failures become problems; an outage a 503; anything else is a logged 500. */
export function errorHandler(logger: Logger, { isUnavailable }: ErrorHandlerOptions = {}): ErrorRequestHandler {
  return (err, req, res, next) => {
    // A body cut off after its request was answered 408 (`bodyIdleTimeout`): nothing more to say, nor to log.
    if (res.headersSent && res.locals.bodyTimedOut === true) return;
    if (res.headersSent) return next(err);
    // Express's router could not percent-decode a path parameter (`%ZZ`, a lone `%`): the client's mistake.
    if (err instanceof URIError && (err as URIError & { status?: number }).status === 400) err = undecodablePath();
    if (err instanceof HttpError) {
      for (const [name, value] of Object.entries(err.options.headers ?? {})) res.setHeader(name, value);
      return sendProblem(res, err.status, err.detail, { errors: err.options.errors, title: err.options.title });
    }
    const bodyError = typeof err?.type === 'string' ? BODY_ERRORS[err.type] : undefined;
    if (bodyError) return sendProblem(res, bodyError[0], bodyError[1]);
    // A body whose bytes are not what its Content-Encoding says (zlib or brotli cannot inflate them).
    if (err?.expose === true && err.status === 400 && typeof err.code === 'string' && req.headers['content-encoding'] !== undefined) {
      return sendProblem(res, 400, 'The request body is not valid for its Content-Encoding (gzip, deflate or br).');
    }
    // Any other error the body parser marks as the client's own (http-errors' `expose` with a 4xx).
    if (err?.expose === true && Number.isInteger(err.status) && err.status >= 400 && err.status < 500) {
      return sendProblem(res, err.status, String(err.message || 'The request could not be read.'));
    }
    if (isUnavailable?.(err)) {
      // One line each at warn: the outage is the operator's news, and each failing request is not a bug of ours.
      (req.log ?? logger).warn({ code: err?.code, reason: String(err?.message ?? err) }, 'database unavailable');
      res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      res.setHeader('Cache-Control', 'no-store');
      return sendProblem(res, 503, 'The service is briefly unavailable. Try again in a few seconds.');
    }
    (req.log ?? logger).error({ err }, 'unhandled error');
    sendProblem(res, 500, 'Something went wrong on the server. It has been logged.');
  };
}
