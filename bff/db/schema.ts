import type { Generated } from 'kysely';
import type { AuditKind } from '../contracts/audit.contract';
import type { LiveEventType } from '../contracts/events.contract';

/** Table types for Kysely. Migrations own the truth; these mirror them. Timestamps are UTC ISO-8601 text. */
export interface AccountsTable {
  id: Generated<number>;
  email: string;
  name: string;
  role: 'admin' | 'staff' | 'runner';
  /** Empty for an account that joined with a passkey only (no password verifies against it). */
  password_hash: string;
  created_at: string;
  status: Generated<'active' | 'deactivated'>;
  last_sign_in_at: string | null;
  webauthn_user_id: string | null;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  account_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  address: string | null;
  last_seen_at: string | null;
}

/** Invitation and reset links (`027-team-accounts`): the hash of the secret only; one use, expiring. */
export interface AccountLinksTable {
  id: Generated<number>;
  kind: 'invitation' | 'reset';
  token_hash: string;
  email: string;
  role: 'admin' | 'staff' | 'runner' | null;
  account_id: number | null;
  created_by: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  withdrawn_at: string | null;
}

export interface PasskeysTable {
  id: Generated<number>;
  account_id: number;
  /** base64url, as WebAuthn names it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** bigint: PostgreSQL answers it as text, hence Number() where read. */
  counter: Generated<number | string>;
  /** JSON array of transports. */
  transports: Generated<string>;
  device_type: string;
  backed_up: Generated<number>;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface WebauthnChallengesTable {
  id: Generated<number>;
  challenge: string;
  purpose: 'register' | 'sign-in';
  account_id: number | null;
  expires_at: string;
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
  access_sync_state: Generated<'synced' | 'failed' | 'no_kisi_user' | 'not_needed' | 'pending'>;
  access_sync_error: string | null;
  access_sync_at: string | null;
  /** What Kisi last confirmed (1/0), and when; null: never confirmed. */
  kisi_access_enabled: number | null;
  kisi_confirmed_at: string | null;
  /** Their newest successful unlock (Kisi's clock); null: never came. Kept by `recordVisitIn` (migration 034). */
  last_visit_at: string | null;
  /** The venue's day (YYYY-MM-DD) a pause ends on, the membership active again; null: no end (migration 037). */
  paused_until: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A member came in (a successful unlock of their email) in the quarter hour starting `at` (UTC ISO,
 * minutes 00/15/30/45): one row however many doors they opened in it. Written with each stored
 * unlock (`recordVisitIn`); their attendance counts the venue days of these (migration 036).
 */
export interface MemberVisitsTable {
  member_id: number;
  at: string;
}

/** A door-access switch still owed to Kisi: one per member, a deleted one's too (migrations 025, 029). */
export interface DoorAccessOutboxTable {
  member_id: number;
  want_enabled: number;
  version: Generated<number>;
  attempts: Generated<number>;
  next_try_at: string;
  last_error: string | null;
  created_at: string;
  /** Until when a sender holds the row (its lease); null: nobody does. */
  claimed_until: string | null;
  /** A deleted member's email, for the switch-off owed after their record is gone (migration 029); null while the member is here. */
  email: string | null;
}

export interface LiveEventsTable {
  id: Generated<number>;
  type: LiveEventType;
  data: string;
  created_at: string;
}

/** Kisi events received by the BFF's webhook (one row per uuid). */
export interface KisiEventsTable {
  id: Generated<number>;
  uuid: string;
  type: string;
  actor_type: string | null;
  actor_id: number | null;
  actor_name: string | null;
  actor_email: string | null;
  object_type: string | null;
  object_id: number | null;
  object_name: string | null;
  place_id: number | null;
  success: number;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  received_at: string;
  payload: string;
}

/** Each event type among the stored door events, with how many (migration 031, bff/db/kisi-event-choices.ts). */
export interface KisiEventTypesTable {
  type: string;
  events: number;
}

/** Each door (lock, Kisi's id) among the stored door events, with how many; named at read time by its newest event. */
export interface KisiEventDoorsTable {
  id: number;
  events: number;
}

/** Each person among the stored door events: their name and email (`''` where Kisi left one out), with how many events are theirs. */
export interface KisiEventPeopleTable {
  id: Generated<number>;
  name: string;
  email: string;
  events: number;
}

/**
 * A remote unlock as the proxy recorded it before forwarding it (migration 035, bff/db/remote-unlocks.ts):
 * who pressed it, credited on the door event Kisi logs for it as the API account's (`event_id`).
 */
export interface RemoteUnlockRequestsTable {
  id: Generated<number>;
  lock_id: number;
  /** The Kisi user the API key belongs to: the actor Kisi names on the event. */
  kisi_user_id: number;
  account_id: number | null;
  requested_by_name: string;
  requested_by_email: string | null;
  requested_at: string;
  status: 'sent' | 'accepted' | 'refused';
  event_id: number | null;
}

/** The audit trail (append-only): who changed what, when, and each changed field's before and after (JSON). */
export interface AuditEntriesTable {
  id: Generated<number>;
  at: string;
  actor_id: number | null;
  actor_email: string | null;
  actor_name: string | null;
  actor_role: string | null;
  kind: AuditKind;
  action: string;
  subject_id: string | null;
  subject: string;
  changes: string;
}

export interface RateLimitCountersTable {
  key: string;
  hits: number;
  reset_at_ms: number;
}

export interface RateWindowStartsTable {
  id: Generated<number>;
  bucket: string;
  started_at_ms: number;
}

export interface StallsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  cuisine: string | null;
  status: 'open' | 'paused';
  /** Weekly opening hours in the venue's zone, JSON (`WeeklyHours`); null: open whenever not paused (migration 039). */
  hours: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface MenuItemsTable {
  id: Generated<number>;
  stall_id: number;
  name: string;
  description: string | null;
  category: string;
  price_cents: number;
  /** 0 or 1. */
  sold_out: number;
  /** JSON array of text. */
  allergens: string;
  created_at: string;
  updated_at: string;
}

export interface OrdersTable {
  id: Generated<number>;
  table_number: number;
  status: 'received' | 'preparing' | 'ready' | 'served' | 'cancelled';
  total_cents: number;
  token: string;
  idempotency_key: string | null;
  request_hash: string;
  /** The wait told when placed, in minutes (migration 017); null when unknown. */
  wait_low_minutes: number | null;
  wait_high_minutes: number | null;
  created_at: string;
  updated_at: string;
}

export interface OrderLinesTable {
  id: Generated<number>;
  order_id: number;
  item_id: number | null;
  stall_id: number | null;
  stall_name: string;
  name: string;
  unit_price_cents: number;
  quantity: number;
  note: string | null;
  /** When its stall's kitchen marked it ready (migration 040); null while it is not. */
  ready_at: Generated<string | null>;
  /** The dish's allergens when it was ordered, a JSON array of text (migration 040). */
  allergens: Generated<string>;
}

/** One stall's part of an order: its kitchen's progress on that order's lines (migration 015). */
export interface OrderTicketsTable {
  order_id: number;
  stall_id: number;
  stall_name: string;
  status: 'received' | 'preparing' | 'ready';
  received_at: string;
  preparing_at: string | null;
  ready_at: string | null;
}

/**
 * The food court's figures of one venue hour (migration 030): orders placed, how many are cancelled
 * now, and what the others are worth; kept by the order writes, summed by the reports.
 */
export interface ReportHoursTable {
  /** The venue's day (YYYY-MM-DD) and wall-clock hour (0–23). */
  day: string;
  hour: number;
  orders: number;
  cancelled: number;
  revenue_cents: number;
}

/** The same figures for one stall in one venue hour: `stall_id` 0 is a deleted stall, named by `stall_name` (`''` for a stall still there). */
export interface ReportStallHoursTable extends ReportHoursTable {
  stall_id: number;
  stall_name: string;
  /** Its tickets made ready (of that hour's orders) and their seconds from received to ready (migration 040). */
  prep_seconds: number;
  prep_tickets: number;
}

export interface ChatChannelsTable {
  id: Generated<number>;
  name: string;
  /** Lower-cased name: unique, so "Kitchen" and "kitchen" are one channel. */
  name_key: string;
  topic: string | null;
  runners_may_join: number;
  archived_at: string | null;
  created_at: string;
}

export interface ConversationsTable {
  id: Generated<number>;
  guest_name: string;
  guest_table: number | null;
  guest_email: string | null;
  guest_token_hash: string;
  status: 'open' | 'resolved';
  assignee_id: number | null;
  created_at: string;
  updated_at: string;
  /** What the front desk's search reads: the guest's name, email and each message, a line each (migration 032). */
  search_text: Generated<string>;
}

/** Messages of staff channels and of guest conversations: exactly one of channel_id, conversation_id. */
export interface MessagesTable {
  id: Generated<number>;
  channel_id: number | null;
  conversation_id: number | null;
  author_kind: 'staff' | 'guest';
  author_account_id: number | null;
  author_name: string;
  body: string;
  created_at: string;
  edited_at: string | null;
  deleted_at: string | null;
}

/** A reader's last-read message in a channel: the channel's participants. */
export interface ChannelReadsTable {
  channel_id: number;
  account_id: number;
  last_read_id: number;
}

/** A staff reader's last-read message in a guest conversation. */
export interface ConversationReadsTable {
  conversation_id: number;
  account_id: number;
  last_read_id: number;
}

/** bigint columns come back as text from PostgreSQL; repositories read them through Number(). */
export interface UploadsTable {
  id: Generated<number>;
  name: string;
  type: string;
  size: number | string;
  sha256: string;
  account_id: number | null;
  uploaded_by: string;
  batch: string | null;
  created_at: string;
}

export interface PendingUploadsTable {
  tus_id: string;
  account_id: number;
  name: string;
  type: string;
  size: number | string;
  batch: string | null;
  created_at: string;
}

/** The parts catalogue (`010-catalogue`); booleans are 0/1 integers. */
export interface CatalogueThemesTable {
  id: number;
  name: string;
  parent_id: number | null;
}
export interface PartCategoriesTable {
  id: number;
  name: string;
}
export interface ColoursTable {
  id: number;
  name: string;
  rgb: string;
  transparent: number;
}
export interface PartsTable {
  id: Generated<number>;
  number: string;
  name: string;
  category_id: number | null;
  material: string | null;
  image_url: string | null;
  piece_count: Generated<number>;
  /** The number's and the name's words, for the text index (migration 019). */
  search_text: Generated<string>;
  /** The order a search reads its matches in, 1 first: the most used (migration 023; the importer keeps it). */
  search_rank: Generated<number>;
}
export interface PiecesTable {
  id: Generated<number>;
  number: string;
  name: string;
  year: number | null;
  theme_id: number | null;
  part_count: Generated<number>;
  image_url: string | null;
  search_text: string;
  /** The order a search reads its matches in, 1 first: the newest (migration 023; the importer keeps it). */
  search_rank: Generated<number>;
}
export interface CatalogueInventoriesTable {
  id: number;
  piece_number: string;
  version: number;
}
export interface PiecePartsTable {
  piece_id: number;
  part_id: number;
  colour_id: number;
  spare: number;
  quantity: number;
}
export interface PartUsageTable {
  part_id: number;
  piece_id: number;
  quantity: number;
  spares: number;
  colours: number;
}
export interface PartColoursTable {
  part_id: number;
  colour_id: number;
}

/** The last answer of each sample call (`011-sample-cache`): our mapped JSON, served marked stale when the upstream is down. */
export interface SampleCacheTable {
  key: string;
  body: string;
  fetched_at: string;
}

export interface DB {
  accounts: AccountsTable;
  sessions: SessionsTable;
  account_links: AccountLinksTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  app_meta: AppMetaTable;
  gym_owners: GymOwnersTable;
  gym_users: GymUsersTable;
  door_access_outbox: DoorAccessOutboxTable;
  member_visits: MemberVisitsTable;
  live_events: LiveEventsTable;
  rate_limit_counters: RateLimitCountersTable;
  rate_window_starts: RateWindowStartsTable;
  stalls: StallsTable;
  menu_items: MenuItemsTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  order_tickets: OrderTicketsTable;
  report_hours: ReportHoursTable;
  report_stall_hours: ReportStallHoursTable;
  chat_channels: ChatChannelsTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  channel_reads: ChannelReadsTable;
  conversation_reads: ConversationReadsTable;
  uploads: UploadsTable;
  pending_uploads: PendingUploadsTable;
  catalogue_themes: CatalogueThemesTable;
  part_categories: PartCategoriesTable;
  colours: ColoursTable;
  parts: PartsTable;
  pieces: PiecesTable;
  catalogue_inventories: CatalogueInventoriesTable;
  piece_parts: PiecePartsTable;
  part_usage: PartUsageTable;
  part_colours: PartColoursTable;
  sample_cache: SampleCacheTable;
  kisi_events: KisiEventsTable;
  kisi_event_types: KisiEventTypesTable;
  kisi_event_doors: KisiEventDoorsTable;
  kisi_event_people: KisiEventPeopleTable;
  remote_unlock_requests: RemoteUnlockRequestsTable;
  audit_entries: AuditEntriesTable;
}
