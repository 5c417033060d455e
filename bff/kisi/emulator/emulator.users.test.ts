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
