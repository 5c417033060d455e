import type { Request, RequestHandler } from 'express';
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

/**
 * Reads the `sid` cookie and attaches the session's user; never rejects by itself. A session the
 * lookup knows at once (from memory) goes on without waiting a turn of the event loop.
 */
export function sessionMiddleware(userForToken: (token: string) => SessionUser | undefined | Promise<SessionUser | undefined>): RequestHandler {
  const attach = (req: Request, token: string, user: SessionUser | undefined) => {
    req.user = user;
    if (user) req.sessionToken = token;
  };
  return (req, _res, next) => {
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (!token || token.length > 128) return next();
    const user = userForToken(token);
    if (!(user instanceof Promise)) {
      attach(req, token, user);
      return next();
    }
    return user.then((found) => {
      attach(req, token, found);
      next();
    });
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
