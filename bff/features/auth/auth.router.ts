import type { CookieOptions, Request } from 'express';
import type { Options, Store } from 'express-rate-limit';
import { authApi, loginApi } from '../../contracts/auth.contract';
import { SESSION_COOKIE } from '../../lib/auth.middleware';
import { route } from '../../lib/endpoint-router';
import { limitRequests, type CounterStoreFor } from '../../lib/rate-limit';
import type { AuthService } from './auth.service';

export interface LoginRateLimit {
  windowMs: number;
  /** Failed attempts allowed per client IP in the window. */
  perIp: number;
  /** Failed attempts allowed per email in the window. */
  perEmail: number;
}

export const DEFAULT_LOGIN_RATE_LIMIT: LoginRateLimit = { windowMs: 15 * 60_000, perIp: 20, perEmail: 5 };

function loginLimiter(limit: number, windowMs: number, store: Store, keyGenerator?: Options['keyGenerator']) {
  return limitRequests({
    limit,
    windowMs,
    store,
    keyGenerator,
    failuresOnly: true,
    message: (seconds) => `Too many login attempts. Try again in ${Math.ceil(seconds / 60)} minute(s).`,
  });
}

const emailKey = (req: Request) => {
  const email: unknown = req.body?.email;
  return `email:${typeof email === 'string' ? email.trim().toLowerCase() : ''}`;
};

export function authRoutes(auth: AuthService, options: { cookieSecure: boolean; sessionTtlMs: number; rateLimit: LoginRateLimit; counterStore: CounterStoreFor }) {
  const cookieOptions = (req: Request): CookieOptions => ({
    httpOnly: true,
    sameSite: 'lax',
    secure: options.cookieSecure || req.secure,
    path: '/',
  });
  const limiters = [
    loginLimiter(options.rateLimit.perIp, options.rateLimit.windowMs, options.counterStore('login-ip:')),
    loginLimiter(options.rateLimit.perEmail, options.rateLimit.windowMs, options.counterStore('login-email:'), emailKey),
  ];

  return [
    route(
      loginApi.login,
      async ({ body }, { req, res }) => {
        const { token, user } = await auth.login(body.email, body.password);
        res.cookie(SESSION_COOKIE, token, { ...cookieOptions(req), maxAge: options.sessionTtlMs });
        return { user };
      },
      { before: limiters },
    ),
    route(authApi.logout, async (_input, { req, res }) => {
      if (req.sessionToken) await auth.logout(req.sessionToken);
      res.clearCookie(SESSION_COOKIE, cookieOptions(req));
    }),
    route(authApi.getAuth, (_input, { req, res }) => {
      res.set('Cache-Control', 'no-store');
      // The access guard let only a signed-in request through.
      return { user: req.user! };
    }),
  ];
}
