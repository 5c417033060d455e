import type { Generated } from 'kysely';

/**
 * Table types of the Kisi emulator's own store (emulator.database.ts), apart from the product's
 * `bff/db/schema.ts`. Its migrations own the truth; these mirror them. Kisi's timestamps are UTC
 * ISO-8601 text without milliseconds.
 */

/** The organisation (`kisi_emu_*`); booleans are 0/1 integers. */
export interface KisiEmuPlacesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  address: string;
  latitude: number | null;
  longitude: number | null;
  time_zone: string | null;
  created_at: string;
  updated_at: string;
}

export interface KisiEmuLocksTable {
  id: Generated<number>;
  place_id: number;
  name: string;
  description: string | null;
  online: number;
  locked_down: number;
  locked_down_since: string | null;
  order_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface KisiEmuGroupsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  place_id: number | null;
  login_enabled: number;
  geofence_restriction_enabled: number;
  primary_device_restriction_enabled: number;
  managed_device_restriction_enabled: number;
  reader_restriction_enabled: number;
  time_restriction_enabled: number;
  tap_to_access_restriction_enabled: number;
  created_at: string;
  updated_at: string;
}

export interface KisiEmuGroupLocksTable {
  group_id: number;
  lock_id: number;
}

export interface KisiEmuUsersTable {
  id: Generated<number>;
  member_id: number;
  name: string;
  email: string;
  image: string | null;
  notes: string | null;
  metadata: string;
  access_enabled: number;
  scim_access_enabled: number;
  password_flow_enabled: number;
  otp_required_for_login: number;
  confirmed: number;
  last_accessed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface KisiEmuRoleAssignmentsTable {
  id: Generated<number>;
  user_id: number;
  role_id: string;
  applies_to_type: 'Organization' | 'Place' | 'Group';
  applies_to_id: number;
  notify: number;
  valid_from: string | null;
  valid_until: string | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface KisiEmuGroupLinksTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  email: string | null;
  phone: string | null;
  link_enabled: number;
  quick_response_code_type: 'online' | 'offline' | null;
  valid_from: string | null;
  valid_until: string | null;
  last_used_at: string | null;
  secret: string;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface KisiEmuEventsTable {
  id: Generated<number>;
  uuid: string;
  type: string;
  payload: string;
  created_at: string;
}

/** The emulator's own settings: the group the BFF's access links go to (KISI_GROUP_ID in emulator mode). */
export interface KisiEmuMetaTable {
  key: string;
  value: string;
}

export interface EmulatorTables {
  kisi_emu_places: KisiEmuPlacesTable;
  kisi_emu_locks: KisiEmuLocksTable;
  kisi_emu_groups: KisiEmuGroupsTable;
  kisi_emu_group_locks: KisiEmuGroupLocksTable;
  kisi_emu_users: KisiEmuUsersTable;
  kisi_emu_role_assignments: KisiEmuRoleAssignmentsTable;
  kisi_emu_group_links: KisiEmuGroupLinksTable;
  kisi_emu_events: KisiEmuEventsTable;
  kisi_emu_meta: KisiEmuMetaTable;
}
