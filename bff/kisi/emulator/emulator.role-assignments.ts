import { Router } from 'express';
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { EmulatorDb } from './emulator.database';
import { containsText } from '../../db/engine';
import type { EmulatorTables } from './emulator.schema';
import { placeRows } from './emulator.locks';
import {
  bool,
  idsFilter,
  intParam,
  LIMITS,
  listParams,
  withMe,
  ORGANIZATION,
  pagedQuery,
  sendCollection,
  type ListParams,
} from './emulator.shared';

/** Role assignments: a user's role on the organisation, a place or a group (with its validity). */

export function roleAssignmentsStore(db: EmulatorDb) {
  async function listRoleAssignments(params: ListParams) {
    const { q } = params;
    const query = db
      .selectFrom('kisi_emu_role_assignments as ra')
      .innerJoin('kisi_emu_users as u', 'u.id', 'ra.user_id')
      .selectAll('ra')
      .select(['u.name as user_name', 'u.email as user_email'])
      .where((eb) => {
        const c = idsFilter(q, 'ra.id');
        if (q.query) c.push(containsText(['u.name', 'u.email'], q.query));
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
    const { rows, total } = await pagedQuery(query as never, params, ((qb: SelectQueryBuilder<EmulatorTables, 'kisi_emu_role_assignments', { id: number }>) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- aliased columns
      q.sort ? (qb as any).orderBy('u.name', dir).orderBy('ra.id') : (qb as any).orderBy('ra.id')) as never);
    type RaRow = EmulatorTables['kisi_emu_role_assignments'] & { id: number; user_name: string; user_email: string };
    const list = rows as unknown as RaRow[];
    const groupIds = list.filter((r) => r.applies_to_type === 'Group').map((r) => r.applies_to_id);
    const placeIds = list.filter((r) => r.applies_to_type === 'Place').map((r) => r.applies_to_id);
    const [groups, places] = await Promise.all([
      groupIds.length ? db.selectFrom('kisi_emu_groups').select(['id', 'name']).where('id', 'in', groupIds).execute() : [],
      placeRows(db, placeIds),
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

  return { listRoleAssignments };
}
export type RoleAssignmentsStore = ReturnType<typeof roleAssignmentsStore>;

export function roleAssignmentsRoutes(store: RoleAssignmentsStore, apiUserId: () => Promise<number | null>) {
  const router = Router();

  router.get('/role_assignments', async (req, res) => {
    const params = await withMe(listParams(req, LIMITS.role_assignments), apiUserId);
    sendCollection(res, params, await store.listRoleAssignments(params));
  });

  return router;
}
