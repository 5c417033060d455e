import type { CookieOptions, Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { authApi } from '../../contracts/auth.contract';
import { loginApi } from '../../contracts/login.contract';
import { SESSION_COOKIE } from '../../lib/auth.middleware';
import { route } from '../../lib/endpoint-router';
import { HttpError } from '../../lib/http-error';
import type { AuthService } from './auth.service';
import type { LoginThrottle } from './login-throttle';

/** The client's address as the limits count it: IPv6 clients by their /56, as one household or office is. */
const addressOf = (req: Request) => ipKeyGenerator(req.ip ?? 'unknown');

export function authRoutes(auth: AuthService, options: { cookieSecure: boolean; sessionTtlMs: number; throttle: LoginThrottle }) {
  const cookieOptions = (req: Request): CookieOptions => ({
    httpOnly: true,
    sameSite: 'lax',
    secure: options.cookieSecure || req.secure,
    path: '/',
  });
  const { throttle } = options;

  return [
    route(loginApi.login, async ({ body }, { req, res }) => {
      const address = addressOf(req);
      const { email } = body;
      await throttle.beforeAttempt(address, email);
      const signedIn = await auth.login(email, body.password).catch(async (err: unknown) => {
        if (err instanceof HttpError && err.status === 401) throw (await throttle.failed(address, email)) ?? err;
        throw err;
      });
      await throttle.succeeded(address, email);
      res.cookie(SESSION_COOKIE, signedIn.token, { ...cookieOptions(req), maxAge: options.sessionTtlMs });
      return { user: signedIn.user };
    }),
    route(authApi.logout, async (_input, { req, res }) => {
      if (req.sessionToken && req.user) await auth.logout(req.user, req.sessionToken);
      res.clearCookie(SESSION_COOKIE, cookieOptions(req));
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
