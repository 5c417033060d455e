import type { Passkey } from '../../contracts/account.contract';
import type { Role } from '../../contracts/endpoint.contract';
import type { Db } from '../../db/database';

/** The account as its owner sees it (the password only as whether there is one). */
export interface StoredOwnAccount {
  id: number;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
  passwordHash: string;
}

/** One open session of the account, with its token's hash to tell the caller's own from the others. */
export interface StoredOwnSession {
  id: number;
  tokenHash: string;
  userAgent: string;
  address: string;
  signedInAt: string;
  lastSeenAt: string;
}

/** A person's own account, sessions and passkeys: every read and write is of one account, by its id. */
export function ownAccountRepository(db: Db) {
  /** The account's open sessions (neither revoked nor expired at `now`). */
  const openSessionsOf = (accountId: number, now: string) =>
    db
      .selectFrom('sessions')
      .select((eb) => [
        'id',
        'token_hash as tokenHash',
        'user_agent as userAgent',
        'address',
        'created_at as signedInAt',
        // A session from before sessions were seen was last seen when it began, as far as anyone knows.
        eb.fn.coalesce('last_seen_at', 'created_at').as('lastSeenAt'),
      ])
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now);
  const asSession = (row: Omit<StoredOwnSession, 'userAgent' | 'address'> & { userAgent: string | null; address: string | null }): StoredOwnSession => ({
    ...row,
    userAgent: row.userAgent ?? '',
    address: row.address ?? '',
  });

  return {
    /** Only an active account (a deactivated one has no sessions to ask with). */
    find: (id: number): Promise<StoredOwnAccount | undefined> =>
      db
        .selectFrom('accounts')
        .select(['id', 'email', 'name', 'role', 'created_at as createdAt', 'password_hash as passwordHash'])
        .where('id', '=', id)
        .where('status', '=', 'active')
        .executeTakeFirst(),

    /** The account's open sessions, the most recently seen first. */
    openSessions: async (accountId: number, now: string): Promise<StoredOwnSession[]> =>
      (await openSessionsOf(accountId, now).orderBy('lastSeenAt', 'desc').orderBy('id', 'desc').execute()).map(asSession),

    /** One open session of the account; another account's is none. */
    findOpenSession: async (accountId: number, id: number, now: string): Promise<StoredOwnSession | undefined> => {
      const row = await openSessionsOf(accountId, now).where('id', '=', id).executeTakeFirst();
      return row && asSession(row);
    },

    passkeys: async (accountId: number): Promise<Passkey[]> => {
      const rows = await db
        .selectFrom('passkeys')
        .select(['id', 'name', 'created_at as createdAt', 'last_used_at as lastUsedAt', 'backed_up as backedUp'])
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ ...row, backedUp: Boolean(row.backedUp) }));
    },

    rename: (id: number, name: string) => db.updateTable('accounts').set({ name }).where('id', '=', id).execute(),

    /** Ends one open session of the account; answers whether it did. */
    revokeSession: async (accountId: number, id: number, now: string): Promise<boolean> => {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Ends every open session of the account but the one whose token hashes to `keepTokenHash`; answers how many. */
    revokeOtherSessions: async (accountId: number, keepTokenHash: string, now: string): Promise<number> => {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('account_id', '=', accountId)
        .where('token_hash', '<>', keepTokenHash)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
export type OwnAccountRepository = ReturnType<typeof ownAccountRepository>;
