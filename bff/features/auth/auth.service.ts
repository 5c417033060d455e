import crypto from 'node:crypto';
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
}

export function authService({ accounts, sessions, sessionTtlMs, now = () => new Date(), sessionsEnded = async () => {} }: AuthServiceDeps) {
  const toUser = (a: { id: number; email: string; name: string; role: Role }): SessionUser => ({ id: a.id, email: a.email, name: a.name, role: a.role });

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
      await sessionsEnded();
    },

    async userForToken(token: string): Promise<SessionUser | undefined> {
      const found = await sessions.findActiveUser(hashToken(token), now().toISOString());
      return found && toUser(found);
    },

    async revokeSessions(email: string): Promise<number> {
      const account = await accounts.findByEmail(email);
      const ended = account ? await sessions.revokeAllForAccount(account.id, now().toISOString()) : 0;
      if (ended) await sessionsEnded();
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
      await sessionsEnded();
      return true;
    },

    /** First start: with no accounts, create the admin; returns the password only when it was generated. */
    async ensureAdmin(email: string, password: string | undefined): Promise<{ created: boolean; generatedPassword?: string }> {
      if ((await accounts.count()) > 0) return { created: false };
      const chosen = password ?? generatePassword();
      await accounts.insert({ email, name: 'Administrator', role: 'admin', passwordHash: await hashPassword(chosen) });
      return { created: true, generatedPassword: password ? undefined : chosen };
    },

    purgeEndedSessions: () => sessions.deleteEnded(now().toISOString()),
  };
}
export type AuthService = ReturnType<typeof authService>;
