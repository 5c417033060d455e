import type { Request } from 'express';
import { accountApi } from '../../contracts/account.contract';
import { route } from '../../lib/endpoint-router';
import { addressOf, type SessionCookie } from './auth.router';
import type { Asker, OwnAccountService } from './own-account.service';

/** The access guard let only a signed-in request through: its user and the token it came with. */
const askerOf = (req: Request): Asker => ({ user: req.user!, token: req.sessionToken! });

/** `/api/account`: each person's own name, password and sessions (the passkeys' endpoints have a router of their own). */
export function ownAccountRoutes(account: OwnAccountService, options: { cookie: SessionCookie }) {
  return [
    route(accountApi.get, (_input, { req, res }) => {
      res.set('Cache-Control', 'no-store');
      return account.get(askerOf(req));
    }),
    route(accountApi.changeName, ({ body }, { req }) => account.changeName(askerOf(req), body.name)),
    route(accountApi.changePassword, ({ body }, { req }) => account.changePassword(askerOf(req), body, addressOf(req))),
    route(accountApi.endSession, async ({ params }, { req, res }) => {
      const { current } = await account.endSession(askerOf(req), params.id);
      // Signed out here by its own list: the cookie goes with the session.
      if (current) options.cookie.clear(req, res);
    }),
    route(accountApi.endOtherSessions, (_input, { req }) => account.endOtherSessions(askerOf(req))),
  ];
}
