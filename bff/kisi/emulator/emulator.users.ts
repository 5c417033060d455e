import { Router, type RequestHandler } from 'express';
import { sql, type ExpressionBuilder, type SelectQueryBuilder, type Updateable } from 'kysely';
import type { EmulatorDb } from './emulator.database';
import { containsText } from '../../db/engine';
import type { EmulatorTables, KisiEmuUsersTable } from './emulator.schema';
import {
  bool,
  ids,
  intParam,
  isObject,
  kisiError,
  kisiNow,
  LIMITS,
  listParams,
  ORGANIZATION,
  pagedQuery,
  pathId,
  recordMissing,
  sendCollection,
  validationErrors,
  withMe,
  type ListParams,
  type Paged,
  type Row,
} from './emulator.shared';

/** Users and the deprecated members view of them: one `kisi_emu_users` row is both. */

type UserRow = Row<KisiEmuUsersTable>;

export function usersStore(db: EmulatorDb) {
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
  const userFilters = (q: ListParams['q'], byMemberIds: boolean) => (eb: ExpressionBuilder<EmulatorTables, 'kisi_emu_users'>) => {
    const conditions = [];
    const idList = ids(q.ids);
    if (idList) conditions.push(eb(byMemberIds ? 'kisi_emu_users.member_id' : 'kisi_emu_users.id', 'in', idList.length ? idList : [0]));
    if (q.email) conditions.push(eb(eb.fn('lower', ['kisi_emu_users.email']), '=', q.email.toLowerCase()));
    if (q.query) conditions.push(containsText(['kisi_emu_users.name', 'kisi_emu_users.email', 'kisi_emu_users.notes'], q.query));
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

  const userOrder = (sort: string | undefined) => <O>(qb: SelectQueryBuilder<EmulatorTables, keyof EmulatorTables, O>) => {
    const dir = sort?.startsWith('-') ? 'desc' : 'asc';
    const key = sort?.replace(/^-/, '');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column names checked by the switch
    const q = qb as SelectQueryBuilder<EmulatorTables, any, O>;
    if (key === 'unlock') return q.orderBy(sql`kisi_emu_users.last_accessed_at is not null`, dir).orderBy('kisi_emu_users.last_accessed_at', dir).orderBy('kisi_emu_users.id');
    if (key === 'access_enabled') return q.orderBy('kisi_emu_users.access_enabled', dir).orderBy('kisi_emu_users.name').orderBy('kisi_emu_users.id');
    if (key === 'name') return q.orderBy('kisi_emu_users.name', dir).orderBy('kisi_emu_users.id');
    return q.orderBy('kisi_emu_users.id');
  };

  async function listUsers(params: ListParams): Promise<Paged<KisiUser>> {
    const query = db.selectFrom('kisi_emu_users').selectAll().where(userFilters(params.q, false));
    const { rows, total } = await pagedQuery(query as never, params, userOrder(params.q.sort) as never);
    const users = rows as UserRow[];
    const counts = await groupsCount(users.map((u) => u.id));
    return { items: users.map((u) => toUser(u, counts.get(u.id) ?? 0)), total };
  }

  async function listMembers(params: ListParams) {
    const query = db.selectFrom('kisi_emu_users').selectAll().where(userFilters(params.q, true));
    const { rows, total } = await pagedQuery(query as never, params, userOrder(params.q.sort) as never);
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

  /** PATCH or PUT /users/{id}: only Kisi's writable fields; `scim_access_enabled` is read-only and ignored. */
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

  const touchUserAccess = (userId: number, at: string) => db.updateTable('kisi_emu_users').set({ last_accessed_at: at }).where('id', '=', userId).execute();

  return { listUsers, listMembers, getUser, userRow, findUserByEmail, updateUser, touchUserAccess };
}
export type UsersStore = ReturnType<typeof usersStore>;

/** `apiUserId`: the user the key belongs to, whom `user_id=me` picks. */
export function usersRoutes(store: UsersStore, apiUserId: () => Promise<number | null>) {
  const router = Router();

  router.get('/users', async (req, res) => {
    const params = await withMe(listParams(req, LIMITS.users), apiUserId);
    sendCollection(res, params, await store.listUsers(params));
  });

  router.get('/users/:id', async (req, res) => {
    const id = pathId(req);
    const user = id === undefined ? undefined : await store.getUser(id);
    if (!user) return void recordMissing(res, 'User');
    res.status(200).json(user);
  });

  // Kisi takes PUT as well as PATCH for an update (its own JS client sends PUT), with the same partial semantics.
  const updateUser: RequestHandler = async (req, res) => {
    const id = pathId(req);
    const body: unknown = req.body;
    if (!isObject(body) || !isObject(body.user)) return void kisiError(res, 400, 'param is missing or the value is empty: user', '000400');
    const input = body.user;
    const errors: Record<string, string[]> = {};
    const patch: Parameters<UsersStore['updateUser']>[1] = {};
    for (const key of ['access_enabled', 'password_flow_enabled'] as const) {
      if (input[key] === undefined) continue;
      if (typeof input[key] === 'boolean') patch[key] = input[key];
      else errors[key] = ['must be true or false'];
    }
    if (input.name !== undefined) {
      if (typeof input.name === 'string' && input.name.trim()) patch.name = input.name.trim();
      else errors.name = ["can't be blank"];
    }
    for (const key of ['notes', 'image'] as const) {
      if (input[key] === undefined) continue;
      if (input[key] === null || typeof input[key] === 'string') patch[key] = input[key] as string | null;
      else errors[key] = ['is invalid'];
    }
    if (input.metadata !== undefined) {
      if (isObject(input.metadata) && Object.values(input.metadata).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) patch.metadata = input.metadata;
      else errors.metadata = ['is invalid'];
    }
    // scim_access_enabled is read-only in Kisi: accepted in the body, silently ignored.
    if (id === undefined || !(await store.userRow(id))) return void recordMissing(res, 'User');
    if (Object.keys(errors).length) return void validationErrors(res, errors);
    await store.updateUser(id, patch);
    res.status(204).end();
  };
  router.patch('/users/:id', updateUser);
  router.put('/users/:id', updateUser);

  router.get('/members', async (req, res) => {
    const params = await withMe(listParams(req, LIMITS.members), apiUserId);
    res.setHeader('Deprecation', '@1704067200');
    sendCollection(res, params, await store.listMembers(params));
  });

  return router;
}
