import type { Feature, FeatureContext } from '../../feature';
import { purgeEndedCounters, sharedCounters } from '../../db/shared-limits';
import { periodicJob } from '../../lib/jobs';
import { publicOrigins } from '../../lib/origins.middleware';
import { authRoutes, sessionCookie } from './auth.router';
import { type AuthService, authServiceOn } from './auth.service';
import { DEFAULT_LOGIN_LIMITS, loginThrottle, type LoginLimits } from './login-throttle';
import { passkeyRoutes } from './passkeys.router';
import { passkeysServiceOn } from './passkeys.service';
import { ownAccountRoutes } from './own-account.router';
import { ownAccountServiceOn } from './own-account.service';
import { teamRoutes } from './team.router';
import { teamServiceOn } from './team.service';

export interface AuthFeatureOptions {
  /** Told after sessions were ended here, so every instance can close the event streams they held open. */
  sessionsEnded: () => Promise<void>;
  /** How long a session read is reused from memory (default 5 s; ending a session forgets it at once). */
  sessionCacheMs?: number;
  /** The login limits (tests lower them to reach them). */
  loginLimits?: Partial<LoginLimits>;
  /** Tries with invitation and reset links one address may make in 15 minutes (tests raise it). */
  linkTries?: number;
  /** Passkey sign-in requests one address may make in 5 minutes (tests raise it). */
  passkeyTries?: number;
}

/** Accounts, sessions and the login limits: `/api/auth`, and the hourly purge of what has ended. */
export function authFeature({ config, database, logger, mount, counterStore }: FeatureContext, options: AuthFeatureOptions): Feature & { auth: AuthService } {
  const sessionTtlMs = config.SESSION_TTL_HOURS * 3_600_000;
  const auth = authServiceOn(database.db, {
    sessionTtlMs,
    sessionsEnded: options.sessionsEnded,
    sessionCacheMs: options.sessionCacheMs,
  });
  const cookie = sessionCookie({ cookieSecure: config.COOKIE_SECURE, sessionTtlMs });
  const throttle = loginThrottle(sharedCounters(database.db), { ...DEFAULT_LOGIN_LIMITS, ...options.loginLimits });
  const passkeys = passkeysServiceOn(database, { auth });
  const origins = publicOrigins(config.PUBLIC_ORIGIN);
  return {
    ...mount([
      ...authRoutes(auth, { cookie, throttle }),
      ...passkeyRoutes(passkeys, { cookie, origins, counterStore, passkeyTries: options.passkeyTries }),
      ...teamRoutes(teamServiceOn(database, { auth, sessionsEnded: options.sessionsEnded }), { cookie, origins, counterStore, linkTries: options.linkTries }),
      ...ownAccountRoutes(ownAccountServiceOn(database.db, { auth, throttle, sessionsEnded: options.sessionsEnded }), { cookie }),
    ]),
    auth,
    jobs: [periodicJob('purge of ended sessions and counters', 3_600_000, () => Promise.all([auth.purgeEndedSessions(), purgeEndedCounters(database.db), passkeys.purgeExpiredChallenges()]), logger)],
  };
}
