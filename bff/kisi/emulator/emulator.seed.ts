import crypto from 'node:crypto';
import type { EmulatorDb } from './emulator.database';

/** `kisi_emu_meta` key naming the group the BFF's access links go to in emulator mode (KISI_GROUP_ID). */
export const DEFAULT_GROUP_META_KEY = 'default_group_id';

/** The emulator's API user: the login the BFF's key belongs to (actor of remote unlocks, creator of links). */
export const INTEGRATION_USER = { name: 'Frontdesk Integration', email: 'frontdesk-api@harbourside.example' };

const STAFF = [
  ['Nadia Okoye', 'nadia.okoye@harbourside.example'],
  ['Tomás Herrera', 'tomas.herrera@harbourside.example'],
  ['Ingrid Solberg', 'ingrid.solberg@harbourside.example'],
  ['Marcus Bell', 'marcus.bell@harbourside.example'],
  ['Yuki Tanaka', 'yuki.tanaka@harbourside.example'],
  ['Fatima Zahra', 'fatima.zahra@harbourside.example'],
] as const;

const MEMBERS = [
  'Alice Moreau', 'Bruno Costa', 'Carmen Ruiz', 'Daniel Kim', 'Esther Adeyemi', 'Felix Wagner', 'Gabriela Souza', 'Hassan Ali',
  'Irene Novak', 'Jamal Carter', 'Katarina Petrov', 'Lucas Martin', 'Mei Lin', 'Nikolai Volkov', 'Olivia Brown', 'Pedro Alves',
  'Rania Haddad', 'Stefan Horvat', 'Tanya Singh', 'Umar Farouk', 'Valentina Greco', 'William Osei', 'Xenia Ivanova', 'Yara Nassar',
  'Zaid Khan', 'Amelie Laurent', 'Boris Kuznetsov', 'Clara Jensen', 'Diego Ramos', 'Elif Yilmaz',
];

const VENDORS = [
  ['Kofi Asante', 'kofi@jollofhouse.example'],
  ['Lucia Bianchi', 'lucia@pastafresca.example'],
  ['Minh Nguyen', 'minh@phostation.example'],
] as const;

const emailFor = (name: string) => `${name.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z]+/g, '.')}@mail.example`;

/** Everyone in the demo organisation except the API user: the gym seed makes them members too. */
export const KISI_DEMO_PEOPLE: Array<{ name: string; email: string }> = [
  ...STAFF.map(([name, email]) => ({ name, email })),
  ...MEMBERS.map((name) => ({ name, email: emailFor(name) })),
  ...VENDORS.map(([name, email]) => ({ name, email })),
];

/** The people who work here (staff and stall holders): they come in most days, members every few. */
export const KISI_DEMO_WORKERS: ReadonlySet<string> = new Set([...STAFF, ...VENDORS].map(([, email]) => email));

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const daysFromNow = (days: number, hour = 9) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  d.setUTCHours(hour, 0, 0, 0);
  return iso(d);
};

/**
 * When someone last opened a door: `days` ago at a time of day of their own (7:00–18:59), or, when
 * that time has not come yet today, a little while before now (never in the future).
 */
const lastAccess = (days: number, seq: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - days);
  d.setUTCHours(7 + (seq % 12), (seq * 23) % 60, (seq * 37) % 60, 0);
  const latest = Date.now() - (10 + (seq % 40)) * 60_000;
  return iso(d.getTime() <= latest ? d : new Date(latest));
};

/**
 * A believable organisation: two places, eight doors, five groups, the API user, 39 people with
 * access rights (some expired, some switched off), and a few guest access links, into an empty
 * store; records the default group for KISI_GROUP_ID.
 */
export async function seedKisiOrganisation(db: EmulatorDb): Promise<void> {
  const now = iso(new Date());
  const created = daysFromNow(-120);
  const at = { created_at: created, updated_at: now };

  const place = async (name: string, address: string, latitude: number, longitude: number, description: string) =>
    (await db.insertInto('kisi_emu_places').values({ name, address, latitude, longitude, description, time_zone: 'Europe/London', ...at }).returning('id').executeTakeFirstOrThrow()).id;
  const main = await place('Harbourside Main Building', '1 Quay Street, Harbourside', 51.5072, -0.1276, 'Reception, gym and studios');
  const court = await place('Harbourside Food Court', '3 Quay Street, Harbourside', 51.5075, -0.128, 'Stalls and kitchens');

  const lock = async (placeId: number, name: string, order: number, extra: { online?: boolean; lockedDown?: boolean; description?: string } = {}) =>
    (
      await db
        .insertInto('kisi_emu_locks')
        .values({
          place_id: placeId,
          name,
          description: extra.description ?? null,
          online: extra.online === false ? 0 : 1,
          locked_down: extra.lockedDown ? 1 : 0,
          locked_down_since: extra.lockedDown ? daysFromNow(-2) : null,
          order_id: order,
          ...at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const entrance = await lock(main, 'Main Entrance', 1, { description: 'Glass doors at reception' });
  const gymFloor = await lock(main, 'Gym Floor', 2);
  const lockers = await lock(main, 'Locker Rooms', 3);
  const yoga = await lock(main, 'Yoga Studio', 4);
  const office = await lock(main, 'Staff Office', 5);
  const server = await lock(main, 'Server Room', 6, { lockedDown: true, description: 'Locked down during maintenance' });
  const courtDoor = await lock(court, 'Food Court Service Door', 7);
  const coldRoom = await lock(court, 'Cold Store', 8, { online: false, description: 'Wireless lock, battery replacement pending' });

  const group = async (name: string, description: string, locks: number[], placeId: number | null = null) => {
    const id = (
      await db
        .insertInto('kisi_emu_groups')
        .values({
          name,
          description,
          place_id: placeId,
          login_enabled: 1,
          geofence_restriction_enabled: 0,
          primary_device_restriction_enabled: 0,
          managed_device_restriction_enabled: 0,
          reader_restriction_enabled: 0,
          time_restriction_enabled: 0,
          tap_to_access_restriction_enabled: 0,
          ...at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    if (locks.length) await db.insertInto('kisi_emu_group_locks').values(locks.map((lock_id) => ({ group_id: id, lock_id }))).execute();
    return id;
  };
  const gymMembers = await group('Gym Members', 'Everyone with an active membership', [entrance, gymFloor, lockers]);
  const staffGroup = await group('Front Desk Staff', 'Reception and floor staff', [entrance, gymFloor, lockers, yoga, office, courtDoor]);
  const yogaGroup = await group('Yoga Classes', 'Members booked on studio classes', [entrance, yoga], main);
  const vendorsGroup = await group('Food Court Vendors', 'Stall holders and their kitchens', [courtDoor, coldRoom], court);
  await group('Contractors', 'Maintenance visits, no standing access', [server]);

  let memberSeq = 500;
  const user = async (name: string, email: string, options: { accessEnabled?: boolean; notes?: string | null; lastAccessDays?: number | null } = {}) =>
    (
      await db
        .insertInto('kisi_emu_users')
        .values({
          member_id: ++memberSeq,
          name,
          email,
          image: null,
          notes: options.notes ?? null,
          metadata: JSON.stringify({}),
          access_enabled: options.accessEnabled === false ? 0 : 1,
          scim_access_enabled: 1,
          password_flow_enabled: 0,
          otp_required_for_login: 0,
          confirmed: 1,
          last_accessed_at: options.lastAccessDays == null ? null : lastAccess(options.lastAccessDays, memberSeq),
          ...at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  const integration = await user(INTEGRATION_USER.name, INTEGRATION_USER.email, { notes: 'API login used by Frontdesk' });
  const role = (user_id: number, role_id: string, type: 'Organization' | 'Place' | 'Group', applies_to_id: number, valid: { from?: string; until?: string } = {}) =>
    db
      .insertInto('kisi_emu_role_assignments')
      .values({ user_id, role_id, applies_to_type: type, applies_to_id, notify: 0, valid_from: valid.from ?? null, valid_until: valid.until ?? null, created_by_id: integration, ...at })
      .execute();
  await role(integration, 'administrator', 'Organization', 1);

  for (const [i, [name, email]] of STAFF.entries()) {
    const id = await user(name, email, { lastAccessDays: i % 3 });
    await role(id, i < 2 ? 'group_manager' : 'group_basic', 'Group', staffGroup);
    if (i === 0) await role(id, 'place_manager', 'Place', main);
  }
  for (const [i, name] of MEMBERS.entries()) {
    const paused = i % 11 === 10;
    // A few expired or not-yet-started rights, so the role-assignment view has validity to show.
    const startsLater = i % 13 === 12;
    const valid = i % 9 === 8 ? { from: daysFromNow(-60), until: daysFromNow(-5) } : startsLater ? { from: daysFromNow(3) } : {};
    const booksYoga = i % 4 === 0;
    // Someone whose only rights start in a few days has never been through a door.
    const neverIn = i % 7 === 6 || (startsLater && !booksYoga);
    const id = await user(name, emailFor(name), {
      accessEnabled: !paused,
      notes: paused ? 'Membership paused at the front desk' : null,
      lastAccessDays: neverIn ? null : (i * 3) % 20,
    });
    await role(id, 'group_basic', 'Group', gymMembers, valid);
    if (booksYoga) await role(id, 'group_basic', 'Group', yogaGroup, { from: daysFromNow(-30), until: daysFromNow(60) });
  }
  for (const [name, email] of VENDORS) {
    const id = await user(name, email, { lastAccessDays: 1 });
    await role(id, 'group_basic', 'Group', vendorsGroup);
  }

  const links = [
    ['Day pass: Harriet Cole', 'harriet.cole@mail.example', 'online', 0, 1],
    ['Trial week: Omar Said', 'omar.said@mail.example', 'online', -2, 5],
    ['Guest: Priya Raman', 'priya.raman@mail.example', null, -10, -3],
    ['Personal trainer: Sven Berg', 'sven@bergpt.example', 'online', -30, 60],
    ['Corporate visit: Northwind', 'events@northwind.example', null, 1, 2],
    ['Open house', null, 'offline', -1, 1],
  ] as const;
  for (const [name, email, qr, from, until] of links) {
    await db
      .insertInto('kisi_emu_group_links')
      .values({
        group_id: gymMembers,
        name,
        email,
        phone: null,
        link_enabled: 1,
        quick_response_code_type: qr,
        valid_from: daysFromNow(from),
        valid_until: daysFromNow(until, 22),
        last_used_at: from < 0 && until > 0 ? daysFromNow(-1, 18) : null,
        secret: crypto.randomBytes(16).toString('hex'),
        created_by_id: integration,
        ...at,
      })
      .execute();
  }

  await db.insertInto('kisi_emu_meta').values({ key: DEFAULT_GROUP_META_KEY, value: String(gymMembers) }).execute();
}
