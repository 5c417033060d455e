import { sql } from 'kysely';
import type { Database } from '../bff/db/database';
import { fillKisiEventChoices } from '../bff/db/kisi-event-choices';
import { loadConfig } from '../bff/config';
import { countFiguresAgain } from '../bff/features/pt/figures.repository';
import { fillConversationSearch } from '../bff/db/migrations/032-staff-messages-trail-files.migration';
import { fillLastVisits, fillMemberVisits } from '../bff/db/member-visits';

/** What {@link fillTwoYears} writes: two years of a busy venue (DESIGN §11's sizes, issue 51). */
export const TWO_YEARS = {
  members: 20_000,
  doorEvents: 2_000_000,
  orders: 500_000,
  chatMessages: 200_000,
  conversations: 10_000,
  /** Guest messages: five in each conversation. */
  guestMessages: 50_000,
  auditEntries: 100_000,
  storedFiles: 20_000,
} as const;

export const TWO_YEARS_IN_WORDS =
  '2M door events, 500k orders with their lines and tickets, 200k chat messages, 50k guest messages in 10k conversations, 100k audit entries, 20k members, 20k stored files';

/** Settings a server reading the history starts with: the daily purge keeps everything (0: kept for ever). */
export const KEEP_THE_HISTORY: Record<string, string> = {
  RETAIN_DOOR_EVENTS_DAYS: '0',
  RETAIN_CHAT_DAYS: '0',
  RETAIN_CONVERSATIONS_DAYS: '0',
  RETAIN_FILES_DAYS: '0',
  RETAIN_AUDIT_DAYS: '0',
  RETAIN_ORDERS_DAYS: '0',
};

/**
 * Two years of history, written by the database itself (generated rows, the same on every run) into
 * the tables the app writes, in a database the server has seeded: members `history<i>@members.example`
 * ("Member <i>"), whose door events (one in 50 denied) reach back two years; orders served (one in 20
 * cancelled) spread over the seeded stalls, each with its line and its stall's ticket; chat messages in
 * the first channel; guest conversations (one in 50 still open); audit entries; stored files' rows
 * (no bytes: the list does not read them).
 */
export async function fillTwoYears(database: Database): Promise<void> {
  const pg = database.engine === 'postgres';
  const text = (expr: string) => (pg ? `(${expr})::text` : `(${expr})`);
  const rows = (n: number) => (pg ? `generate_series(1, ${n}) as g(i)` : 'n');
  const counting = (n: number) => (pg ? '' : `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n}) `);
  const ago = (secondsExpr: string) =>
    pg ? `to_char((now() at time zone 'utc') - (${secondsExpr}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (${secondsExpr}) || ' seconds')`;
  const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const owner = (await database.db.selectFrom('gym_owners').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const channel = (await database.db.selectFrom('chat_channels').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const admin = (await database.db.selectFrom('accounts').select(['id', 'name']).orderBy('id').executeTakeFirstOrThrow());
  const stalls = await database.db.selectFrom('stalls').select(['id', 'name']).orderBy('id').execute();
  if (stalls.length === 0) throw new Error('the seeded database has no stalls');
  // The order's stall: order i goes to stall i mod (number of stalls).
  const stallOf = (column: 'id' | 'name') =>
    `case ${stalls.map((s, k) => `when o.id % ${stalls.length} = ${k} then ${column === 'id' ? s.id : quote(s.name)}`).join(' ')} end`;
  const payload = `'{"type":"lock.unlock","actor_type":"User","object_type":"Lock","success":true,"place_id":1,"message":"Unlocked by a member of the gym with the mobile app"}'`;
  const five = '(select 1 as k union all select 2 union all select 3 union all select 4 union all select 5) as five';
  const { members, doorEvents, orders, chatMessages, conversations, auditEntries, storedFiles } = TWO_YEARS;
  const statements = [
    `${counting(members)}insert into gym_users (email, name, owner_id, membership, created_at, updated_at)
       select 'history' || ${text('i')} || '@members.example', 'Member ' || ${text('i')}, ${owner}, 'active', ${ago('i * 3000')}, ${ago('i * 3000')} from ${rows(members)}`,
    `${counting(doorEvents)}insert into kisi_events (uuid, type, actor_type, actor_id, actor_name, actor_email, object_type, object_id, object_name, place_id, success, created_at, received_at, payload)
       select 'history-' || ${text('i')}, 'lock.unlock', 'User', 100000 + i % ${members}, 'Member ' || ${text(`i % ${members}`)}, 'history' || ${text(`i % ${members}`)} || '@members.example',
              'Lock', 1 + i % 12, 'Door ' || ${text('i % 12')}, 1, case when i % 50 = 0 then 0 else 1 end, ${ago('i * 31')}, ${ago('i * 31')}, ${payload} from ${rows(doorEvents)}`,
    `${counting(orders)}insert into orders (table_number, status, total_cents, token, request_hash, created_at, updated_at)
       select 1 + i % 40, case when i % 20 = 0 then 'cancelled' else 'served' end, 850, 'history-' || ${text('i')}, 'history-' || ${text('i')}, ${ago('i * 126 + 600')}, ${ago('i * 126')} from ${rows(orders)}`,
    // Each ticket is ready, so its one dish is ticked ready when the ticket became ready (migration 040).
    `insert into order_lines (order_id, stall_id, stall_name, name, unit_price_cents, quantity, ready_at)
       select o.id, ${stallOf('id')}, ${stallOf('name')}, 'Ramen', 850, 1, o.updated_at from orders o where o.token like 'history-%'`,
    `insert into order_tickets (order_id, stall_id, stall_name, status, received_at, preparing_at, ready_at)
       select o.id, ${stallOf('id')}, ${stallOf('name')}, 'ready', o.created_at, o.created_at, o.updated_at from orders o where o.token like 'history-%'`,
    `${counting(chatMessages)}insert into messages (channel_id, author_kind, author_name, body, created_at)
       select ${channel}, 'staff', 'Dana', 'Table ' || ${text('i % 40')} || ' needs a high chair, and the card reader by the door is slow again', ${ago('i * 315')} from ${rows(chatMessages)}`,
    `${counting(conversations)}insert into conversations (guest_name, guest_table, guest_email, guest_token_hash, status, created_at, updated_at)
       select 'Guest ' || ${text('i')}, 1 + i % 40, 'guest' || ${text('i')} || '@guests.example', 'history-' || ${text('i')}, case when i % 50 = 0 then 'open' else 'resolved' end, ${ago('i * 6300 + 900')}, ${ago('i * 6300')} from ${rows(conversations)}`,
    `insert into messages (conversation_id, author_kind, author_account_id, author_name, body, created_at)
       select c.id, case when five.k % 2 = 1 then 'guest' else 'staff' end, case when five.k % 2 = 1 then null else ${admin.id} end,
              case when five.k % 2 = 1 then c.guest_name else ${quote(admin.name)} end,
              case when five.k % 2 = 1 then 'Could someone bring napkins to table ' || ${text('c.guest_table')} || ', please?' else 'On its way!' end, c.created_at
       from conversations c, ${five} where c.guest_token_hash like 'history-%' order by c.id, five.k`,
    `${counting(auditEntries)}insert into audit_entries (at, kind, action, subject_id, subject, changes)
       select ${ago('i * 630')}, 'member', 'paused', ${text('i')}, 'Member ' || ${text('i')}, '[{"field":"membership","before":"active","after":"paused"}]' from ${rows(auditEntries)}`,
    `${counting(storedFiles)}insert into uploads (name, type, size, sha256, account_id, uploaded_by, created_at)
       select 'receipt-' || ${text('i')} || '.pdf', 'application/pdf', 120000 + i % 1000, 'history-' || ${text('i')}, ${admin.id}, ${quote(admin.name)}, ${ago('i * 3150')} from ${rows(storedFiles)}`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(database.db);
  // The door events' filter choices and people, counted as migration 031 counts a venue's events.
  await fillKisiEventChoices(database.db);
  // The food court's figures by venue hour, counted from the orders as a server's first start after
  // migration 030 does, in the zone the bench's servers start with.
  await countFiguresAgain(database, loadConfig({ VENUE_TIME_ZONE: process.env.VENUE_TIME_ZONE }).VENUE_TIME_ZONE);
  // Each conversation's words for the front desk's search, as migration 032 writes them.
  await fillConversationSearch(database.db);
  // Each member's last visit, as migration 034 fills it from the unlocks.
  await fillLastVisits(database.db);
  // Their attendance's quarter hours, as migration 036 fills them.
  await fillMemberVisits(database.db);
  if (pg) await sql.raw('vacuum analyze').execute(database.db);
}
