import type { Role } from '../../contracts/endpoint.contract';
import type { AccountStatus, Invitation, TeamAccount } from '../../contracts/team.contract';
import type { Db } from '../../db/database';

export type LinkKind = 'invitation' | 'reset';

/** An invitation or reset link as stored: the hash of its secret, never the secret. */
export interface StoredLink {
  id: number;
  kind: LinkKind;
  email: string;
  role: Role | null;
  accountId: number | null;
  createdAt: string;
  expiresAt: string;
}

const count = (value: number | string | bigint | null) => Number(value ?? 0);

/** The team as the admins see it: accounts with their sessions and passkeys counted, and the links that let people in. */
export function teamRepository(db: Db) {
  const accounts = (now: string) =>
    db
      .selectFrom('accounts')
      .select(['accounts.id', 'accounts.email', 'accounts.name', 'accounts.role', 'accounts.status', 'accounts.created_at as createdAt', 'accounts.last_sign_in_at as lastSignInAt'])
      .select((eb) => [
        eb
          .selectFrom('sessions')
          .select(eb.fn.countAll<number | string>().as('n'))
          .whereRef('sessions.account_id', '=', 'accounts.id')
          .where('sessions.revoked_at', 'is', null)
          .where('sessions.expires_at', '>', now)
          .as('openSessions'),
        eb.selectFrom('passkeys').select(eb.fn.countAll<number | string>().as('n')).whereRef('passkeys.account_id', '=', 'accounts.id').as('passkeys'),
      ]);
  const toAccount = (row: Omit<TeamAccount, 'openSessions' | 'passkeys'> & { openSessions: number | string | null; passkeys: number | string | null }): TeamAccount => ({
    ...row,
    openSessions: count(row.openSessions),
    passkeys: count(row.passkeys),
  });

  const links = (kind: LinkKind) =>
    db.selectFrom('account_links').select(['id', 'kind', 'email', 'role', 'account_id as accountId', 'created_at as createdAt', 'expires_at as expiresAt']).where('kind', '=', kind);

  return {
    /** Every account, the active ones first, each group by name (sorted here: the two engines collate text differently). */
    listAccounts: async (now: string): Promise<TeamAccount[]> => {
      const rows = await accounts(now).execute();
      const order = (a: TeamAccount) => (a.status === 'active' ? 0 : 1);
      return rows.map(toAccount).sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id - b.id);
    },

    findAccount: async (id: number, now: string): Promise<TeamAccount | undefined> => {
      const row = await accounts(now).where('accounts.id', '=', id).executeTakeFirst();
      return row && toAccount(row);
    },

    /** Invitations neither used, withdrawn nor run out, the newest first, each with who made it. */
    openInvitations: async (now: string): Promise<Invitation[]> => {
      const rows = await db
        .selectFrom('account_links')
        .leftJoin('accounts', 'accounts.id', 'account_links.created_by')
        .select(['account_links.id', 'account_links.email', 'account_links.role', 'account_links.created_at as createdAt', 'account_links.expires_at as expiresAt', 'accounts.name as invitedBy'])
        .where('account_links.kind', '=', 'invitation')
        .where('account_links.used_at', 'is', null)
        .where('account_links.withdrawn_at', 'is', null)
        .where('account_links.expires_at', '>', now)
        .orderBy('account_links.created_at', 'desc')
        .orderBy('account_links.id', 'desc')
        .execute();
      // An invitation always has its role (the table's check allows null only for a reset).
      return rows.map((row) => ({ ...row, role: row.role!, invitedBy: row.invitedBy ?? null }));
    },

    /** The link whose secret hashes to `tokenHash`, while it is open (not used, withdrawn or run out). */
    findOpenLink: (kind: LinkKind, tokenHash: string, now: string): Promise<StoredLink | undefined> =>
      links(kind).where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('withdrawn_at', 'is', null).where('expires_at', '>', now).executeTakeFirst(),

    findOpenInvitation: (id: number, now: string): Promise<StoredLink | undefined> =>
      links('invitation').where('id', '=', id).where('used_at', 'is', null).where('withdrawn_at', 'is', null).where('expires_at', '>', now).executeTakeFirst(),

    insertLink: async (link: { kind: LinkKind; tokenHash: string; email: string; role: Role | null; accountId: number | null; createdBy: number | null; createdAt: string; expiresAt: string }): Promise<StoredLink> => {
      const row = await db
        .insertInto('account_links')
        .values({
          kind: link.kind,
          token_hash: link.tokenHash,
          email: link.email,
          role: link.role,
          account_id: link.accountId,
          created_by: link.createdBy,
          created_at: link.createdAt,
          expires_at: link.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, kind: link.kind, email: link.email, role: link.role, accountId: link.accountId, createdAt: link.createdAt, expiresAt: link.expiresAt };
    },

    /**
     * Marks the link used, only if it is still open at `now`: one statement, so of two answers to the
     * same link (two tabs, two instances) exactly one changes the row and the other sees 0.
     */
    useLink: async (id: number, now: string): Promise<boolean> => {
      const result = await db
        .updateTable('account_links')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('withdrawn_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Withdraws the open links of a kind for an email (invitations) or an account (resets); answers how many. */
    withdrawOpenLinks: async (kind: LinkKind, whose: { email: string } | { accountId: number }, now: string): Promise<number> => {
      let query = db.updateTable('account_links').set({ withdrawn_at: now }).where('kind', '=', kind).where('used_at', 'is', null).where('withdrawn_at', 'is', null).where('expires_at', '>', now);
      query = 'email' in whose ? query.where('email', '=', whose.email) : query.where('account_id', '=', whose.accountId);
      return Number((await query.executeTakeFirst()).numUpdatedRows);
    },

    /** Every open link an admin made: they stop working when that admin is deactivated, demoted or deleted. */
    withdrawLinksMadeBy: async (accountId: number, now: string): Promise<number> => {
      const result = await db
        .updateTable('account_links')
        .set({ withdrawn_at: now })
        .where('created_by', '=', accountId)
        .where('used_at', 'is', null)
        .where('withdrawn_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    withdrawLink: async (id: number, now: string): Promise<boolean> => {
      const result = await db.updateTable('account_links').set({ withdrawn_at: now }).where('id', '=', id).where('used_at', 'is', null).where('withdrawn_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    setRole: (id: number, role: Role) => db.updateTable('accounts').set({ role }).where('id', '=', id).execute(),

    setStatus: (id: number, status: AccountStatus) => db.updateTable('accounts').set({ status }).where('id', '=', id).execute(),

    /**
     * Deletes the account. Nothing refuses it: what refers to accounts either goes with it (sessions,
     * passkeys, read positions, uploads under way, its reset links) or keeps its history without it
     * (messages and uploads keep the author's name, conversations lose their assignee, invitations
     * their maker, the audit trail copied the names).
     */
    deleteAccount: (id: number) => db.deleteFrom('accounts').where('id', '=', id).execute(),

    activeAdmins: async (): Promise<number> => {
      const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<number | string>().as('n')).where('role', '=', 'admin').where('status', '=', 'active').executeTakeFirstOrThrow();
      return count(row.n);
    },
  };
}
export type TeamRepository = ReturnType<typeof teamRepository>;
