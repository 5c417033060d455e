import type { RequestHandler } from 'express';
import type { SessionUser } from '../contracts/auth.contract';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own extension point
  namespace Express {
    interface Request {
      /** Set by the session middleware when the `sid` cookie names a live session. */
      user?: SessionUser;
      sessionToken?: string;
    }
  }
}

export const SESSION_COOKIE = 'sid';

/** Reads the `sid` cookie and attaches the session's user; never rejects by itself. */
export function sessionMiddleware(userForToken: (token: string) => Promise<SessionUser | undefined>): RequestHandler {
  return async (req, _res, next) => {
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (token && token.length <= 128) {
      req.user = await userForToken(token);
      if (req.user) req.sessionToken = token;
    }
    next();
  };
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
