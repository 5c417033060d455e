import type { Request } from 'express';
import { accountApi, passkeyLoginApi } from '../../contracts/account.contract';
import { route } from '../../lib/endpoint-router';
import { badRequest } from '../../lib/http-error';
import type { PublicOrigins } from '../../lib/origins.middleware';
import { limitRequests, type CounterStoreFor } from '../../lib/rate-limit';
import { sessionClientOf, type SessionCookie } from './auth.router';
import type { PasskeysService, RelyingParty } from './passkeys.service';

/**
 * Passkey sign-in requests (options and answers together) one address may make per window: a
 * sign-in is two or three, and a login page asks for options as it opens (the email box's autofill).
 * Nothing here counts towards the password limits: a passkey cannot be guessed, and it always signs in.
 */
export const DEFAULT_PASSKEY_TRIES = 60;
const PASSKEY_WINDOW_MS = 5 * 60_000;

export interface PasskeyRouteOptions {
  cookie: SessionCookie;
  /** Who the app answers for (`PUBLIC_ORIGIN`, or this machine's addresses without it). */
  origins: PublicOrigins;
  counterStore: CounterStoreFor;
  /** Passkey sign-in requests per address in 5 minutes (default {@link DEFAULT_PASSKEY_TRIES}). */
  passkeyTries?: number;
}

const NOT_HERE = 'Passkeys work only at the app’s own address (PUBLIC_ORIGIN on the server).';

/**
 * The relying party of a request: the origin the page was opened at, which must be one the app
 * answers for (`PUBLIC_ORIGIN`, which behind the deploy recipe's proxy is the public https address;
 * without it, this machine's own addresses), and its host name as the RP id. The browser writes the
 * same origin into what the authenticator signs, and the RP id's hash into its data, so an answer
 * made on any other site (a phishing copy) does not pass.
 */
export function relyingPartyOf(origins: PublicOrigins) {
  return (req: Request): RelyingParty => {
    // Browsers send Origin with every POST; a client that does not is taken at the address it asked.
    const origin = req.get('origin') ?? `${req.protocol}://${req.host}`;
    if (!origins.allowsOrigin(origin)) throw badRequest(NOT_HERE);
    return { rpID: new URL(origin).hostname, origin };
  };
}

/** Passkeys: a signed-in person's own (`/api/account/passkeys`), and signing in with one (`/api/auth/passkey`). */
export function passkeyRoutes(passkeys: PasskeysService, options: PasskeyRouteOptions) {
  const relyingParty = relyingPartyOf(options.origins);
  const limiter = limitRequests({
    limit: options.passkeyTries ?? DEFAULT_PASSKEY_TRIES,
    windowMs: PASSKEY_WINDOW_MS,
    store: options.counterStore('passkey-sign-in-ip:'),
    message: (seconds) => `Too many passkey sign-ins from this address. Wait ${seconds} seconds, then try again.`,
  });
  const limited = { before: [limiter] };

  return [
    // The access guard let only a signed-in request through to the account's own routes (req.user).
    route(accountApi.passkeyOptions, (_input, { req, res }) => {
      res.set('Cache-Control', 'no-store');
      return passkeys.registrationOptions(req.user!, relyingParty(req));
    }),
    route(accountApi.addPasskey, ({ body }, { req }) => passkeys.add(req.user!, relyingParty(req), body)),
    route(accountApi.renamePasskey, ({ params, body }, { req }) => passkeys.rename(req.user!, params.id, body.name)),
    route(accountApi.removePasskey, ({ params }, { req }) => passkeys.remove(req.user!, params.id)),

    route(
      passkeyLoginApi.options,
      (_input, { req, res }) => {
        res.set('Cache-Control', 'no-store');
        return passkeys.signInOptions(relyingParty(req));
      },
      limited,
    ),
    route(
      passkeyLoginApi.signIn,
      async ({ body }, { req, res }) => {
        const opened = await passkeys.signIn(relyingParty(req), body.response, sessionClientOf(req));
        options.cookie.set(req, res, opened.token);
        return { user: opened.user };
      },
      limited,
    ),
  ];
}
