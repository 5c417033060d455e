import type { OwnAccount } from '../../contracts/account.contract';
import type { SessionUser } from '../../contracts/auth.contract';
import { auditIn, changesOf, personLabel, type Audit } from '../../db/audit-trail';
import type { Db } from '../../db/database';
import type { InTransaction } from '../../lib/event-bus';
import { badRequest, notFound, unauthorized } from '../../lib/http-error';
import { accountsRepository, type AccountsRepository } from './accounts.repository';
import { hashToken, type AuthService } from './auth.service';
import { browserName } from './browser-name';
import type { LoginThrottle } from './login-throttle';
import { hashPassword, verifyPassword } from './password';
import { ownAccountRepository, type OwnAccountRepository, type StoredOwnSession } from './own-account.repository';

export const WRONG_CURRENT_PASSWORD = 'Your current password is not right.';
const NO_SUCH_SESSION = 'You have no such session: it may have ended already.';

/** A write of one's own account: the repositories in one transaction, and the audit trail beside them. */
export interface OwnAccountWrite {
  own: OwnAccountRepository;
  accounts: AccountsRepository;
  audit: Audit;
}

export interface OwnAccountServiceDeps {
  own: OwnAccountRepository;
  inTransaction: InTransaction<OwnAccountWrite>;
  /** A wrong current password counts as a failed login from that address on that account. */
  throttle: Pick<LoginThrottle, 'beforeAttempt' | 'failed' | 'succeeded'>;
  /**
   * Told after sessions ended or the account changed (its name): every instance forgets the
   * sessions it keeps in memory and ends the event streams of those that ended.
   */
  sessionsEnded: () => Promise<void>;
  now?: () => Date;
}

/** Who is asking: the signed-in account and the token of the session it asks with. */
export interface Asker {
  user: SessionUser;
  token: string;
}

const sessionInWords = (session: StoredOwnSession) => [browserName(session.userAgent), session.address].filter(Boolean).join(', ');

/**
 * Each person's own account: its name and password, where it is signed in. Every call is about the
 * asker's account only; another account's session is a session that does not exist (404, never 403).
 */
export function ownAccountService({ own, inTransaction, throttle, sessionsEnded, now = () => new Date() }: OwnAccountServiceDeps) {
  const at = () => now().toISOString();
  const accountOf = async (user: SessionUser) => {
    const account = await own.find(user.id);
    // Deleted or deactivated since the session was read (the read is kept up to a few seconds).
    if (!account) throw unauthorized();
    return account;
  };

  return {
    async get({ user, token }: Asker): Promise<OwnAccount> {
      const [account, sessions, passkeys] = await Promise.all([accountOf(user), own.openSessions(user.id, at()), own.passkeys(user.id)]);
      const current = hashToken(token);
      return {
        id: account.id,
        email: account.email,
        name: account.name,
        role: account.role,
        createdAt: account.createdAt,
        hasPassword: account.passwordHash !== '',
        sessions: sessions.map((session) => ({
          id: session.id,
          browser: browserName(session.userAgent),
          address: session.address,
          signedInAt: session.signedInAt,
          lastSeenAt: session.lastSeenAt,
          current: session.tokenHash === current,
        })),
        passkeys,
      };
    },

    /** A new name, from the next request on everywhere (every instance forgets the session it kept with the old one). */
    async changeName({ user }: Asker, name: string): Promise<SessionUser> {
      const account = await accountOf(user);
      const renamed = { id: account.id, email: account.email, name, role: account.role };
      if (account.name === name) return renamed;
      await inTransaction(async (tx) => {
        await tx.own.rename(account.id, name);
        await tx.audit(user, { kind: 'account', action: 'changed', subjectId: account.id, subject: personLabel(renamed), changes: changesOf(account, renamed, ['name']) });
      });
      await sessionsEnded();
      return renamed;
    },

    /**
     * A new password. The current one is asked for when there is one, and a wrong one counts as a
     * failed login from `address`, so this is no way around the login's limits. Every other session
     * of the account ends; this one stays.
     */
    async changePassword({ user, token }: Asker, input: { currentPassword?: string; newPassword: string }, address: string): Promise<{ ended: number }> {
      const account = await accountOf(user);
      if (account.passwordHash !== '') {
        if (!input.currentPassword) throw badRequest('Enter your current password.', [{ path: 'body.currentPassword', message: 'Enter your current password' }]);
        await throttle.beforeAttempt(address, account.email);
        if (!(await verifyPassword(input.currentPassword, account.passwordHash))) {
          throw (await throttle.failed(address, account.email)) ?? badRequest(WRONG_CURRENT_PASSWORD, [{ path: 'body.currentPassword', message: WRONG_CURRENT_PASSWORD }]);
        }
        await throttle.succeeded(address, account.email);
      }
      const passwordHash = await hashPassword(input.newPassword);
      const ended = await inTransaction(async (tx) => {
        await tx.accounts.updatePassword(account.id, passwordHash);
        const ended = await tx.own.revokeOtherSessions(account.id, hashToken(token), at());
        // The trail says that it changed, never any form of the password.
        await tx.audit(user, { kind: 'account', action: 'password changed', subjectId: account.id, subject: personLabel(account), changes: ended > 0 ? [{ field: 'otherSessions', before: ended, after: 0 }] : [] });
        return ended;
      });
      if (ended > 0) await sessionsEnded();
      return { ended };
    },

    /** Ends one of the asker's sessions (their own current one too); answers whether it was the current one. */
    async endSession({ user, token }: Asker, id: number): Promise<{ current: boolean }> {
      const session = await own.findOpenSession(user.id, id, at());
      if (!session) throw notFound(NO_SUCH_SESSION);
      const current = session.tokenHash === hashToken(token);
      await inTransaction(async (tx) => {
        if (!(await tx.own.revokeSession(user.id, id, at()))) throw notFound(NO_SUCH_SESSION);
        await tx.audit(user, {
          kind: 'session',
          action: current ? 'signed out' : 'signed out (elsewhere)',
          subjectId: user.id,
          subject: personLabel(user),
          changes: [{ field: 'session', before: sessionInWords(session), after: null }],
        });
      });
      await sessionsEnded();
      return { current };
    },

    /** Ends every session of the asker's but the one they ask with. */
    async endOtherSessions({ user, token }: Asker): Promise<{ ended: number }> {
      const ended = await inTransaction(async (tx) => {
        const ended = await tx.own.revokeOtherSessions(user.id, hashToken(token), at());
        if (ended > 0) await tx.audit(user, { kind: 'session', action: 'signed out everywhere else', subjectId: user.id, subject: personLabel(user), changes: [{ field: 'otherSessions', before: ended, after: 0 }] });
        return ended;
      });
      if (ended > 0) await sessionsEnded();
      return { ended };
    },
  };
}
export type OwnAccountService = ReturnType<typeof ownAccountService>;

/** The own-account service on a database: each write in one transaction with its audit entry. */
export const ownAccountServiceOn = (
  db: Db,
  { auth, throttle, sessionsEnded, now }: { auth: Pick<AuthService, 'forgetCachedSessions'>; throttle: OwnAccountServiceDeps['throttle']; sessionsEnded: () => Promise<void>; now?: () => Date },
): OwnAccountService =>
  ownAccountService({
    own: ownAccountRepository(db),
    inTransaction: (work) => db.transaction().execute((trx) => work({ own: ownAccountRepository(trx), accounts: accountsRepository(trx), audit: auditIn(trx) })),
    throttle,
    // This instance forgets at once (the next request reads the account as it is now), the others when they hear.
    sessionsEnded: async () => {
      auth.forgetCachedSessions();
      await sessionsEnded();
    },
    now,
  });
