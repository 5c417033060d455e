import crypto from 'node:crypto';
import { sql, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '../../db/database';
import type { DB, KisiEmuGroupLinksTable, KisiEmuGroupsTable, KisiEmuLocksTable, KisiEmuUsersTable } from '../../db/schema';
import { likePattern } from '../../lib/paginate';

/**
 * The emulator's state and the exact JSON shapes Kisi answers with (reference/kisi-api.md §5,
 * kisi-openapi-subset.yaml). Everything lives in the `kisi_emu_*` tables, so it survives restarts.
 */

export const ORGANIZATION = { id: 1, resource_type: 'Organization', name: 'Harbourside Venue', domain: 'harbourside' } as const;

/** Kisi's timestamps: UTC ISO-8601 without milliseconds. */
export const kisiNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const bool = (n: number | null | undefined) => n === 1;
const pattern = (text: string) => sql<string>`${likePattern(text)} escape '\\'`;

type Row<T> = { [K in keyof T]: T[K] extends { __select__: infer S } ? S : T[K] } & { id: number };
type UserRow = Row<KisiEmuUsersTable>;
type GroupRow = Row<KisiEmuGroupsTable>;
type LockRow = Row<KisiEmuLocksTable>;
type LinkRow = Row<KisiEmuGroupLinksTable>;

export interface Paged<T> {
  items: T[];
  total: number;
}

export interface ListParams {
  limit: number;
  offset: number;
  /** The request's query string (strings only, Express "simple" parser). */
  q: Record<string, string | undefined>;
}

const ids = (text: string | undefined): number[] | undefined =>
  text === undefined ? undefined : text.split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0);
const intParam = (text: string | undefined): number | undefined => (text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined);
const boolParam = (text: string | undefined): boolean | undefined => (text === 'true' ? true : text === 'false' ? false : undefined);

async function page<O>(
  query: SelectQueryBuilder<DB, keyof DB, O>,
  params: ListParams,
  order: (qb: SelectQueryBuilder<DB, keyof DB, O>) => SelectQueryBuilder<DB, keyof DB, O>,
): Promise<{ rows: O[]; total: number }> {
  const totalRow = await query.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await order(query).limit(params.limit).offset(params.offset).execute();
  return { rows, total: Number((totalRow as { n?: number } | undefined)?.n ?? 0) };
}

export function emulatorStore(db: Db) {
  // ---- users -----------------------------------------------------------------------------

  const groupsCount = async (userIds: number[]) => {
    if (userIds.length === 0) return new Map<number, number>();
    const rows = await db
      .selectFrom('kisi_emu_role_assignments')
      .select(['user_id', (eb) => eb.fn.count<number>('applies_to_id').distinct().as('n')])
      .where('applies_to_type', '=', 'Group')
      .where('user_id', 'in', userIds)
      .groupBy('user_id')
      .execute();
    return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
  };

  const orgRoles = async (userIds: number[]) => {
    if (userIds.length === 0) return new Map<number, string>();
    const rows = await db
      .selectFrom('kisi_emu_role_assignments')
      .select(['user_id', 'role_id'])
      .where('applies_to_type', '=', 'Organization')
      .where('user_id', 'in', userIds)
      .execute();
    return new Map(rows.map((r) => [r.user_id, r.role_id]));
  };

  const toUser = (u: UserRow, groups: number) => ({
    id: u.id,
    resource_type: 'User' as const,
    name: u.name,
    email: u.email,
    created_at: u.created_at,
    updated_at: u.updated_at,
    metadata: JSON.parse(u.metadata) as Record<string, unknown>,
    image: u.image,
    otp_required_for_login: bool(u.otp_required_for_login),
    password_flow_enabled: bool(u.password_flow_enabled),
    access_enabled: bool(u.access_enabled),
    last_accessed_at: u.last_accessed_at,
    scim_access_enabled: bool(u.scim_access_enabled),
    notes: u.notes,
    organization_id: ORGANIZATION.id,
    confirmed: bool(u.confirmed),
    groups_count: groups,
  });
  type KisiUser = ReturnType<typeof toUser>;

  const toMember = (u: UserRow, groups: number, role: string | undefined) => ({
    id: u.member_id,
    resource_type: 'Member' as const,
    name: u.name,
    image: u.image,
    password_flow_enabled: bool(u.password_flow_enabled),
    access_enabled: bool(u.access_enabled),
    scim_access_enabled: bool(u.scim_access_enabled),
    last_accessed_at: u.last_accessed_at,
    created_at: u.created_at,
    updated_at: u.updated_at,
    role_id: role ?? 'basic',
    notes: u.notes,
    metadata: JSON.parse(u.metadata) as Record<string, unknown>,
    organization_id: ORGANIZATION.id,
    user_id: u.id,
    user: { id: u.id, resource_type: 'User' as const, email: u.email, name: u.name, otp_required_for_login: bool(u.otp_required_for_login) },
    place_id: null,
    shares_count: groups,
    confirmed: bool(u.confirmed),
  });

  /** Filters shared by GET /users and GET /members (`query` searches email, name and notes). */
  const userFilters = (q: ListParams['q'], byMemberIds: boolean) => (eb: ExpressionBuilder<DB, 'kisi_emu_users'>) => {
    const conditions = [];
    const idList = ids(q.ids);
    if (idList) conditions.push(eb(byMemberIds ? 'kisi_emu_users.member_id' : 'kisi_emu_users.id', 'in', idList.length ? idList : [0]));
    if (q.email) conditions.push(eb(eb.fn('lower', ['kisi_emu_users.email']), '=', q.email.toLowerCase()));
    if (q.query) {
      const p = pattern(q.query);
      conditions.push(eb.or([eb('kisi_emu_users.name', 'like', p), eb('kisi_emu_users.email', 'like', p), eb('kisi_emu_users.notes', 'like', p)]));
    }
    const userId = intParam(q.user_id);
    if (q.user_id !== undefined) conditions.push(eb('kisi_emu_users.id', '=', userId ?? 0));
    const groupId = intParam(q.group_id);
    if (q.group_id !== undefined) {
      conditions.push(
        eb(
          'kisi_emu_users.id',
          'in',
          eb
            .selectFrom('kisi_emu_role_assignments')
            .select('user_id')
            .where('applies_to_type', '=', 'Group')
            .where('applies_to_id', '=', groupId ?? 0),
        ),
      );
    }
    return eb.and(conditions);
  };

  const userOrder = (sort: string | undefined) => <O>(qb: SelectQueryBuilder<DB, keyof DB, O>) => {
    const dir = sort?.startsWith('-') ? 'desc' : 'asc';
    const key = sort?.replace(/^-/, '');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column names checked by the switch
    const q = qb as SelectQueryBuilder<DB, any, O>;
    if (key === 'unlock') return q.orderBy(sql`kisi_emu_users.last_accessed_at is not null`, dir).orderBy('kisi_emu_users.last_accessed_at', dir).orderBy('kisi_emu_users.id');
    if (key === 'access_enabled') return q.orderBy('kisi_emu_users.access_enabled', dir).orderBy('kisi_emu_users.name').orderBy('kisi_emu_users.id');
    if (key === 'name') return q.orderBy('kisi_emu_users.name', dir).orderBy('kisi_emu_users.id');
    return q.orderBy('kisi_emu_users.id');
  };

  async function listUsers(params: ListParams): Promise<Paged<KisiUser>> {
    const query = db.selectFrom('kisi_emu_users').selectAll().where(userFilters(params.q, false));
    const { rows, total } = await page(query as never, params, userOrder(params.q.sort) as never);
    const users = rows as UserRow[];
    const counts = await groupsCount(users.map((u) => u.id));
    return { items: users.map((u) => toUser(u, counts.get(u.id) ?? 0)), total };
  }

  async function listMembers(params: ListParams) {
    const query = db.selectFrom('kisi_emu_users').selectAll().where(userFilters(params.q, true));
    const { rows, total } = await page(query as never, params, userOrder(params.q.sort) as never);
    const users = rows as UserRow[];
    const userIds = users.map((u) => u.id);
    const [counts, roles] = await Promise.all([groupsCount(userIds), orgRoles(userIds)]);
    return { items: users.map((u) => toMember(u, counts.get(u.id) ?? 0, roles.get(u.id))), total };
  }

  const userRow = (id: number) => db.selectFrom('kisi_emu_users').selectAll().where('id', '=', id).executeTakeFirst() as Promise<UserRow | undefined>;

  async function getUser(id: number): Promise<KisiUser | undefined> {
    const u = await userRow(id);
    if (!u) return undefined;
    return toUser(u, (await groupsCount([id])).get(id) ?? 0);
  }

  const findUserByEmail = (email: string) =>
    db
      .selectFrom('kisi_emu_users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst() as Promise<UserRow | undefined>;

  /** PATCH /users/{id}: only Kisi's writable fields; `scim_access_enabled` is read-only and ignored. */
  async function updateUser(id: number, patch: { name?: string; image?: string | null; access_enabled?: boolean; password_flow_enabled?: boolean; metadata?: object; notes?: string | null }) {
    const values: Updateable<KisiEmuUsersTable> = { updated_at: kisiNow() };
    if (patch.name !== undefined) values.name = patch.name;
    if (patch.image !== undefined) values.image = patch.image;
    if (patch.access_enabled !== undefined) values.access_enabled = patch.access_enabled ? 1 : 0;
    if (patch.password_flow_enabled !== undefined) values.password_flow_enabled = patch.password_flow_enabled ? 1 : 0;
    if (patch.metadata !== undefined) values.metadata = JSON.stringify(patch.metadata);
    if (patch.notes !== undefined) values.notes = patch.notes;
    const result = await db.updateTable('kisi_emu_users').set(values).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  // ---- places, groups, locks ------------------------------------------------------------

  const placeRows = async (placeIds: number[]) => {
    if (placeIds.length === 0) return new Map<number, { id: number; name: string; latitude: number | null; longitude: number | null }>();
    const rows = await db.selectFrom('kisi_emu_places').select(['id', 'name', 'latitude', 'longitude']).where('id', 'in', placeIds).execute();
    return new Map(rows.map((r) => [r.id, r]));
  };

  const groupStats = async (groupIds: number[]) => {
    const users = new Map<number, number>();
    const locks = new Map<number, number>();
    if (groupIds.length === 0) return { users, locks };
    const [u, l] = await Promise.all([
      db
        .selectFrom('kisi_emu_role_assignments')
        .select(['applies_to_id as id', (eb) => eb.fn.count<number>('user_id').distinct().as('n')])
        .where('applies_to_type', '=', 'Group')
        .where('applies_to_id', 'in', groupIds)
        .groupBy('applies_to_id')
        .execute(),
      db
        .selectFrom('kisi_emu_group_locks')
        .select(['group_id as id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('group_id', 'in', groupIds)
        .groupBy('group_id')
        .execute(),
    ]);
    for (const r of u) users.set(r.id, Number(r.n));
    for (const r of l) locks.set(r.id, Number(r.n));
    return { users, locks };
  };

  async function toGroups(rows: GroupRow[]) {
    const groupIds = rows.map((g) => g.id);
    const [stats, places] = await Promise.all([groupStats(groupIds), placeRows([...new Set(rows.flatMap((g) => (g.place_id ? [g.place_id] : [])))])]);
    return rows.map((g) => {
      const place = g.place_id ? places.get(g.place_id) : undefined;
      const usersCount = stats.users.get(g.id) ?? 0;
      return {
        id: g.id,
        resource_type: 'Group' as const,
        name: g.name,
        description: g.description,
        created_at: g.created_at,
        updated_at: g.updated_at,
        geofence_restriction_enabled: bool(g.geofence_restriction_enabled),
        geofence_restriction_radius: 100,
        primary_device_restriction_enabled: bool(g.primary_device_restriction_enabled),
        managed_device_restriction_enabled: bool(g.managed_device_restriction_enabled),
        reader_restriction_enabled: bool(g.reader_restriction_enabled),
        time_restriction_enabled: bool(g.time_restriction_enabled),
        tap_to_access_restriction_enabled: bool(g.tap_to_access_restriction_enabled),
        login_enabled: bool(g.login_enabled),
        users_count: usersCount,
        locks_count: stats.locks.get(g.id) ?? 0,
        elevator_stops_count: 0,
        place_id: g.place_id,
        ...(place ? { place: { id: place.id, resource_type: 'Place' as const, name: place.name } } : {}),
        time_restriction_time_zone: null,
        members_count: usersCount,
      };
    });
  }

  async function listGroups(params: ListParams) {
    const { q } = params;
    const query = db
      .selectFrom('kisi_emu_groups')
      .selectAll()
      .where((eb) => {
        const c = [];
        const idList = ids(q.ids);
        if (idList) c.push(eb('id', 'in', idList.length ? idList : [0]));
        if (q.query) c.push(eb('name', 'like', pattern(q.query)));
        if (q.scope === 'organization') c.push(eb('place_id', 'is', null));
        if (q.scope === 'place') c.push(eb('place_id', 'is not', null));
        if (q.place_id !== undefined) c.push(eb('place_id', '=', intParam(q.place_id) ?? 0));
        if (q.lock_id !== undefined) c.push(eb('id', 'in', eb.selectFrom('kisi_emu_group_locks').select('group_id').where('lock_id', '=', intParam(q.lock_id) ?? 0)));
        return eb.and(c);
      });
    const dir = q.sort === '-name' ? 'desc' : 'asc';
    const { rows, total } = await page(query as never, params, ((qb: SelectQueryBuilder<DB, 'kisi_emu_groups', GroupRow>) =>
      q.sort ? qb.orderBy('name', dir).orderBy('id') : qb.orderBy('id')) as never);
    return { items: await toGroups(rows as GroupRow[]), total };
  }

  async function getGroup(id: number) {
    const row = (await db.selectFrom('kisi_emu_groups').selectAll().where('id', '=', id).executeTakeFirst()) as GroupRow | undefined;
    return row ? (await toGroups([row]))[0] : undefined;
  }

  async function createGroup(input: { name: string; description?: string | null; place_id?: number | null; flags: Record<string, boolean | undefined> }) {
    const now = kisiNow();
    const flag = (name: string, fallback = false) => ((input.flags[name] ?? fallback) ? 1 : 0);
    const row = await db
      .insertInto('kisi_emu_groups')
      .values({
        name: input.name,
        description: input.description ?? null,
        place_id: input.place_id ?? null,
        login_enabled: flag('login_enabled', true),
        geofence_restriction_enabled: flag('geofence_restriction_enabled'),
        primary_device_restriction_enabled: flag('primary_device_restriction_enabled'),
        managed_device_restriction_enabled: flag('managed_device_restriction_enabled'),
        reader_restriction_enabled: flag('reader_restriction_enabled'),
        time_restriction_enabled: flag('time_restriction_enabled'),
        tap_to_access_restriction_enabled: flag('tap_to_access_restriction_enabled'),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await getGroup(row.id))!;
  }

  /** Deleting a group takes its access rights and links with it, as in Kisi. */
  async function deleteGroup(id: number): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      await trx.deleteFrom('kisi_emu_role_assignments').where('applies_to_type', '=', 'Group').where('applies_to_id', '=', id).execute();
      const result = await trx.deleteFrom('kisi_emu_groups').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  const placeExists = async (id: number) => !!(await db.selectFrom('kisi_emu_places').select('id').where('id', '=', id).executeTakeFirst());
  const groupExists = async (id: number) => !!(await db.selectFrom('kisi_emu_groups').select('id').where('id', '=', id).executeTakeFirst());

  async function toLocks(rows: LockRow[], withFavorite: boolean) {
    const places = await placeRows([...new Set(rows.map((l) => l.place_id))]);
    const groupCounts = new Map<number, number>();
    if (rows.length) {
      const counts = await db
        .selectFrom('kisi_emu_group_locks')
        .select(['lock_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('lock_id', 'in', rows.map((l) => l.id))
        .groupBy('lock_id')
        .execute();
      for (const c of counts) groupCounts.set(c.lock_id, Number(c.n));
    }
    return rows.map((l) => {
      const place = places.get(l.place_id);
      return {
        id: l.id,
        resource_type: 'Lock' as const,
        created_at: l.created_at,
        updated_at: l.updated_at,
        configured: true,
        description: l.description,
        first_to_arrive_required_until: null,
        first_to_arrive_satisfied: true,
        latitude: place?.latitude ?? null,
        locked_down: bool(l.locked_down),
        locked_down_since: l.locked_down_since,
        longitude: place?.longitude ?? null,
        name: l.name,
        on_scheduled_unlock: false,
        online: bool(l.online),
        open: false,
        order_id: l.order_id,
        unlocked: false,
        geofence_restriction_enabled: false,
        geofence_restriction_radius: 100,
        reader_restriction_enabled: false,
        time_restriction_enabled: false,
        time_restriction_time_zone: null,
        ...(withFavorite ? { favorite: false } : {}),
        place_id: l.place_id,
        place: { id: l.place_id, name: place?.name ?? '', latitude: place?.latitude ?? null, longitude: place?.longitude ?? null },
        floor_id: null,
        groups_count: groupCounts.get(l.id) ?? 0,
        unlocked_until: null,
      };
    });
  }

  async function listLocks(params: ListParams) {
    const { q } = params;
    if (q.favorite === 'true') return { items: [], total: 0 }; // nobody has favourites in the emulator
    const query = db
      .selectFrom('kisi_emu_locks')
      .selectAll()
      .where((eb) => {
        const c = [];
        const idList = ids(q.ids);
        if (idList) c.push(eb('id', 'in', idList.length ? idList : [0]));
        if (q.query) c.push(eb('name', 'like', pattern(q.query)));
        if (q.place_id !== undefined) c.push(eb('place_id', '=', intParam(q.place_id) ?? 0));
        const online = boolParam(q.online);
        if (online !== undefined) c.push(eb('online', '=', online ? 1 : 0));
        const lockedDown = boolParam(q.locked_down);
        if (lockedDown !== undefined) c.push(eb('locked_down', '=', lockedDown ? 1 : 0));
        if (boolParam(q.unlocked) === true) c.push(sql<SqlBool>`1 = 0`); // locks relock at once here
        return eb.and(c);
      });
    const dir = q.sort === '-name' ? 'desc' : 'asc';
    const { rows, total } = await page(query as never, params, ((qb: SelectQueryBuilder<DB, 'kisi_emu_locks', LockRow>) =>
      q.sort === 'name' || q.sort === '-name' ? qb.orderBy('name', dir).orderBy('id') : qb.orderBy('order_id').orderBy('id')) as never);
    return { items: await toLocks(rows as LockRow[], q.favorite !== undefined), total };
  }

  const lockRow = (id: number) => db.selectFrom('kisi_emu_locks').selectAll().where('id', '=', id).executeTakeFirst() as Promise<LockRow | undefined>;

  /** The locks a user may open: those of groups they hold a current role on, or all for organisation roles. */
  async function userCanOpen(userId: number, lockId: number, at: string): Promise<boolean> {
    const roles = await db.selectFrom('kisi_emu_role_assignments').selectAll().where('user_id', '=', userId).execute();
    if (roles.some((r) => r.applies_to_type === 'Organization')) return true;
    const lock = await lockRow(lockId);
    if (roles.some((r) => r.applies_to_type === 'Place' && r.applies_to_id === lock?.place_id)) return true;
    const groupIds = roles
      .filter((r) => r.applies_to_type === 'Group' && (!r.valid_from || r.valid_from <= at) && (!r.valid_until || r.valid_until > at))
      .map((r) => r.applies_to_id);
    if (groupIds.length === 0) return false;
    return !!(await db.selectFrom('kisi_emu_group_locks').select('lock_id').where('lock_id', '=', lockId).where('group_id', 'in', groupIds).executeTakeFirst());
  }

  async function firstOpenableLock(userId: number): Promise<LockRow | undefined> {
    const at = kisiNow();
    const locks = (await db.selectFrom('kisi_emu_locks').selectAll().orderBy('order_id').orderBy('id').execute()) as LockRow[];
    for (const lock of locks) if (bool(lock.online) && !bool(lock.locked_down) && (await userCanOpen(userId, lock.id, at))) return lock;
    return locks[0];
  }

  const touchUserAccess = (userId: number, at: string) => db.updateTable('kisi_emu_users').set({ last_accessed_at: at }).where('id', '=', userId).execute();

  // ---- role assignments -------------------------------------------------------------------

  async function listRoleAssignments(params: ListParams) {
    const { q } = params;
    const query = db
      .selectFrom('kisi_emu_role_assignments as ra')
      .innerJoin('kisi_emu_users as u', 'u.id', 'ra.user_id')
      .selectAll('ra')
      .select(['u.name as user_name', 'u.email as user_email'])
      .where((eb) => {
        const c = [];
        const idList = ids(q.ids);
        if (idList) c.push(eb('ra.id', 'in', idList.length ? idList : [0]));
        if (q.query) c.push(eb.or([eb('u.name', 'like', pattern(q.query)), eb('u.email', 'like', pattern(q.query))]));
        if (q.role_id) c.push(eb('ra.role_id', '=', q.role_id));
        if (q.assignee_type !== undefined && q.assignee_type !== 'User') c.push(sql<SqlBool>`1 = 0`); // only users here
        if (q.assignee_id !== undefined) c.push(eb('ra.user_id', '=', intParam(q.assignee_id) ?? 0));
        if (q.user_id !== undefined) c.push(eb('ra.user_id', '=', intParam(q.user_id) ?? 0));
        if (q.applies_to_type) c.push(eb('ra.applies_to_type', '=', q.applies_to_type as 'Group'));
        if (q.applies_to_id !== undefined) c.push(eb('ra.applies_to_id', '=', intParam(q.applies_to_id) ?? 0));
        const scope = q.scope ? { organization: 'Organization', place: 'Place', group: 'Group' }[q.scope] : undefined;
        if (q.scope) c.push(eb('ra.applies_to_type', '=', (scope ?? 'none') as 'Group'));
        if (q.group_id !== undefined) c.push(eb.and([eb('ra.applies_to_type', '=', 'Group'), eb('ra.applies_to_id', '=', intParam(q.group_id) ?? 0)]));
        if (q.place_id !== undefined) c.push(eb.and([eb('ra.applies_to_type', '=', 'Place'), eb('ra.applies_to_id', '=', intParam(q.place_id) ?? 0)]));
        return eb.and(c);
      });
    const dir = q.sort === '-user.name' ? 'desc' : 'asc';
    const { rows, total } = await page(query as never, params, ((qb: SelectQueryBuilder<DB, 'kisi_emu_role_assignments', { id: number }>) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- aliased columns
      q.sort ? (qb as any).orderBy('u.name', dir).orderBy('ra.id') : (qb as any).orderBy('ra.id')) as never);
    type RaRow = DB['kisi_emu_role_assignments'] & { id: number; user_name: string; user_email: string };
    const list = rows as unknown as RaRow[];
    const groupIds = list.filter((r) => r.applies_to_type === 'Group').map((r) => r.applies_to_id);
    const placeIds = list.filter((r) => r.applies_to_type === 'Place').map((r) => r.applies_to_id);
    const [groups, places] = await Promise.all([
      groupIds.length ? db.selectFrom('kisi_emu_groups').select(['id', 'name']).where('id', 'in', groupIds).execute() : [],
      placeRows(placeIds),
    ]);
    const groupNames = new Map(groups.map((g) => [g.id, g.name]));
    const items = list.map((r) => {
      const assignee = { id: r.user_id, resource_type: 'User' as const, email: r.user_email, name: r.user_name };
      const common = {
        id: r.id,
        resource_type: 'RoleAssignment' as const,
        created_at: r.created_at,
        updated_at: r.updated_at,
        role_id: r.role_id,
        notify: bool(r.notify),
        applies_to_type: r.applies_to_type,
        applies_to_id: r.applies_to_id,
        assignee_type: 'User' as const,
        assignee_id: r.user_id,
        assignee,
        created_by_type: r.created_by_id ? ('User' as const) : null,
        created_by_id: r.created_by_id,
        user_id: r.user_id,
        user: assignee,
        assignee_team_id: null,
        guest_id: null,
        issued_by_id: r.created_by_id,
      };
      if (r.applies_to_type === 'Organization') {
        return { ...common, applies_to: { ...ORGANIZATION }, type: 'organization', scope: 'organization', organization_id: ORGANIZATION.id, organization: { ...ORGANIZATION } };
      }
      if (r.applies_to_type === 'Place') {
        const ref = { id: r.applies_to_id, resource_type: 'Place' as const, name: places.get(r.applies_to_id)?.name ?? '' };
        return { ...common, applies_to: ref, type: 'place', scope: 'place', place_id: r.applies_to_id, place: ref };
      }
      const ref = { id: r.applies_to_id, resource_type: 'Group' as const, name: groupNames.get(r.applies_to_id) ?? '' };
      return { ...common, applies_to: ref, type: 'group', scope: 'group', group_id: r.applies_to_id, group: ref, valid_from: r.valid_from, valid_until: r.valid_until };
    });
    return { items, total };
  }

  // ---- group links ----------------------------------------------------------------------

  async function toLinks(rows: LinkRow[]) {
    const groupIds = [...new Set(rows.map((l) => l.group_id))];
    const creatorIds = [...new Set(rows.flatMap((l) => (l.created_by_id ? [l.created_by_id] : [])))];
    const [groups, creators] = await Promise.all([
      groupIds.length ? db.selectFrom('kisi_emu_groups').select(['id', 'name']).where('id', 'in', groupIds).execute() : [],
      creatorIds.length ? db.selectFrom('kisi_emu_users').select(['id', 'name', 'email']).where('id', 'in', creatorIds).execute() : [],
    ]);
    const groupNames = new Map(groups.map((g) => [g.id, g.name]));
    const creatorById = new Map(creators.map((u) => [u.id, { id: u.id, resource_type: 'User' as const, email: u.email, name: u.name }]));
    return rows.map((l) => {
      const creator = l.created_by_id ? creatorById.get(l.created_by_id) : undefined;
      return {
        id: l.id,
        resource_type: 'GroupLink' as const,
        name: l.name,
        email: l.email,
        phone: l.phone,
        last_used_at: l.last_used_at,
        link_enabled: bool(l.link_enabled),
        quick_response_code_type: l.quick_response_code_type,
        valid_from: l.valid_from,
        valid_until: l.valid_until,
        created_at: l.created_at,
        updated_at: l.updated_at,
        group_id: l.group_id,
        group: { id: l.group_id, resource_type: 'Group' as const, name: groupNames.get(l.group_id) ?? '' },
        created_by_type: l.created_by_id ? ('User' as const) : null,
        created_by_id: l.created_by_id,
        ...(creator ? { created_by: creator } : {}),
        issued_by_id: l.created_by_id,
        ...(creator ? { issued_by: creator } : {}),
      };
    });
  }

  async function listGroupLinks(params: ListParams) {
    const { q } = params;
    const query = db
      .selectFrom('kisi_emu_group_links as l')
      .innerJoin('kisi_emu_groups as g', 'g.id', 'l.group_id')
      .selectAll('l')
      .where((eb) => {
        const c = [];
        const idList = ids(q.ids);
        if (idList) c.push(eb('l.id', 'in', idList.length ? idList : [0]));
        if (q.group_id !== undefined) c.push(eb('l.group_id', '=', intParam(q.group_id) ?? 0));
        if (q.query) {
          const p = pattern(q.query);
          c.push(eb.or([eb('l.name', 'like', p), eb('l.email', 'like', p), eb('l.phone', 'like', p), eb('g.name', 'like', p)]));
        }
        return eb.and(c);
      });
    const key = q.sort?.replace(/^-/, '');
    const dir = q.sort?.startsWith('-') ? 'desc' : 'asc';
    const column = key === 'name' ? 'l.name' : key === 'unlock' ? 'l.last_used_at' : key === 'valid_until' ? 'l.valid_until' : key === 'group_name' ? 'g.name' : undefined;
    const { rows, total } = await page(query as never, params, ((qb: SelectQueryBuilder<DB, 'kisi_emu_group_links', LinkRow>) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- aliased columns
      column ? (qb as any).orderBy(column, dir).orderBy('l.id') : (qb as any).orderBy('l.id')) as never);
    return { items: await toLinks(rows as LinkRow[]), total };
  }

  async function createGroupLink(input: {
    group_id: number;
    name: string;
    email: string | null;
    phone: string | null;
    quick_response_code_type: 'online' | 'offline' | null;
    link_enabled: boolean;
    valid_from: string | null;
    valid_until: string | null;
    created_by_id: number | null;
  }) {
    const now = kisiNow();
    const secret = crypto.randomBytes(16).toString('hex');
    const row = await db
      .insertInto('kisi_emu_group_links')
      .values({ ...input, link_enabled: input.link_enabled ? 1 : 0, last_used_at: null, secret, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    const [link] = await toLinks([row as LinkRow]);
    return {
      ...link!,
      secret,
      quick_response_code_token: input.quick_response_code_type ? crypto.createHash('sha256').update(`qr:${secret}`).digest('hex').slice(0, 32) : null,
      quick_response_code_image: null,
    };
  }

  async function deleteGroupLink(id: number): Promise<boolean> {
    const result = await db.deleteFrom('kisi_emu_group_links').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // ---- events -----------------------------------------------------------------------------

  type RecordedEvent = { uuid: string; type: string; created_at: string };
  /** Records events in the given order (oldest first), a few hundred per statement. */
  async function recordEvents(events: RecordedEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 200) {
      const rows = events.slice(i, i + 200).map((event) => ({ uuid: event.uuid, type: event.type, payload: JSON.stringify(event), created_at: event.created_at }));
      await db.insertInto('kisi_emu_events').values(rows).execute();
    }
  }
  const recordEvent = (event: RecordedEvent) => recordEvents([event]);

  return {
    listUsers,
    listMembers,
    getUser,
    userRow,
    findUserByEmail,
    updateUser,
    listGroups,
    getGroup,
    createGroup,
    deleteGroup,
    placeExists,
    groupExists,
    listLocks,
    lockRow,
    userCanOpen,
    firstOpenableLock,
    touchUserAccess,
    listRoleAssignments,
    listGroupLinks,
    createGroupLink,
    deleteGroupLink,
    recordEvent,
    recordEvents,
  };
}
export type EmulatorStore = ReturnType<typeof emulatorStore>;
