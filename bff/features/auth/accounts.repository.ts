import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import type { Role } from '../../contracts/endpoint.contract';

export interface Account {
  id: number;
  email: string;
  name: string;
  role: Role;
  passwordHash: string;
}

export function accountsRepository(db: Db) {
  const columns = ['id', 'email', 'name', 'role', 'password_hash as passwordHash'] as const;
  return {
    findByEmail: (email: string): Promise<Account | undefined> =>
      db.selectFrom('accounts').select(columns).where('email', '=', email).executeTakeFirst(),

    findById: (id: number): Promise<Account | undefined> =>
      db.selectFrom('accounts').select(columns).where('id', '=', id).executeTakeFirst(),

    count: async (): Promise<number> => {
      const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    insert: async (account: Omit<Account, 'id'>): Promise<Account> => {
      const row = await db
        .insertInto('accounts')
        .values({ email: account.email, name: account.name, role: account.role, password_hash: account.passwordHash, created_at: nowIso() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ...account, id: row.id };
    },

    updatePassword: (id: number, passwordHash: string) =>
      db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', id).execute(),
  };
}
export type AccountsRepository = ReturnType<typeof accountsRepository>;
