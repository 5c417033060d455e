import { createTestContext, type TestContext } from '../../test-support/test-app';

/** Updating a user: Kisi takes PUT as well as PATCH, and both must leave the same user behind. */
let ctx: TestContext;
let kisi: (method: string, url: string, body?: unknown, auth?: boolean) => Promise<{ status: number; text: string; json: unknown }>;

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  const { baseUrl, apiKey } = ctx.kisi!.settings;
  kisi = async (method, url, body, auth = true) => {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: `KISI-LOGIN ${apiKey}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: text ? (JSON.parse(text) as unknown) : undefined };
  };
});
afterAll(() => ctx.close());

type User = { id: number; name: string; access_enabled: boolean; notes: string | null; metadata: object; scim_access_enabled: boolean };
const userByEmail = async (email: string) => ((await kisi('GET', `/users?email=${encodeURIComponent(email)}`)).json as User[])[0]!;

describe('PUT /users/{id}', () => {
  it('answers 204 with no body, and the change shows on the next GET', async () => {
    const before = await userByEmail('carmen.ruiz@mail.example');
    expect(before.access_enabled).toBe(true);
    const put = await kisi('PUT', `/users/${before.id}`, { user: { access_enabled: false, notes: 'Card lost', name: 'Carmen Ruiz-Vidal', metadata: { locker: 7 } } });
    expect(put).toMatchObject({ status: 204, text: '' });
    const after = (await kisi('GET', `/users/${before.id}`)).json as User;
    expect(after).toMatchObject({ access_enabled: false, notes: 'Card lost', name: 'Carmen Ruiz-Vidal', metadata: { locker: 7 } });
  });

  it('changes only the fields sent, like PATCH, and ignores the read-only scim_access_enabled', async () => {
    const before = await userByEmail('daniel.kim@mail.example');
    expect((await kisi('PUT', `/users/${before.id}`, { user: { notes: 'Prefers the side door', scim_access_enabled: !before.scim_access_enabled } })).status).toBe(204);
    const after = (await kisi('GET', `/users/${before.id}`)).json as User;
    expect(after).toEqual({ ...before, notes: 'Prefers the side door', updated_at: expect.any(String) as string });
  });

  it.each([
    ['a bad field', { user: { access_enabled: 'yes', name: ' ' } }, 422],
    ['no user key', { access_enabled: false }, 400],
  ])('answers %s exactly as PATCH does', async (_what, body, status) => {
    const { id } = await userByEmail('esther.adeyemi@mail.example');
    const put = await kisi('PUT', `/users/${id}`, body);
    const patch = await kisi('PATCH', `/users/${id}`, body);
    expect(put.status).toBe(status);
    expect(put).toEqual(patch);
  });

  it('answers 404 for an unknown or malformed id and 401 without the key', async () => {
    expect((await kisi('PUT', '/users/424242', { user: { access_enabled: true } })).status).toBe(404);
    expect((await kisi('PUT', '/users/abc', { user: { access_enabled: true } })).status).toBe(404);
    expect((await kisi('PUT', '/users/2', { user: { access_enabled: true } }, false)).status).toBe(401);
  });
});

/** Kisi's `user_id=me` (docs/kisi-api.md §4): the user the API key belongs to, as the BFF learns the integration's own user. */
describe('user_id=me', () => {
  it('picks the user the key belongs to in the users, members and role-assignment lists, as the Kisi client reads it', async () => {
    const integration = await userByEmail('frontdesk-api@harbourside.example');
    const users = await fetch(`${ctx.kisi!.settings.baseUrl}/users?user_id=me`, { headers: { Authorization: `KISI-LOGIN ${ctx.kisi!.settings.apiKey}` } });
    expect(users.headers.get('X-Collection-Range')).toBe('0-49/1');
    expect(((await users.json()) as User[]).map((u) => [u.id, u.name])).toEqual([[integration.id, 'Frontdesk Integration']]);
    const members = (await kisi('GET', '/members?user_id=me')).json as Array<{ user_id: number }>;
    expect(members.map((m) => m.user_id)).toEqual([integration.id]);
    const roles = (await kisi('GET', '/role_assignments?user_id=me')).json as Array<{ user_id: number }>;
    expect(roles.length).toBeGreaterThan(0);
    expect(roles.every((r) => r.user_id === integration.id)).toBe(true);
    // Another user's id and a malformed value are left as they are: that user, or no one.
    expect(((await kisi('GET', '/users?user_id=2')).json as User[]).map((u) => u.id)).toEqual([2]);
    expect((await kisi('GET', '/users?user_id=you')).json).toEqual([]);

    expect(await ctx.kisi!.client.currentUserId()).toBe(integration.id);
    expect(await ctx.kisi!.apiAccountId()).toBe(integration.id);
  });
});
