import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { SessionUser } from '../../contracts/auth.contract';
import type { Role } from '../../contracts/endpoint.contract';
import { isUniqueViolation } from '../../db/engine';
import { conflict, unauthorized } from '../../lib/http-error';
import type { AccountsRepository } from './accounts.repository';
import { DUMMY_HASH_PROMISE, generatePassword, hashPassword, verifyPassword } from './password';
import type { SessionsRepository } from './sessions.repository';

export const WRONG_CREDENTIALS = 'Wrong email or password.';

/** Every instance hears on this channel that sessions were ended (the payload is empty: each checks its own). */
export const SESSIONS_ENDED_CHANNEL = 'frontdesk_sessions_ended';

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export interface AuthServiceDeps {
  accounts: AccountsRepository;
  sessions: SessionsRepository;
  sessionTtlMs: number;
  now?: () => Date;
  /** Told after sessions were ended, so every instance can close the event streams they held open. */
  sessionsEnded?: () => Promise<void>;
  /**
   * How long a session read is reused from memory. Ending sessions here forgets them at once, and
   * every instance forgets its own when told through `sessionsEnded`; only a change written to the
   * database by another process that cannot signal (the account CLI on SQLite) waits this long.
   */
  sessionCacheMs?: number;
}

/** Sessions kept in memory at most (a front desk has tens; the cap bounds a flood of distinct cookies). */
const SESSION_CACHE_ENTRIES = 5_000;

export function authService({ accounts, sessions, sessionTtlMs, now = () => new Date(), sessionsEnded = async () => {}, sessionCacheMs = 5_000 }: AuthServiceDeps) {
  const toUser = (a: { id: number; email: string; name: string; role: Role }): SessionUser => ({ id: a.id, email: a.email, name: a.name, role: a.role });
  // Live sessions by token, each kept until it must be read again (never past its expiry). Keyed by the
  // token itself, not its hash: hashing on every request cost more than the rest of the lookup, and this
  // memory holds the token no longer than the requests that carry it do. Its clock is `now`, the one the
  // database reads and the session expiry use.
  const cached =
    sessionCacheMs > 0
      ? new LRUCache<string, SessionUser>({ max: SESSION_CACHE_ENTRIES, ttlResolution: 0, perf: { now: () => now().getTime() } })
      : undefined;
  const endSessions = async () => {
    cached?.clear();
    await sessionsEnded();
  };

  // A session read from the database, kept for `sessionCacheMs` (never past its expiry).
  const readSession = async (token: string, at: Date): Promise<SessionUser | undefined> => {
    const found = await sessions.findActiveUser(hashToken(token), at.toISOString());
    if (!found) return undefined;
    const user = toUser(found);
    // Kept while now < min(at + sessionCacheMs, expiresAt): lru-cache still serves an entry at start + ttl,
    // hence the - 1; a ttl of 0 would keep it for ever.
    const ttl = Math.min(sessionCacheMs, Date.parse(found.expiresAt) - at.getTime()) - 1;
    if (ttl > 0) cached?.set(token, user, { ttl, start: at.getTime() });
    return user;
  };

  return {
    /** Checks the password and opens a session; one message for any wrong email or password. */
    async login(email: string, password: string): Promise<{ token: string; user: SessionUser; expiresAt: Date }> {
      const account = await accounts.findByEmail(email);
      const ok = await verifyPassword(password, account?.passwordHash ?? (await DUMMY_HASH_PROMISE));
      if (!account || !ok) throw unauthorized(WRONG_CREDENTIALS);
      const token = crypto.randomBytes(32).toString('base64url');
      const createdAt = now();
      const expiresAt = new Date(createdAt.getTime() + sessionTtlMs);
      await sessions.insert({ tokenHash: hashToken(token), accountId: account.id, createdAt: createdAt.toISOString(), expiresAt: expiresAt.toISOString() });
      return { token, user: toUser(account), expiresAt };
    },

    async logout(token: string): Promise<void> {
      await sessions.revoke(hashToken(token), now().toISOString());
      await endSessions();
    },

    /** The session's user; straight from memory (no promise to wait for) while the read is fresh. */
    userForToken(token: string): SessionUser | undefined | Promise<SessionUser | undefined> {
      return cached?.get(token) ?? readSession(token, now());
    },

    /** Another instance (or this one) ended sessions: the next read of each goes to the database. */
    forgetCachedSessions: () => cached?.clear(),

    async revokeSessions(email: string): Promise<number> {
      const account = await accounts.findByEmail(email);
      const ended = account ? await sessions.revokeAllForAccount(account.id, now().toISOString()) : 0;
      if (ended) await endSessions();
      return ended;
    },

    async addAccount(input: { email: string; name: string; role: Role; password: string }): Promise<SessionUser> {
      const exists = () => conflict(`An account with email ${input.email} already exists.`);
      if (await accounts.findByEmail(input.email)) throw exists();
      try {
        const created = await accounts.insert({ email: input.email, name: input.name, role: input.role, passwordHash: await hashPassword(input.password) });
        return toUser(created);
      } catch (err) {
        // Added at the same moment elsewhere (another instance, another terminal): the database decides.
        throw isUniqueViolation(err) ? exists() : err;
      }
    },

    async setPassword(email: string, password: string): Promise<boolean> {
      const account = await accounts.findByEmail(email);
      if (!account) return false;
      await accounts.updatePassword(account.id, await hashPassword(password));
      await sessions.revokeAllForAccount(account.id, now().toISOString());
      await endSessions();
      return true;
    },

    /**
     * First start: with no admin account, create one (`ADMIN_EMAIL`), unless that email belongs to an
     * account of another role, which is never promoted behind its owner's back. A first admin whose
     * start died before announcing it counts as created again: nobody has seen its generated password,
     * so a new one replaces it. Returns which admin exists (a start never names one it did not find),
     * and the password only when generated; call `firstAdminAnnounced` once it has been shown.
     */
    async ensureAdmin(email: string, password: string | undefined): Promise<{ created: boolean; adminEmail?: string; generatedPassword?: string }> {
      const unannounced = await accounts.unannouncedFirstAdmin();
      if (unannounced) {
        if (password) return { created: true, adminEmail: unannounced.email };
        const renewed = generatePassword();
        await accounts.updatePassword(unannounced.id, await hashPassword(renewed));
        return { created: true, adminEmail: unannounced.email, generatedPassword: renewed };
      }
      const existing = await accounts.firstAdmin();
      if (existing) return { created: false, adminEmail: existing.email };
      if (await accounts.findByEmail(email)) return { created: false };
      const chosen = password ?? generatePassword();
      await accounts.insertFirstAdmin({ email, name: 'Administrator', role: 'admin', passwordHash: await hashPassword(chosen) });
      return { created: true, adminEmail: email, generatedPassword: password ? undefined : chosen };
    },

    firstAdminAnnounced: () => accounts.firstAdminAnnounced(),

    purgeEndedSessions: () => sessions.deleteEnded(now().toISOString()),
  };
}
export type AuthService = ReturnType<typeof authService>;
