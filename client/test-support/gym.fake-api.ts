import type { RequestHandler } from 'msw';
import { ATTENDANCE_WEEKS, doorStateOf, gymApi, memberAccessStateOf, type GymMember, type GymMemberRow, type GymOwner, type MemberAttendance } from '@contracts/gym.contract';
import type { Page } from '@contracts/common.contract';
import { fieldProblem, handle, problem } from './test-server';

/**
 * Test support: an in-memory gym API behaving like `bff/features/gym` (paging, search, filters,
 * 400 field errors, 409s, door-access sync), as msw handlers for route tests to drive through the
 * real screens. Input is already checked by the contracts' schemas (`handle`).
 */
const AT = '2025-03-01T09:30:00.000Z';
/** When the fake server tries an owed door switch again. */
export const NEXT_TRY_AT = '2025-03-01T09:30:10.000Z';

export type FakeGym = {
  owners: GymOwner[];
  members: GymMember[];
  /** Kisi users by email; access switches fail while `kisiDown` is set. */
  kisi: Map<string, { id: number; name: string; email: string; accessEnabled: boolean }>;
  kisiDown: boolean;
  /** Last visits (newest successful unlock) by email; absent: never came. */
  visits: Map<string, string>;
  /** What `GET /api/gym/visits/count` answers. */
  visitsToday: number;
  /** Days each member (by id) came in the last 4 weeks; absent: none. */
  recentVisitDays: Map<number, number>;
  /** Each member's attendance (by id); absent: no visits in the 12 weeks before `ATTENDANCE_TODAY`. */
  attendance: Map<number, MemberAttendance>;
  handlers: RequestHandler[];
};

export function owner(id: number, overrides: Partial<GymOwner> = {}): GymOwner {
  return { id, name: `Owner ${id}`, email: `owner${id}@gyms.example`, phone: null, gymName: `Gym ${id}`, memberCount: 0, createdAt: AT, ...overrides };
}

export function member(id: number, o: GymOwner, overrides: Partial<GymMember> = {}): GymMember {
  return {
    id,
    email: `member${id}@members.example`,
    name: `Member ${id}`,
    ownerId: o.id,
    ownerName: o.name,
    gymName: o.gymName,
    membership: 'active',
    pausedUntil: null,
    accessSync: { state: 'not_needed', wantEnabled: true, error: null, at: null, confirmedEnabled: null, confirmedAt: null, waiting: null },
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

/** The venue's today of the fake's attendance (a Wednesday), and a member's attendance with these days per week (oldest first). */
export const ATTENDANCE_TODAY = '2025-03-05';
export function attendanceOf(weekDays: number[], overrides: Partial<MemberAttendance> = {}): MemberAttendance {
  const firstMonday = Date.parse('2025-03-03T00:00:00Z') - 7 * (ATTENDANCE_WEEKS - 1) * 86_400_000;
  const weeks = Array.from({ length: ATTENDANCE_WEEKS }, (_, i) => ({ start: new Date(firstMonday + 7 * i * 86_400_000).toISOString().slice(0, 10), days: weekDays[i] ?? 0 }));
  return { timeZone: 'Europe/Lisbon', today: ATTENDANCE_TODAY, cameToday: false, thisWeek: weeks.at(-1)!.days, lastVisitAt: null, weeks, ...overrides };
}

const pageOf = <T>(items: T[], { page, pageSize }: { page: number; pageSize: number }): Page<T> => ({
  items: items.slice(page * pageSize, page * pageSize + pageSize),
  page,
  pageSize,
  total: items.length,
});

const noOwner = (id: number) => fieldProblem([{ path: 'body.ownerId', message: `No gym owner with id ${id}` }], 'The owner does not exist.');

export function fakeGym(init: { owners?: GymOwner[]; members?: GymMember[] } = {}): FakeGym {
  const gym: FakeGym = { owners: init.owners ?? [], members: init.members ?? [], kisi: new Map(), kisiDown: false, visits: new Map(), visitsToday: 0, recentVisitDays: new Map(), attendance: new Map(), handlers: [] };
  const counted = (o: GymOwner): GymOwner => ({ ...o, memberCount: gym.members.filter((m) => m.ownerId === o.id).length });
  const nextId = (items: { id: number }[]) => Math.max(0, ...items.map((i) => i.id)) + 1;
  const findOwner = (id: number) => gym.owners.find((o) => o.id === id);
  const findMember = (id: number) => gym.members.find((m) => m.id === id);
  const noMember = (id: number) => problem(404, 'Not Found', `No gym member with id ${id}.`);

  const sync = (m: GymMember): GymMember => {
    const want = m.membership === 'active';
    const user = gym.kisi.get(m.email);
    let accessSync: GymMember['accessSync'];
    const known = { confirmedEnabled: m.accessSync.confirmedEnabled, confirmedAt: m.accessSync.confirmedAt, waiting: null };
    if (!user) accessSync = { state: 'no_kisi_user', wantEnabled: want, error: null, at: AT, ...known };
    else if (gym.kisiDown) {
      // As the server: the switch stays owed to Kisi and is tried again by itself.
      const error = `Could not switch door access ${want ? 'on' : 'off'}: Kisi is unreachable`;
      accessSync = { state: 'pending', wantEnabled: want, error, at: AT, ...known, waiting: { attempts: (m.accessSync.waiting?.attempts ?? 0) + 1, nextTryAt: NEXT_TRY_AT, lastError: error } };
    }
    else {
      user.accessEnabled = want;
      accessSync = { state: 'synced', wantEnabled: want, error: null, at: AT, confirmedEnabled: want, confirmedAt: AT, waiting: null };
    }
    Object.assign(m, { accessSync });
    return m;
  };

  gym.handlers = [
    handle(gymApi.listOwners, ({ query }) => {
      const q = (query.query ?? '').toLowerCase();
      return pageOf(gym.owners.filter((o) => !q || `${o.name} ${o.email} ${o.gymName}`.toLowerCase().includes(q)).map(counted), query);
    }),
    handle(gymApi.createOwner, ({ body }) => {
      if (gym.owners.some((o) => o.email === body.email)) return problem(409, 'Conflict', `A gym owner with email ${body.email} already exists.`);
      const created = owner(nextId(gym.owners), body);
      gym.owners.push(created);
      return counted(created);
    }),
    handle(gymApi.getOwner, ({ params }) => {
      const found = findOwner(params.id);
      return found ? counted(found) : problem(404, 'Not Found', `No gym owner with id ${params.id}.`);
    }),
    handle(gymApi.deleteOwner, ({ params }) => {
      const found = findOwner(params.id);
      if (!found) return problem(404, 'Not Found', `No gym owner with id ${params.id}.`);
      const count = counted(found).memberCount;
      if (count > 0) return problem(409, 'Conflict', `${found.name} still has ${count} member${count === 1 ? '' : 's'}. Move or delete them first.`);
      gym.owners = gym.owners.filter((o) => o !== found);
    }),

    handle(gymApi.listMembers, ({ query }) => {
      const q = (query.query ?? '').toLowerCase();
      const items = gym.members.filter(
        (m) => (!q || `${m.name} ${m.email}`.toLowerCase().includes(q)) && (!query.ownerId || m.ownerId === query.ownerId) && (!query.membership || m.membership === query.membership) && (!query.access || memberAccessStateOf(m.accessSync) === query.access),
      );
      const rows = items.map((m): GymMemberRow => ({ ...m, lastVisitAt: gym.visits.get(m.email) ?? null, recentVisitDays: gym.recentVisitDays.get(m.id) ?? 0, door: doorStateOf(m.membership, gym.kisi.get(m.email) ?? null) }));
      // As the BFF orders them: by name, or by last visit with those who never came last.
      // Names compare as the database does (code points, so "Member 10" before "Member 2").
      const byName = (a: GymMemberRow, b: GymMemberRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id);
      const byVisit = (direction: 1 | -1) => (a: GymMemberRow, b: GymMemberRow) =>
        !a.lastVisitAt || !b.lastVisitAt ? Number(!a.lastVisitAt) - Number(!b.lastVisitAt) || byName(a, b) : direction * a.lastVisitAt.localeCompare(b.lastVisitAt) || byName(a, b);
      rows.sort(query.sort === 'name' ? byName : byVisit(query.sort === 'last_visit' ? 1 : -1));
      return pageOf(rows, query);
    }),
    handle(gymApi.memberAttendance, ({ params }) => {
      const found = findMember(params.id);
      if (!found) return noMember(params.id);
      return gym.attendance.get(found.id) ?? attendanceOf([], { lastVisitAt: gym.visits.get(found.email) ?? null });
    }),
    handle(gymApi.countVisits, ({ query }) => ({ since: query.since, count: gym.visitsToday })),
    handle(gymApi.createMember, ({ body }) => {
      const o = findOwner(body.ownerId);
      if (!o) return noOwner(body.ownerId);
      if (gym.members.some((m) => m.email === body.email)) return problem(409, 'Conflict', `A gym member with email ${body.email} already exists.`);
      const created = member(nextId(gym.members), o, { email: body.email, name: body.name, membership: body.membership });
      gym.members.push(created);
      return sync(created);
    }),
    handle(gymApi.getMember, ({ params }) => findMember(params.id) ?? noMember(params.id)),
    handle(gymApi.updateMember, ({ params, body }) => {
      const found = findMember(params.id);
      if (!found) return noMember(params.id);
      const before = found.membership;
      if (body.ownerId !== undefined) {
        const o = findOwner(body.ownerId);
        if (!o) return noOwner(body.ownerId);
        Object.assign(found, { ownerId: o.id, ownerName: o.name, gymName: o.gymName });
      }
      if (body.name !== undefined) found.name = body.name;
      if (body.membership !== undefined) found.membership = body.membership;
      // As the server: a membership set by hand ends a pause's date unless the change brings one.
      if (body.pausedUntil !== undefined || body.membership !== undefined) found.pausedUntil = body.pausedUntil ?? null;
      found.accessSync = { ...found.accessSync, wantEnabled: found.membership === 'active' };
      return body.membership !== undefined && body.membership !== before ? sync(found) : found;
    }),
    handle(gymApi.deleteMember, ({ params }) => {
      if (!findMember(params.id)) return noMember(params.id);
      gym.members = gym.members.filter((m) => m.id !== params.id);
    }),
    handle(gymApi.doorSyncStatus, () => ({
      kisi: gym.kisiDown ? ('unreachable' as const) : ('reachable' as const),
      checkedAt: AT,
      waiting: gym.members.filter((m) => m.accessSync.state === 'pending').length,
      nextTryAt: gym.members.some((m) => m.accessSync.state === 'pending') ? NEXT_TRY_AT : null,
    })),
    handle(gymApi.doorAccess, ({ params }) => {
      const found = findMember(params.id);
      if (!found) return noMember(params.id);
      if (gym.kisiDown) return problem(502, 'Bad Gateway', 'Kisi could not be reached. Try again in a moment.');
      const user = gym.kisi.get(found.email);
      return { kisiUser: user ? { ...user } : null, accessSync: found.accessSync };
    }),
    handle(gymApi.syncDoorAccess, ({ params }) => {
      const found = findMember(params.id);
      return found ? sync(found) : noMember(params.id);
    }),
  ];
  return gym;
}
