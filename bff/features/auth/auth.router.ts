import type { CookieOptions, Request, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { authApi } from '../../contracts/auth.contract';
import { loginApi } from '../../contracts/login.contract';
import { SESSION_COOKIE } from '../../lib/auth.middleware';
import { route } from '../../lib/endpoint-router';
import { HttpError } from '../../lib/http-error';
import type { AuthService, SessionClient } from './auth.service';
import type { LoginThrottle } from './login-throttle';

/** The client's address as the limits count it: IPv6 clients by their /56, as one household or office is. */
export const addressOf = (req: Request) => ipKeyGenerator(req.ip ?? 'unknown');

/** The browser and address a session is opened from, for its owner's sessions list. */
export const sessionClientOf = (req: Request): SessionClient => ({ userAgent: req.get('user-agent') ?? '', address: req.ip ?? '' });

/** The `sid` cookie: set when a session opens (a password, a passkey, a link), cleared when it ends. */
export function sessionCookie(options: { cookieSecure: boolean; sessionTtlMs: number }) {
  const cookieOptions = (req: Request): CookieOptions => ({
    httpOnly: true,
    sameSite: 'lax',
    secure: options.cookieSecure || req.secure,
    path: '/',
  });
  return {
    set: (req: Request, res: Response, token: string) => res.cookie(SESSION_COOKIE, token, { ...cookieOptions(req), maxAge: options.sessionTtlMs }),
    clear: (req: Request, res: Response) => res.clearCookie(SESSION_COOKIE, cookieOptions(req)),
  };
}
export type SessionCookie = ReturnType<typeof sessionCookie>;

export function authRoutes(auth: AuthService, options: { cookie: SessionCookie; throttle: LoginThrottle }) {
  const { throttle, cookie } = options;

  return [
    route(loginApi.login, async ({ body }, { req, res }) => {
      const address = addressOf(req);
      const { email } = body;
      await throttle.beforeAttempt(address, email);
      const signedIn = await auth.login(email, body.password, sessionClientOf(req)).catch(async (err: unknown) => {
        if (err instanceof HttpError && err.status === 401) throw (await throttle.failed(address, email)) ?? err;
        throw err;
      });
      await throttle.succeeded(address, email);
      cookie.set(req, res, signedIn.token);
      return { user: signedIn.user };
    }),
    route(authApi.logout, async (_input, { req, res }) => {
      if (req.sessionToken && req.user) await auth.logout(req.user, req.sessionToken);
      cookie.clear(req, res);
    }),
    route(authApi.getAuth, (_input, { req, res }) => {
      res.set('Cache-Control', 'no-store');
      // The access guard let only a signed-in request through.
      return { user: req.user! };
    }),
    route(authApi.session, (_input, { req, res }) => {
      res.set('Cache-Control', 'no-store');
      return { user: req.user ?? null };
    }),
  ];
}
