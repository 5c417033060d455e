import { Router } from 'express';
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { EmulatorDb } from './emulator.database';
import type { EmulatorTables, KisiEmuLocksTable, KisiEmuPlacesTable } from './emulator.schema';
import {
  bool,
  boolParam,
  idsAndNameFilters,
  intParam,
  kisiError,
  kisiNow,
  LIMITS,
  listParams,
  ORGANIZATION,
  pagedQuery,
  pathId,
  sendCollection,
  type ListParams,
  type Row,
} from './emulator.shared';

/** Places and their doors: the place and lock lists, who may open which door, and the remote unlock. */

type LockRow = Row<KisiEmuLocksTable>;
type PlaceRow = Row<KisiEmuPlacesTable>;
type PlaceSummary = { id: number; name: string; latitude: number | null; longitude: number | null };

/** The places other resources nest by reference (groups, locks, role assignments), by id. */
export async function placeRows(db: EmulatorDb, placeIds: number[]): Promise<Map<number, PlaceSummary>> {
  if (placeIds.length === 0) return new Map();
  const rows = await db.selectFrom('kisi_emu_places').select(['id', 'name', 'latitude', 'longitude']).where('id', 'in', placeIds).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export interface UnlockOutcome {
  status: 200 | 404 | 409 | 503;
  body: { message: 'Unlocked!' } | { error: string; code: string };
}

export function locksStore(db: EmulatorDb) {
  const placeExists = async (id: number) => !!(await db.selectFrom('kisi_emu_places').select('id').where('id', '=', id).executeTakeFirst());

  /** Places never lock down as a whole, have no integrations, images or capacity records here. */
  async function toPlaces(rows: PlaceRow[], withFavorite: boolean) {
    const placeIds = rows.map((p) => p.id);
    const locks = new Map<number, number>();
    const members = new Map<number, number>();
    if (placeIds.length) {
      const [lockCounts, memberCounts] = await Promise.all([
        db
          .selectFrom('kisi_emu_locks')
          .select(['place_id', (eb) => eb.fn.countAll<number>().as('n')])
          .where('place_id', 'in', placeIds)
          .groupBy('place_id')
          .execute(),
        // Members of a place: everyone with a role on it or on one of its groups.
        db
          .selectFrom('kisi_emu_role_assignments as ra')
          .leftJoin('kisi_emu_groups as g', (join) => join.onRef('g.id', '=', 'ra.applies_to_id').on('ra.applies_to_type', '=', 'Group'))
          .select((eb) => [eb.fn.coalesce('g.place_id', 'ra.applies_to_id').as('place_id'), eb.fn.count<number>('ra.user_id').distinct().as('n')])
          .where((eb) => eb.or([eb('ra.applies_to_type', '=', 'Place'), eb('g.place_id', 'is not', null)]))
          .where((eb) => eb(eb.fn.coalesce('g.place_id', 'ra.applies_to_id'), 'in', placeIds))
          .groupBy((eb) => eb.fn.coalesce('g.place_id', 'ra.applies_to_id'))
          .execute(),
      ]);
      for (const c of lockCounts) locks.set(c.place_id, Number(c.n));
      for (const c of memberCounts) members.set(Number(c.place_id), Number(c.n));
    }
    return rows.map((p) => ({
      id: p.id,
      resource_type: 'Place' as const,
      name: p.name,
      description: p.description,
      created_at: p.created_at,
      updated_at: p.updated_at,
      latitude: p.latitude,
      longitude: p.longitude,
      address: p.address,
      image: null,
      time_zone: p.time_zone,
      tz_time_zone: p.time_zone,
      locks_count: locks.get(p.id) ?? 0,
      integrations_count: 0,
      locked_down: false,
      locked_down_since: null,
      occupancy_rate: null,
      ...(withFavorite ? { favorite: false } : {}),
      organization_id: ORGANIZATION.id,
      organization: { ...ORGANIZATION },
      color: null,
      logo: null,
      user_id: null,
      members_count: members.get(p.id) ?? 0,
    }));
  }

  async function listPlaces(params: ListParams) {
    const { q } = params;
    if (q.favorite === 'true') return { items: [], total: 0 }; // nobody has favourites in the emulator
    const query = db
      .selectFrom('kisi_emu_places')
      .selectAll()
      .where((eb) => {
        return eb.and(idsAndNameFilters(q));
      });
    const dir = q.sort === '-name' ? 'desc' : 'asc';
    const { rows, total } = await pagedQuery(query as never, params, ((qb: SelectQueryBuilder<EmulatorTables, 'kisi_emu_places', PlaceRow>) =>
      q.sort === 'name' || q.sort === '-name' ? qb.orderBy('name', dir).orderBy('id') : qb.orderBy('id')) as never);
    return { items: await toPlaces(rows as PlaceRow[], q.favorite !== undefined), total };
  }

  async function toLocks(rows: LockRow[], withFavorite: boolean) {
    const places = await placeRows(db, [...new Set(rows.map((l) => l.place_id))]);
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
        const c = idsAndNameFilters(q);
        if (q.place_id !== undefined) c.push(eb('place_id', '=', intParam(q.place_id) ?? 0));
        const online = boolParam(q.online);
        if (online !== undefined) c.push(eb('online', '=', online ? 1 : 0));
        const lockedDown = boolParam(q.locked_down);
        if (lockedDown !== undefined) c.push(eb('locked_down', '=', lockedDown ? 1 : 0));
        if (boolParam(q.unlocked) === true) c.push(sql<SqlBool>`1 = 0`); // locks relock at once here
        return eb.and(c);
      });
    const dir = q.sort === '-name' ? 'desc' : 'asc';
    const { rows, total } = await pagedQuery(query as never, params, ((qb: SelectQueryBuilder<EmulatorTables, 'kisi_emu_locks', LockRow>) =>
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

  return { placeExists, listPlaces, listLocks, lockRow, userCanOpen, firstOpenableLock };
}
export type LocksStore = ReturnType<typeof locksStore>;

/** `unlock` is the remote unlock by the API user: it records the event and sends the webhook. */
export function locksRoutes(store: LocksStore, unlock: (lockId: number) => Promise<UnlockOutcome>) {
  const router = Router();

  router.get('/places', async (req, res) => {
    const params = listParams(req, LIMITS.places);
    sendCollection(res, params, await store.listPlaces(params));
  });

  router.get('/locks', async (req, res) => {
    const params = listParams(req, LIMITS.locks);
    sendCollection(res, params, await store.listLocks(params));
  });

  router.post('/locks/:id/unlock', async (req, res) => {
    const id = pathId(req);
    if (id === undefined) return void kisiError(res, 404, 'The door could not be found.', 'fad10e');
    const outcome = await unlock(id);
    res.status(outcome.status).json(outcome.body);
  });

  return router;
}
