import type { Generated } from 'kysely';

/** Table types for Kysely. Migrations own the truth; these mirror them. Timestamps are UTC ISO-8601 text. */
export interface AccountsTable {
  id: Generated<number>;
  email: string;
  name: string;
  role: 'admin' | 'staff' | 'runner';
  password_hash: string;
  created_at: string;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  account_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface AppMetaTable {
  key: string;
  value: string;
}

export interface GymOwnersTable {
  id: Generated<number>;
  name: string;
  email: string;
  phone: string | null;
  gym_name: string;
  created_at: string;
}

export interface GymUsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  owner_id: number;
  membership: 'active' | 'paused' | 'cancelled';
  access_sync_state: Generated<'synced' | 'failed' | 'no_kisi_user' | 'not_needed'>;
  access_sync_error: string | null;
  access_sync_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface LiveEventsTable {
  id: Generated<number>;
  type: 'webhook' | 'order';
  data: string;
  created_at: string;
}

export interface DB {
  accounts: AccountsTable;
  sessions: SessionsTable;
  app_meta: AppMetaTable;
  gym_owners: GymOwnersTable;
  gym_users: GymUsersTable;
  live_events: LiveEventsTable;
}
