import type { RequestHandler } from 'msw';
import type { Endpoint } from '@contracts/endpoint.contract';
import { kisiApi, type KisiGroup, type KisiGroupLink, type KisiLock, type KisiMember, type KisiRoleAssignment, type KisiUser } from '@contracts/kisi.contract';
import { kisiLink } from './test-utils';
import { handle, problem, refuse, reply, type Answer, type FakeInput } from './test-server';

/**
 * Test support: the BFF's Kisi proxy as Kisi answers it (bare arrays with X-Collection-Range,
 * limit/offset, `query`, 204 on PATCH/DELETE, `{error, code}`, 422 `{errors}`), in memory, for
 * route tests to drive through the real screens, as msw handlers. `down` makes every call a 502 problem, as the
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
  handlers: RequestHandler[];
};

/** Kisi's own error body, passed through by the proxy (`{error, code}`, or 422 `{errors}`). */
const kisiError = (status: number, error: string, code: string) => refuse(status, { error, code });
const invalid = (errors: Record<string, string[]>) => refuse(422, { errors });

/** A bare array paged by limit/offset, its range in `X-Collection-Range` as Kisi sends it. */
function collection<T>(items: T[], query: { limit?: number; offset?: number }, defaultLimit: number) {
  const limit = query.limit ?? defaultLimit;
  const offset = query.offset ?? 0;
  return reply(items.slice(offset, offset + limit), { headers: { 'X-Collection-Range': items.length ? `${offset}-${offset + limit - 1}/${items.length}` : `*/0` } });
}

const matches = (query: string | undefined, ...texts: (string | null)[]) => !query || texts.some((t) => t?.toLowerCase().includes(query.toLowerCase()));

export function fakeKisi(init: Partial<Pick<FakeKisi, 'users' | 'roles' | 'groups' | 'links' | 'locks'>> = {}): FakeKisi {
  // Copies: a test's writes must not leak into the next test's fixtures.
  const kisi: FakeKisi = { users: [], roles: [], groups: [], links: [], locks: [], ...structuredClone(init), down: false, failPatch: false, handlers: [] };
  let nextId = 1000;

  /** Every proxied call answers the proxy's 502 while `down` is set. */
  const proxied = <E extends Endpoint>(endpoint: E, fake: (input: FakeInput<E>) => Answer<E>) =>
    handle(endpoint, (input) => (kisi.down ? problem(502, 'Bad Gateway', 'Kisi could not be reached. Try again in a moment.') : fake(input)));

  kisi.handlers = [
    proxied(kisiApi.listUsers, ({ query }) => collection(kisi.users.filter((u) => matches(query.query, u.name, u.email)), query, 50)),
    proxied(kisiApi.listMembers, ({ query }) => {
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
      return collection(members, query, 50);
    }),
    proxied(kisiApi.getUser, ({ params }) => kisi.users.find((u) => u.id === params.id) ?? kisiError(404, 'User not found.', '000404')),
    proxied(kisiApi.updateUser, ({ params, body }) => {
      const user = kisi.users.find((u) => u.id === params.id);
      if (!user) return kisiError(404, 'User not found.', '000404');
      if (kisi.failPatch) return kisiError(503, 'Kisi is temporarily unavailable.', '000503');
      if (body.user.access_enabled !== undefined) user.access_enabled = body.user.access_enabled;
    }),
    proxied(kisiApi.listRoleAssignments, ({ query }) => collection(kisi.roles.filter((r) => r.assignee_id === query.user_id), query, 10)),

    proxied(kisiApi.listGroups, ({ query }) => collection(kisi.groups, query, 10)),
    proxied(kisiApi.createGroup, ({ body: { group: input } }) => {
      if (!input.name.trim()) return invalid({ name: ["can't be blank"] });
      const group = kisiGroup(nextId++, { name: input.name.trim(), description: input.description ?? null });
      kisi.groups.push(group);
      return group;
    }),
    proxied(kisiApi.deleteGroup, ({ params }) => {
      if (!kisi.groups.some((g) => g.id === params.id)) return kisiError(404, 'Group not found.', '000404');
      kisi.groups = kisi.groups.filter((g) => g.id !== params.id);
    }),

    proxied(kisiApi.listGroupLinks, ({ query }) => collection(kisi.links.filter((l) => matches(query.query, l.name, l.email)), query, 10)),
    proxied(kisiApi.createGroupLink, ({ body: { group_link: input } }) => {
      const errors: Record<string, string[]> = {};
      if (!input.name.trim()) errors.name = ["can't be blank"];
      if (input.email && !input.email.includes('@')) errors.email = ['is invalid'];
      if (Object.keys(errors).length) return invalid(errors);
      const link = kisiLink(nextId++, { name: input.name, email: input.email ?? null });
      kisi.links.push(link);
      return { ...link, secret: 'c0ffee-secret-42', quick_response_code_token: 'qr-token-7', quick_response_code_image: null };
    }),
    proxied(kisiApi.deleteGroupLink, ({ params }) => {
      kisi.links = kisi.links.filter((l) => l.id !== params.id);
    }),

    proxied(kisiApi.listLocks, ({ query }) => collection(kisi.locks, query, 50)),
    proxied(kisiApi.unlockLock, ({ params }) => {
      const lock = kisi.locks.find((l) => l.id === params.id);
      if (!lock) return kisiError(404, 'The door could not be found.', 'fad10e');
      if (lock.locked_down) return kisiError(409, 'The door is currently locked down.', 'fad001');
      if (!lock.online) return kisiError(503, 'The door is offline.', 'fad107');
      return { message: 'Unlocked!' } as const;
    }),
  ];
  return kisi;
}
