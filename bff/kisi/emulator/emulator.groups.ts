import { Router } from 'express';
import type { SelectQueryBuilder } from 'kysely';
import type { EmulatorDb } from './emulator.database';
import type { EmulatorTables, KisiEmuGroupsTable } from './emulator.schema';
import { placeRows, type LocksStore } from './emulator.locks';
import {
  bool,
  deleteById,
  idsAndNameFilters,
  intParam,
  isObject,
  kisiNow,
  LIMITS,
  listParams,
  pagedQuery,
  pathId,
  recordMissing,
  sendCollection,
  storableId,
  validationErrors,
  type ListParams,
  type Row,
} from './emulator.shared';

/** Groups: who may open which doors is a role on a group plus the group's locks. */

type GroupRow = Row<KisiEmuGroupsTable>;

export function groupsStore(db: EmulatorDb) {
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
    const [stats, places] = await Promise.all([groupStats(groupIds), placeRows(db, [...new Set(rows.flatMap((g) => (g.place_id ? [g.place_id] : [])))])]);
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
        const c = idsAndNameFilters(q);
        if (q.scope === 'organization') c.push(eb('place_id', 'is', null));
        if (q.scope === 'place') c.push(eb('place_id', 'is not', null));
        if (q.place_id !== undefined) c.push(eb('place_id', '=', intParam(q.place_id) ?? 0));
        if (q.lock_id !== undefined) c.push(eb('id', 'in', eb.selectFrom('kisi_emu_group_locks').select('group_id').where('lock_id', '=', intParam(q.lock_id) ?? 0)));
        return eb.and(c);
      });
    const dir = q.sort === '-name' ? 'desc' : 'asc';
    const { rows, total } = await pagedQuery(query as never, params, ((qb: SelectQueryBuilder<EmulatorTables, 'kisi_emu_groups', GroupRow>) =>
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

  const groupExists = async (id: number) => !!(await db.selectFrom('kisi_emu_groups').select('id').where('id', '=', id).executeTakeFirst());

  return { listGroups, getGroup, createGroup, deleteGroup, groupExists };
}
export type GroupsStore = ReturnType<typeof groupsStore>;

const GROUP_FLAGS = [
  'login_enabled',
  'geofence_restriction_enabled',
  'primary_device_restriction_enabled',
  'managed_device_restriction_enabled',
  'reader_restriction_enabled',
  'time_restriction_enabled',
  'tap_to_access_restriction_enabled',
];

export function groupsRoutes(store: GroupsStore & Pick<LocksStore, 'placeExists'>) {
  const router = Router();

  router.get('/groups', async (req, res) => {
    const params = listParams(req, LIMITS.groups);
    sendCollection(res, params, await store.listGroups(params));
  });

  router.get('/groups/:id', async (req, res) => {
    const id = pathId(req);
    const group = id === undefined ? undefined : await store.getGroup(id);
    if (!group) return void recordMissing(res, 'Group');
    res.status(200).json(group);
  });

  router.post('/groups', async (req, res) => {
    const body: unknown = req.body;
    const input = isObject(body) && isObject(body.group) ? body.group : {};
    const errors: Record<string, string[]> = {};
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name) errors.name = ["can't be blank"];
    else if (name.length > 255) errors.name = ['is too long (maximum is 255 characters)'];
    if (input.description !== undefined && input.description !== null && typeof input.description !== 'string') errors.description = ['is invalid'];
    let placeId: number | null = null;
    if (input.place_id !== undefined && input.place_id !== null) {
      if (typeof input.place_id === 'number' && storableId(input.place_id) && (await store.placeExists(input.place_id))) placeId = input.place_id;
      else errors.place = ['must exist'];
    }
    const flags: Record<string, boolean | undefined> = {};
    for (const key of GROUP_FLAGS) {
      if (input[key] === undefined) continue;
      if (typeof input[key] === 'boolean') flags[key] = input[key];
      else errors[key] = ['must be true or false'];
    }
    if (Object.keys(errors).length) return void validationErrors(res, errors);
    const group = await store.createGroup({ name, description: (input.description as string | null | undefined) ?? null, place_id: placeId, flags });
    res.status(200).json(group);
  });

  deleteById(router, '/groups', 'Group', store.deleteGroup);

  return router;
}
