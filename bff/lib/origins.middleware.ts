import os from 'node:os';
import type { Request, RequestHandler } from 'express';
import { HttpError } from './http-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** This machine's own addresses, written as URL host names (`10.0.0.5`, `[fe80::1]`). */
function machineAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .flatMap((info) => (info ? [info.family === 'IPv6' ? `[${info.address.replace(/%.*$/, '')}]` : info.address] : []));
}

/** `url` parsed, when it is an http(s) URL. */
const httpUrl = (url: string): URL | undefined => {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? parsed : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Who the app answers for (README "Decisions", origins). With `PUBLIC_ORIGIN` set: those origins,
 * exactly. Without it: this machine's own addresses at any port — loopback, and its network
 * addresses so a phone on the venue's network reaches it by IP. Loopback is always allowed: no page
 * elsewhere can make a browser send it, and the built-in Kisi emulator posts its webhooks there.
 * A name is never trusted just because the request's own `Host` says it (DNS rebinding).
 */
export function publicOrigins(configured: readonly string[] | undefined, localAddresses: readonly string[] = machineAddresses()) {
  const origins = new Set(configured ?? []);
  const hosts = new Set([...origins].map((origin) => new URL(origin).host));
  const local = new Set([...LOOPBACK, ...(configured ? [] : localAddresses)]);
  const localHostsSeen = new Set<string>();
  return {
    allowsOrigin(origin: string): boolean {
      if (origins.has(origin)) return true;
      const url = httpUrl(origin);
      return url !== undefined && local.has(url.hostname) && url.origin === origin;
    },
    allowsHost(host: string): boolean {
      if (hosts.has(host)) return true;
      // Every request asks: the hosts already let in are remembered rather than parsed again (a few µs a request).
      // Only those, and a bounded number, so a flood of made-up Host headers grows nothing.
      if (localHostsSeen.has(host)) return true;
      const url = httpUrl(`http://${host}`);
      const allowed = url !== undefined && local.has(url.hostname);
      if (allowed && localHostsSeen.size < 64) localHostsSeen.add(host);
      return allowed;
    },
  };
}
export type PublicOrigins = ReturnType<typeof publicOrigins>;

/** Refuses a request addressed to a host the app does not answer for (a DNS-rebound name, a stray virtual host). */
export const hostGuard =
  (allowed: PublicOrigins): RequestHandler =>
  (req, _res, next) => {
    // `req.host` is the forwarded host behind a trusted proxy, the Host header otherwise.
    const host = req.host;
    if (!host || !allowed.allowsHost(host)) throw new HttpError(421, 'This server does not answer for that host name. Open the app at its own address, or add this one to PUBLIC_ORIGIN on the server.');
    next();
  };

/** The origin a browser's state-changing request comes from: `Origin`, or without it the `Referer`'s. */
function requestOrigin(req: Request): string | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined) return origin;
  const referer = req.headers.referer;
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/**
 * CSRF rule (docs/ARCHITECTURE.md "API conventions"): a state-changing request with a body must be
 * JSON (no HTML form can send that cross-site without CORS; no endpoint takes a multipart form,
 * which any site's form can send), and its origin, when the browser says it, must be the app's.
 * A request that names no origin at all comes from no browser page (a script, Kisi's webhooks).
 */
export const csrfGuard =
  (allowed: PublicOrigins): RequestHandler =>
  (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    // tus sends a file's bytes as application/offset+octet-stream, with its Tus-Resumable header (which no form can set).
    const tusBytes = req.headers['tus-resumable'] !== undefined && req.is('application/offset+octet-stream');
    if (hasBody && !tusBytes && !req.is(['application/json', 'application/*+json'])) {
      throw new HttpError(415, 'Send the request body as application/json.');
    }
    const origin = requestOrigin(req);
    if (origin !== undefined && !allowed.allowsOrigin(origin)) throw new HttpError(403, 'Cross-origin requests are not allowed.');
    next();
  };
