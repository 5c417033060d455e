import type { Request, Response } from 'express';
import { accountLinksApi, teamApi } from '../../contracts/team.contract';
import { route } from '../../lib/endpoint-router';
import type { PublicOrigins } from '../../lib/origins.middleware';
import { limitRequests, type CounterStoreFor } from '../../lib/rate-limit';
import { sessionClientOf, type SessionCookie } from './auth.router';
import type { OpenedSession } from './auth.service';
import { relyingPartyOf } from './passkeys.router';
import type { TeamService } from './team.service';

/** Tries with invitation and reset links one address may make per window (every answer counts, a good one too: a person needs two or three). */
export const DEFAULT_LINK_TRIES = 30;
const LINK_WINDOW_MS = 15 * 60_000;

export interface TeamRouteOptions {
  cookie: SessionCookie;
  counterStore: CounterStoreFor;
  /** Who the app answers for: joining with a passkey makes it for this site (as `passkeyRoutes`). */
  origins: PublicOrigins;
  /** Tries with the public link endpoints per address in 15 minutes (default {@link DEFAULT_LINK_TRIES}). */
  linkTries?: number;
}

/** `/api/team` for admins, and the invitation and reset links their holders open without an account. */
export function teamRoutes(team: TeamService, options: TeamRouteOptions) {
  // A link's secret is 32 random bytes, beyond guessing; the limit keeps one address from making the
  // server check (and hash passwords for) links at will.
  const linkLimiter = limitRequests({
    limit: options.linkTries ?? DEFAULT_LINK_TRIES,
    windowMs: LINK_WINDOW_MS,
    store: options.counterStore('account-link-ip:'),
    message: (seconds) => `Too many tries with invitation and reset links from this address. Try again in ${Math.ceil(seconds / 60)} minute(s).`,
  });
  const limited = { before: [linkLimiter] };
  const relyingParty = relyingPartyOf(options.origins);
  const signIn = (req: Request, res: Response, opened: OpenedSession) => {
    options.cookie.set(req, res, opened.token);
    return { user: opened.user };
  };

  // The admin endpoints: the access guard let only an admin through, so `req.user` is there.
  return [
    route(teamApi.list, (_input, { res }) => {
      res.set('Cache-Control', 'no-store');
      return team.list();
    }),
    route(teamApi.invite, ({ body }, { req }) => team.invite(req.user!, body)),
    route(teamApi.withdrawInvitation, ({ params }, { req }) => team.withdrawInvitation(req.user!, params.id)),
    route(teamApi.changeRole, ({ params, body }, { req }) => team.changeRole(req.user!, params.id, body.role)),
    route(teamApi.changeStatus, ({ params, body }, { req }) => team.changeStatus(req.user!, params.id, body.status)),
    route(teamApi.resetLink, ({ params, body }, { req }) => team.makeResetLink(req.user!, params.id, body.expiresInHours)),
    route(teamApi.remove, ({ params, query }, { req }) => team.remove(req.user!, params.id, { erase: query.erase })),

    route(accountLinksApi.previewInvitation, ({ body }) => team.previewInvitation(body.token), limited),
    route(accountLinksApi.acceptInvitation, async ({ body }, { req, res }) => signIn(req, res, await team.acceptInvitation(body, sessionClientOf(req))), limited),
    route(
      accountLinksApi.invitationPasskeyOptions,
      ({ body }, { req, res }) => {
        res.set('Cache-Control', 'no-store');
        return team.passkeyJoinOptions(body, relyingParty(req));
      },
      limited,
    ),
    route(
      accountLinksApi.acceptInvitationWithPasskey,
      async ({ body }, { req, res }) => signIn(req, res, await team.acceptInvitationWithPasskey(body, relyingParty(req), sessionClientOf(req))),
      limited,
    ),
    route(accountLinksApi.previewReset, ({ body }) => team.previewReset(body.token), limited),
    route(accountLinksApi.useReset, async ({ body }, { req, res }) => signIn(req, res, await team.useReset(body, sessionClientOf(req))), limited),
  ];
}
