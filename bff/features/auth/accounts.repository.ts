import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import type { Role } from '../../contracts/endpoint.contract';

export interface Account {
  id: number;
  email: string;
  name: string;
  role: Role;
  passwordHash: string;
  status: 'active' | 'deactivated';
}

const FIRST_ADMIN_UNANNOUNCED = 'first_admin_unannounced';

async function insertAccount(db: Db, account: Omit<Account, 'id' | 'status'>): Promise<Account> {
  const row = await db
    .insertInto('accounts')
    .values({ email: account.email, name: account.name, role: account.role, password_hash: account.passwordHash, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...account, id: row.id, status: 'active' };
}

export function accountsRepository(db: Db) {
  const columns = ['id', 'email', 'name', 'role', 'password_hash as passwordHash', 'status'] as const;
  return {
    findByEmail: (email: string): Promise<Account | undefined> =>
      db.selectFrom('accounts').select(columns).where('email', '=', email).executeTakeFirst(),

    findById: (id: number): Promise<Account | undefined> =>
      db.selectFrom('accounts').select(columns).where('id', '=', id).executeTakeFirst(),

    /** The oldest active admin account, if there is one. */
    firstAdmin: (): Promise<Account | undefined> =>
      db.selectFrom('accounts').select(columns).where('role', '=', 'admin').where('status', '=', 'active').orderBy('id').limit(1).executeTakeFirst(),

    insert: (account: Omit<Account, 'id' | 'status'>): Promise<Account> => insertAccount(db, account),

    /**
     * The first admin, marked as not yet announced; called in the transaction that creates it, so a
     * start that dies before saying so leaves the mark.
     */
    insertFirstAdmin: async (account: Omit<Account, 'id' | 'status'>): Promise<Account> => {
      const created = await insertAccount(db, account);
      await db.insertInto('app_meta').values({ key: FIRST_ADMIN_UNANNOUNCED, value: account.email }).execute();
      return created;
    },

    /** The first admin a start created but never announced (its password never shown). */
    unannouncedFirstAdmin: async (): Promise<Account | undefined> => {
      const mark = await db.selectFrom('app_meta').select('value').where('key', '=', FIRST_ADMIN_UNANNOUNCED).executeTakeFirst();
      return mark ? db.selectFrom('accounts').select(columns).where('email', '=', mark.value).executeTakeFirst() : undefined;
    },

    firstAdminAnnounced: () => db.deleteFrom('app_meta').where('key', '=', FIRST_ADMIN_UNANNOUNCED).execute(),

    /**
     * Notes a sign-in, only while the account is active: answers false when it is not. The row's lock
     * orders it against a deactivation, so a session opened at that moment is either ended by it or
     * never opened.
     */
    signedIn: async (id: number, at: string): Promise<boolean> => {
      const result = await db.updateTable('accounts').set({ last_sign_in_at: at }).where('id', '=', id).where('status', '=', 'active').executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    updatePassword: (id: number, passwordHash: string) =>
      db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', id).execute(),
  };
}
export type AccountsRepository = ReturnType<typeof accountsRepository>;
