import type { Db } from '../../db/database';
import type { SessionUser } from '../../contracts/auth.contract';

export function sessionsRepository(db: Db) {
  return {
    insert: (session: { tokenHash: string; accountId: number; createdAt: string; expiresAt: string; userAgent: string; address: string }) =>
      db
        .insertInto('sessions')
        .values({
          token_hash: session.tokenHash,
          account_id: session.accountId,
          created_at: session.createdAt,
          expires_at: session.expiresAt,
          user_agent: session.userAgent,
          address: session.address,
          last_seen_at: session.createdAt,
        })
        .execute(),

    /** The session's user, only while the session is neither expired nor revoked. */
    findActiveUser: (tokenHash: string, now: string): Promise<(SessionUser & { sessionId: number; expiresAt: string; lastSeenAt: string | null }) | undefined> =>
      db
        .selectFrom('sessions')
        .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
        .select(['sessions.id as sessionId', 'sessions.expires_at as expiresAt', 'sessions.last_seen_at as lastSeenAt', 'accounts.id as id', 'accounts.email', 'accounts.name', 'accounts.role'])
        .where('sessions.token_hash', '=', tokenHash)
        .where('sessions.revoked_at', 'is', null)
        .where('accounts.status', '=', 'active')
        .where('sessions.expires_at', '>', now)
        .executeTakeFirst(),

    /** The session was seen at `at`: written only when what it says is older than `olderThan` (instances reading it at once write it once). */
    seen: (id: number, at: string, olderThan: string) =>
      db
        .updateTable('sessions')
        .set({ last_seen_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', olderThan)]))
        .execute(),

    revoke: (tokenHash: string, now: string) =>
      db.updateTable('sessions').set({ revoked_at: now }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute(),

    revokeAllForAccount: async (accountId: number, now: string): Promise<number> => {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    deleteEnded: (now: string) =>
      db.deleteFrom('sessions').where((eb) => eb.or([eb('expires_at', '<=', now), eb('revoked_at', 'is not', null)])).execute(),
  };
}
export type SessionsRepository = ReturnType<typeof sessionsRepository>;
