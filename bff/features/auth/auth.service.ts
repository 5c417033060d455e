import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { SessionUser } from '../../contracts/auth.contract';
import type { Role } from '../../contracts/endpoint.contract';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../db/engine';
import { auditIn, changesOf, personLabel, type Audit, type AuditActor } from '../../db/audit-trail';
import type { InTransaction } from '../../lib/event-bus';
import { conflict, forbidden, unauthorized } from '../../lib/http-error';
import { accountsRepository, type AccountsRepository } from './accounts.repository';
import { DUMMY_HASH_PROMISE, generatePassword, hashPassword, verifyPassword } from './password';
import { sessionsRepository, type SessionsRepository } from './sessions.repository';

export const WRONG_CREDENTIALS = 'Wrong email or password.';
export const DEACTIVATED = 'This account is deactivated: ask an admin to reactivate it.';

/** Where a session is opened from, as its owner will see it in their sessions list. */
export interface SessionClient {
  userAgent: string;
  address: string;
}
const NO_CLIENT: SessionClient = { userAgent: '', address: '' };

export interface OpenedSession {
  token: string;
  user: SessionUser;
  expiresAt: Date;
}

/** Every instance hears on this channel that sessions were ended (the payload is empty: each checks its own). */
export const SESSIONS_ENDED_CHANNEL = 'frontdesk_sessions_ended';

/** A session's token as the database keeps it. */
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** A write of accounts and sessions: the repositories in one transaction, and the audit trail beside them. */
export interface AuthWrite {
  accounts: AccountsRepository;
  sessions: SessionsRepository;
  audit: Audit;
}

export interface AuthServiceDeps {
  accounts: AccountsRepository;
  sessions: SessionsRepository;
  inTransaction: InTransaction<AuthWrite>;
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

const ACCOUNT_FIELDS = ['email', 'name', 'role'] as const;

/** How stale a session's `last_seen_at` may be before a read of the session writes it again. */
const LAST_SEEN_PRECISION_MS = 60_000;

/** Sessions kept in memory at most (a front desk has tens; the cap bounds a flood of distinct cookies). */
const SESSION_CACHE_ENTRIES = 5_000;

export function authService({ accounts, sessions, inTransaction, sessionTtlMs, now = () => new Date(), sessionsEnded = async () => {}, sessionCacheMs = 5_000 }: AuthServiceDeps) {
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
    // Its owner's sessions list says when it was last seen, to the minute: written from this read
    // (one every `sessionCacheMs` at most), not from every request, and never waited for. A read
    // does not fail because this write did (a read-only or unreachable database answers reads still).
    const seenMark = new Date(at.getTime() - LAST_SEEN_PRECISION_MS).toISOString();
    if (!found.lastSeenAt || found.lastSeenAt < seenMark) sessions.seen(found.sessionId, at.toISOString(), seenMark).catch(() => {});
    const user = toUser(found);
    // Kept while now < min(at + sessionCacheMs, expiresAt): lru-cache still serves an entry at start + ttl,
    // hence the - 1; a ttl of 0 would keep it for ever.
    const ttl = Math.min(sessionCacheMs, Date.parse(found.expiresAt) - at.getTime()) - 1;
    if (ttl > 0) cached?.set(token, user, { ttl, start: at.getTime() });
    return user;
  };

  const openSession = async (account: { id: number; email: string; name: string; role: Role }, client: SessionClient, how: string): Promise<OpenedSession> => {
    const token = crypto.randomBytes(32).toString('base64url');
    const createdAt = now();
    const expiresAt = new Date(createdAt.getTime() + sessionTtlMs);
    const user = toUser(account);
    await inTransaction(async (tx) => {
      await tx.sessions.insert({
        tokenHash: hashToken(token),
        accountId: account.id,
        createdAt: createdAt.toISOString(),
        expiresAt: expiresAt.toISOString(),
        userAgent: client.userAgent.slice(0, 512),
        address: client.address.slice(0, 64),
      });
      // Deactivated between the check of who they are and now: no session.
      if (!(await tx.accounts.signedIn(account.id, createdAt.toISOString()))) throw forbidden(DEACTIVATED);
      await tx.audit(user, { kind: 'session', action: how, subjectId: user.id, subject: personLabel(user) });
    });
    return { token, user, expiresAt };
  };

  return {
    /** Checks the password and opens a session; one message for any wrong email or password. */
    async login(email: string, password: string, client: SessionClient = NO_CLIENT): Promise<OpenedSession> {
      const account = await accounts.findByEmail(email);
      const ok = await verifyPassword(password, account?.passwordHash || (await DUMMY_HASH_PROMISE));
      if (!account || !ok) throw unauthorized(WRONG_CREDENTIALS);
      // Told only to whoever knows the password: the person who left learns why, a guesser learns nothing.
      if (account.status !== 'active') throw forbidden(DEACTIVATED);
      return openSession(account, client, 'signed in');
    },

    /**
     * Opens a session for an account whose owner has proved who they are (a password, a passkey, an
     * invitation or reset link): the one way a session starts. `how` is the audit trail's action.
     */
    openSession,

    async logout(user: SessionUser, token: string): Promise<void> {
      await inTransaction(async (tx) => {
        await tx.sessions.revoke(hashToken(token), now().toISOString());
        await tx.audit(user, { kind: 'session', action: 'signed out', subjectId: user.id, subject: personLabel(user) });
      });
      await endSessions();
    },

    /** The session's user; straight from memory (no promise to wait for) while the read is fresh. */
    userForToken(token: string): SessionUser | undefined | Promise<SessionUser | undefined> {
      return cached?.get(token) ?? readSession(token, now());
    },

    /** Another instance (or this one) ended sessions: the next read of each goes to the database. */
    forgetCachedSessions: () => cached?.clear(),

    /** Ends every session of the account (the command line: `actor` null). */
    async revokeSessions(actor: AuditActor, email: string): Promise<number> {
      const account = await accounts.findByEmail(email);
      if (!account) return 0;
      const ended = await inTransaction(async (tx) => {
        const ended = await tx.sessions.revokeAllForAccount(account.id, now().toISOString());
        if (ended) await tx.audit(actor, { kind: 'session', action: 'sessions ended', subjectId: account.id, subject: personLabel(account), changes: [{ field: 'openSessions', before: ended, after: 0 }] });
        return ended;
      });
      if (ended) await endSessions();
      return ended;
    },

    async addAccount(actor: AuditActor, input: { email: string; name: string; role: Role; password: string }): Promise<SessionUser> {
      const exists = () => conflict(`An account with email ${input.email} already exists.`);
      if (await accounts.findByEmail(input.email)) throw exists();
      try {
        const passwordHash = await hashPassword(input.password);
        return await inTransaction(async (tx) => {
          const created = toUser(await tx.accounts.insert({ email: input.email, name: input.name, role: input.role, passwordHash }));
          await tx.audit(actor, { kind: 'account', action: 'created', subjectId: created.id, subject: personLabel(created), changes: changesOf(null, created, ACCOUNT_FIELDS) });
          return created;
        });
      } catch (err) {
        // Added at the same moment elsewhere (another instance, another terminal): the database decides.
        throw isUniqueViolation(err) ? exists() : err;
      }
    },

    async setPassword(actor: AuditActor, email: string, password: string): Promise<boolean> {
      const account = await accounts.findByEmail(email);
      if (!account) return false;
      const passwordHash = await hashPassword(password);
      await inTransaction(async (tx) => {
        await tx.accounts.updatePassword(account.id, passwordHash);
        await tx.sessions.revokeAllForAccount(account.id, now().toISOString());
        // The trail says that it changed, never any form of the password.
        await tx.audit(actor, { kind: 'account', action: 'password changed', subjectId: account.id, subject: personLabel(account) });
      });
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
      const passwordHash = await hashPassword(chosen);
      await inTransaction(async (tx) => {
        const admin = toUser(await tx.accounts.insertFirstAdmin({ email, name: 'Administrator', role: 'admin', passwordHash }));
        await tx.audit(null, { kind: 'account', action: 'created (first start)', subjectId: admin.id, subject: personLabel(admin), changes: changesOf(null, admin, ACCOUNT_FIELDS) });
      });
      return { created: true, adminEmail: email, generatedPassword: password ? undefined : chosen };
    },

    firstAdminAnnounced: () => accounts.firstAdminAnnounced(),

    purgeEndedSessions: () => sessions.deleteEnded(now().toISOString()),
  };
}
export type AuthService = ReturnType<typeof authService>;

/** The repositories of the auth service on a database, and each write in one transaction with its audit entry. */
export const authStoreOn = (db: Db): Pick<AuthServiceDeps, 'accounts' | 'sessions' | 'inTransaction'> => ({
  accounts: accountsRepository(db),
  sessions: sessionsRepository(db),
  inTransaction: (work) => db.transaction().execute((trx) => work({ accounts: accountsRepository(trx), sessions: sessionsRepository(trx), audit: auditIn(trx) })),
});

/** The auth service on a database. */
export const authServiceOn = (db: Db, options: Omit<AuthServiceDeps, 'accounts' | 'sessions' | 'inTransaction'>): AuthService => authService({ ...authStoreOn(db), ...options });
