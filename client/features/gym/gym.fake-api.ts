import type { GymMember, GymOwner, Membership } from '@contracts/gym.contract';
import { problem } from '@/test-utils';
import type { FakeHandler, FakeReply } from '@/test-utils';

/**
 * Test support: an in-memory gym API behaving like `bff/features/gym` (paging, search, filters,
 * 400 field errors, 409s, door-access sync), for route tests to drive through the real screens.
 */
const AT = '2025-03-01T09:30:00.000Z';

export type FakeGym = {
  owners: GymOwner[];
  members: GymMember[];
  /** Kisi users by email; access switches fail while `kisiDown` is set. */
  kisi: Map<string, { id: number; name: string; email: string; accessEnabled: boolean }>;
  kisiDown: boolean;
  handler: FakeHandler;
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
    accessSync: { state: 'not_needed', wantEnabled: true, error: null, at: null },
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

const page = <T>(items: T[], url: URL) => {
  const p = Number(url.searchParams.get('page') ?? '0');
  const size = Number(url.searchParams.get('pageSize') ?? '10');
  return { json: { items: items.slice(p * size, p * size + size), page: p, pageSize: size, total: items.length } };
};

const fieldProblem = (errors: { path: string; message: string }[], detail = 'The request is not valid.'): FakeReply => ({
  status: 400,
  contentType: 'application/problem+json',
  json: { type: 'about:blank', title: 'Bad Request', status: 400, detail, errors },
});

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function fakeGym(init: { owners?: GymOwner[]; members?: GymMember[] } = {}): FakeGym {
  const gym: FakeGym = { owners: init.owners ?? [], members: init.members ?? [], kisi: new Map(), kisiDown: false, handler: () => undefined };
  const counted = (o: GymOwner): GymOwner => ({ ...o, memberCount: gym.members.filter((m) => m.ownerId === o.id).length });
  const nextId = (items: { id: number }[]) => Math.max(0, ...items.map((i) => i.id)) + 1;

  const sync = (m: GymMember): GymMember => {
    const want = m.membership === 'active';
    const user = gym.kisi.get(m.email);
    let accessSync: GymMember['accessSync'];
    if (!user) accessSync = { state: 'no_kisi_user', wantEnabled: want, error: null, at: AT };
    else if (gym.kisiDown) accessSync = { state: 'failed', wantEnabled: want, error: `Could not switch door access ${want ? 'on' : 'off'}: Kisi answered 503`, at: AT };
    else {
      user.accessEnabled = want;
      accessSync = { state: 'synced', wantEnabled: want, error: null, at: AT };
    }
    Object.assign(m, { accessSync });
    return m;
  };

  gym.handler = ({ method, url, body }) => {
    const path = url.pathname;
    if (!path.startsWith('/api/gym/')) return undefined;
    const query = (url.searchParams.get('query') ?? '').toLowerCase();

    if (path === '/api/gym/owners' && method === 'GET') {
      const items = gym.owners.filter((o) => !query || `${o.name} ${o.email} ${o.gymName}`.toLowerCase().includes(query)).map(counted);
      return page(items, url);
    }
    if (path === '/api/gym/owners' && method === 'POST') {
      const b = body as { name: string; email: string; phone: string | null; gymName: string };
      if (!EMAIL.test(b.email)) return fieldProblem([{ path: 'body.email', message: 'Expected an email address like name@example.com' }]);
      if (gym.owners.some((o) => o.email === b.email)) return problem(409, 'Conflict', `A gym owner with email ${b.email} already exists.`);
      const created = owner(nextId(gym.owners), { ...b });
      gym.owners.push(created);
      return { status: 201, json: counted(created) };
    }
    const ownerMatch = /^\/api\/gym\/owners\/(\d+)$/.exec(path);
    if (ownerMatch) {
      const found = gym.owners.find((o) => o.id === Number(ownerMatch[1]));
      if (!found) return problem(404, 'Not Found', `No gym owner with id ${ownerMatch[1]}.`);
      if (method === 'GET') return { json: counted(found) };
      if (method === 'DELETE') {
        const count = counted(found).memberCount;
        if (count > 0) return problem(409, 'Conflict', `${found.name} still has ${count} member${count === 1 ? '' : 's'}. Move or delete them first.`);
        gym.owners = gym.owners.filter((o) => o !== found);
        return { status: 204 };
      }
    }

    if (path === '/api/gym/users' && method === 'GET') {
      const ownerId = url.searchParams.get('ownerId');
      const membership = url.searchParams.get('membership');
      const items = gym.members.filter(
        (m) =>
          (!query || `${m.name} ${m.email}`.toLowerCase().includes(query)) &&
          (!ownerId || m.ownerId === Number(ownerId)) &&
          (!membership || m.membership === membership),
      );
      return page(items, url);
    }
    if (path === '/api/gym/users' && method === 'POST') {
      const b = body as { email: string; name: string; ownerId: number; membership?: Membership };
      const o = gym.owners.find((x) => x.id === b.ownerId);
      if (!o) return fieldProblem([{ path: 'body.ownerId', message: `No gym owner with id ${b.ownerId}` }], 'The owner does not exist.');
      if (gym.members.some((m) => m.email === b.email)) return problem(409, 'Conflict', `A gym member with email ${b.email} already exists.`);
      const created = member(nextId(gym.members), o, { email: b.email, name: b.name, membership: b.membership ?? 'active' });
      gym.members.push(created);
      return { status: 201, json: sync(created) };
    }
    const memberMatch = /^\/api\/gym\/users\/(\d+)(\/access(\/sync)?)?$/.exec(path);
    if (memberMatch) {
      const found = gym.members.find((m) => m.id === Number(memberMatch[1]));
      if (!found) return problem(404, 'Not Found', `No gym member with id ${memberMatch[1]}.`);
      if (memberMatch[3] && method === 'POST') return { json: sync(found) };
      if (memberMatch[2] && method === 'GET') {
        const user = gym.kisi.get(found.email);
        return { json: { kisiUser: user ? { ...user } : null, accessSync: found.accessSync } };
      }
      if (memberMatch[2]) return undefined;
      if (method === 'GET') return { json: found };
      if (method === 'PATCH') {
        const b = body as { name?: string; ownerId?: number; membership?: Membership };
        const before = found.membership;
        if (b.ownerId !== undefined) {
          const o = gym.owners.find((x) => x.id === b.ownerId);
          if (!o) return fieldProblem([{ path: 'body.ownerId', message: `No gym owner with id ${b.ownerId}` }], 'The owner does not exist.');
          Object.assign(found, { ownerId: o.id, ownerName: o.name, gymName: o.gymName });
        }
        if (b.name !== undefined) found.name = b.name;
        if (b.membership !== undefined) found.membership = b.membership;
        found.accessSync = { ...found.accessSync, wantEnabled: found.membership === 'active' };
        return { json: b.membership !== undefined && b.membership !== before ? sync(found) : found };
      }
      if (method === 'DELETE') {
        gym.members = gym.members.filter((m) => m !== found);
        return { status: 204 };
      }
    }
    return undefined;
  };
  return gym;
}
