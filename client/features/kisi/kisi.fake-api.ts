import type { KisiGroup, KisiGroupLink, KisiLock, KisiMember, KisiRoleAssignment, KisiUser } from '@contracts/kisi.contract';
import { kisiLink, problem } from '@/test-utils';
import type { FakeHandler, FakeReply } from '@/test-utils';

/**
 * Test support: the BFF's Kisi proxy as Kisi answers it (bare arrays with X-Collection-Range,
 * limit/offset, `query`, 204 on PATCH/DELETE, `{error, code}`, 422 `{errors}`), in memory, for
 * route tests to drive through the real screens. `down` makes every call a 502 problem, as the
 * proxy answers when Kisi is unreachable; `failPatch` refuses access switches.
 */
const AT = '2025-03-01T09:30:00Z';

export function kisiUser(id: number, overrides: Partial<KisiUser> = {}): KisiUser {
  return {
    id,
    resource_type: 'User',
    name: `User ${id}`,
    email: `user${id}@kisi.example`,
    image: null,
    access_enabled: true,
    scim_access_enabled: true,
    password_flow_enabled: false,
    otp_required_for_login: false,
    last_accessed_at: null,
    notes: null,
    metadata: {},
    created_at: AT,
    updated_at: AT,
    ...overrides,
  };
}

export function kisiGroup(id: number, overrides: Partial<KisiGroup> = {}): KisiGroup {
  return { id, resource_type: 'Group', name: `Group ${id}`, description: null, users_count: 0, locks_count: 0, place_id: null, created_at: AT, ...overrides };
}

export function kisiLock(id: number, overrides: Partial<KisiLock> = {}): KisiLock {
  return { id, resource_type: 'Lock', name: `Door ${id}`, description: null, online: true, locked_down: false, unlocked: false, place_id: 1, place: { id: 1, name: 'Main Building' }, ...overrides };
}

export function kisiRole(id: number, userId: number, overrides: Partial<KisiRoleAssignment> = {}): KisiRoleAssignment {
  return {
    id,
    resource_type: 'RoleAssignment',
    role_id: 'group_basic',
    applies_to_type: 'Group',
    applies_to_id: 1,
    applies_to: { id: 1, resource_type: 'Group', name: 'Gym Members' },
    assignee_type: 'User',
    assignee_id: userId,
    valid_from: null,
    valid_until: null,
    created_at: AT,
    ...overrides,
  };
}

export type FakeKisi = {
  users: KisiUser[];
  roles: KisiRoleAssignment[];
  groups: KisiGroup[];
  links: KisiGroupLink[];
  locks: KisiLock[];
  down: boolean;
  failPatch: boolean;
  handler: FakeHandler;
};

const outage = (): FakeReply => problem(502, 'Bad Gateway', 'Kisi could not be reached. Try again in a moment.');

function collection<T>(items: T[], url: URL, defaultLimit: number): FakeReply {
  const limit = Number(url.searchParams.get('limit') ?? defaultLimit);
  const offset = Number(url.searchParams.get('offset') ?? '0');
  return { json: items.slice(offset, offset + limit), headers: { 'X-Collection-Range': items.length ? `${offset}-${offset + limit - 1}/${items.length}` : `*/0` } };
}

const matches = (query: string, ...texts: (string | null)[]) => !query || texts.some((t) => t?.toLowerCase().includes(query.toLowerCase()));

export function fakeKisi(init: Partial<Pick<FakeKisi, 'users' | 'roles' | 'groups' | 'links' | 'locks'>> = {}): FakeKisi {
  // Copies: a test's writes must not leak into the next test's fixtures.
  const kisi: FakeKisi = { users: [], roles: [], groups: [], links: [], locks: [], ...structuredClone(init), down: false, failPatch: false, handler: () => undefined };
  let nextId = 1000;

  kisi.handler = ({ method, url, body }) => {
    const path = url.pathname;
    if (!path.startsWith('/api/kisi/')) return undefined;
    if (kisi.down) return outage();
    const query = url.searchParams.get('query') ?? '';
    const id = Number(/\/(\d+)(\/unlock)?$/.exec(path)?.[1]);

    if (path === '/api/kisi/users' && method === 'GET') return collection(kisi.users.filter((u) => matches(query, u.name, u.email)), url, 50);
    if (path === '/api/kisi/members' && method === 'GET') {
      const members: KisiMember[] = kisi.users.map((u) => ({
        id: u.id + 500,
        resource_type: 'Member',
        name: u.name,
        access_enabled: u.access_enabled,
        scim_access_enabled: u.scim_access_enabled,
        last_accessed_at: u.last_accessed_at,
        role_id: 'basic',
        user_id: u.id,
        user: { id: u.id, email: u.email, name: u.name },
        created_at: u.created_at,
      }));
      return collection(members, url, 50);
    }
    if (/^\/api\/kisi\/users\/\d+$/.test(path)) {
      const user = kisi.users.find((u) => u.id === id);
      if (!user) return { status: 404, json: { error: 'User not found.', code: '000404' } };
      if (method === 'GET') return { json: user };
      if (method === 'PATCH') {
        if (kisi.failPatch) return { status: 503, json: { error: 'Kisi is temporarily unavailable.', code: '000503' } };
        const input = (body as { user: { access_enabled?: boolean } }).user;
        if (input.access_enabled !== undefined) user.access_enabled = input.access_enabled;
        return { status: 204 };
      }
    }
    if (path === '/api/kisi/role_assignments' && method === 'GET') {
      const userId = Number(url.searchParams.get('user_id'));
      return collection(kisi.roles.filter((r) => r.assignee_id === userId), url, 10);
    }

    if (path === '/api/kisi/groups' && method === 'GET') return collection(kisi.groups, url, 10);
    if (path === '/api/kisi/groups' && method === 'POST') {
      const input = (body as { group: { name: string; description?: string | null } }).group;
      if (!input.name.trim()) return { status: 422, json: { errors: { name: ["can't be blank"] } } };
      const group = kisiGroup(nextId++, { name: input.name.trim(), description: input.description ?? null });
      kisi.groups.push(group);
      return { json: group };
    }
    if (/^\/api\/kisi\/groups\/\d+$/.test(path) && method === 'DELETE') {
      if (!kisi.groups.some((g) => g.id === id)) return { status: 404, json: { error: 'Group not found.', code: '000404' } };
      kisi.groups = kisi.groups.filter((g) => g.id !== id);
      return { status: 204 };
    }

    if (path === '/api/kisi/group_links' && method === 'GET') return collection(kisi.links.filter((l) => matches(query, l.name, l.email)), url, 10);
    if (path === '/api/kisi/group_links' && method === 'POST') {
      const input = (body as { group_link: { name: string; email?: string | null } }).group_link;
      const errors: Record<string, string[]> = {};
      if (!input.name.trim()) errors.name = ["can't be blank"];
      if (input.email && !input.email.includes('@')) errors.email = ['is invalid'];
      if (Object.keys(errors).length) return { status: 422, json: { errors } };
      const link = kisiLink(nextId++, { name: input.name, email: input.email ?? null });
      kisi.links.push(link);
      return { json: { ...link, secret: 'c0ffee-secret-42', quick_response_code_token: 'qr-token-7', quick_response_code_image: null } };
    }
    if (/^\/api\/kisi\/group_links\/\d+$/.test(path) && method === 'DELETE') {
      kisi.links = kisi.links.filter((l) => l.id !== id);
      return { status: 204 };
    }

    if (path === '/api/kisi/locks' && method === 'GET') return collection(kisi.locks, url, 50);
    if (/^\/api\/kisi\/locks\/\d+\/unlock$/.test(path) && method === 'POST') {
      const lock = kisi.locks.find((l) => l.id === id);
      if (!lock) return { status: 404, json: { error: 'The door could not be found.', code: 'fad10e' } };
      if (lock.locked_down) return { status: 409, json: { error: 'The door is currently locked down.', code: 'fad001' } };
      if (!lock.online) return { status: 503, json: { error: 'The door is offline.', code: 'fad107' } };
      return { json: { message: 'Unlocked!' } };
    }
    return undefined;
  };
  return kisi;
}
