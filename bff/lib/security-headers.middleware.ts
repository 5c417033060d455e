import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers, worked out once at start-up and copied onto every response: helmet
 * runs a dozen small middlewares per request, each building or setting one header, for headers that
 * never change. Helmet is run once on a stand-in response and what it set is kept.
 */
export function securityHeaders(options: HelmetOptions): RequestHandler {
  const headers = new Map<string, string | number | readonly string[]>();
  const standIn = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.set(name, value),
    removeHeader: (name: string) => void headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  } as unknown as ServerResponse;
  let finished = false;
  helmet(options)({} as IncomingMessage, standIn, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  // Helmet's middlewares are synchronous; one that was not would leave headers unset here, which would be a silent loss.
  if (!finished) throw new Error('helmet did not finish synchronously; its headers cannot be worked out once');
  const fixed = [...headers];
  return (_req, res, next) => {
    for (const [name, value] of fixed) res.setHeader(name, value);
    next();
  };
}
