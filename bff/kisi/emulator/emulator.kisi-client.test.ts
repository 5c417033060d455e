import Kisi, { type KisiError, type KisiPage } from 'kisi-client';
import { INTEGRATION_USER } from './emulator.seed';
import { createTestContext, type TestContext } from '../../test-support/test-app';

/**
 * The emulator driven by Kisi's own JavaScript client (kisi-client 8): what a Kisi integration
 * written against the real API would see, operation by operation. The client camelizes every key
 * it receives and decamelizes every key it sends, and turns a list into `{ pagination, data }`.
 */
let ctx: TestContext;
let kisi: Kisi;

type User = { id: number; name: string; email: string; accessEnabled: boolean; notes: string | null; metadata: Record<string, unknown>; groupsCount: number };
type Group = { id: number; name: string; placeId: number | null; place?: { name: string }; usersCount: number; locksCount: number };
type Member = { id: number; userId: number; user: { email: string } };
type RoleAssignment = { roleId: string; appliesToType: string; appliesToId: number; userId: number; validFrom?: string | null };
type GroupLink = { id: number; name: string; email: string | null; groupId: number; secret?: string; quickResponseCodeToken?: string | null; createdBy?: { email: string } };
type Lock = { id: number; name: string; placeId: number; lockedDown: boolean; online: boolean; favorite?: boolean };
type Place = { id: number; name: string; locksCount: number; organization: { domain: string } };
type KisiEvent = { uuid: string; type: string; actorEmail: string | null; actorName: string; objectName: string; success: boolean; errorCode: string | null; errorMessage: string | null; createdAt: string };

/** The KisiError the client throws, for matching its fields. */
async function failure(call: Promise<unknown>): Promise<Pick<KisiError, 'status' | 'code' | 'reason'>> {
  try {
    await call;
  } catch (err) {
    const { status, code, reason } = err as KisiError;
    return { status, code, reason };
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  kisi = new Kisi({ baseURL: ctx.kisi!.settings.baseUrl });
  kisi.setLoginSecret(ctx.kisi!.settings.apiKey);
});
afterAll(() => ctx.close());

const lockNamed = async (name: string) => (await kisi.get<KisiPage<Lock>>('locks', { query: name })).data[0]!;

describe('Kisi’s JavaScript client against the emulator', () => {
  it('refuses a wrong login secret with the client’s 401 error', async () => {
    const stranger = new Kisi({ baseURL: ctx.kisi!.settings.baseUrl });
    stranger.setLoginSecret('not-the-key');
    expect(await failure(stranger.get('users'))).toEqual({ status: 401, code: '000401', reason: 'Your login is invalid or has expired. Please sign in again.' });
  });

  it('users: lists a page with its pagination, searches, and fetches one', async () => {
    const page = await kisi.get<KisiPage<User>>('users', { limit: 5, offset: 10 });
    expect(page.pagination).toEqual({ offset: 10, limit: 5, count: 40 });
    expect(page.data).toHaveLength(5);
    const found = await kisi.get<KisiPage<User>>('users', { query: 'carmen' });
    expect(found.data.map((u) => u.email)).toEqual(['carmen.ruiz@mail.example']);
    const one = await kisi.get<User>(`users/${found.data[0]!.id}`);
    expect(one).toMatchObject({ name: 'Carmen Ruiz', accessEnabled: true, groupsCount: 1 });
  });

  it('users: an update by PUT answers nothing and really changes access — the door stays shut', async () => {
    const api = (await kisi.get<KisiPage<User>>('users', { email: INTEGRATION_USER.email })).data[0]!;
    const entrance = await lockNamed('Main Entrance');
    expect(await kisi.put(`users/${api.id}`, { user: { accessEnabled: false, notes: 'Paused by the test' } })).toBe('');
    expect(await kisi.get<User>(`users/${api.id}`)).toMatchObject({ accessEnabled: false, notes: 'Paused by the test' });
    expect(await failure(kisi.post(`locks/${entrance.id}/unlock`))).toEqual({ status: 404, code: 'fcd8ff', reason: 'Access disabled.' });

    await kisi.put(`users/${api.id}`, { user: { accessEnabled: true } });
    expect(await kisi.post(`locks/${entrance.id}/unlock`)).toEqual({ message: 'Unlocked!' });
  });

  it('users: an unknown user is the client’s 404, and a bad update its 422 with the field errors as the reason', async () => {
    expect(await failure(kisi.get('users/424242'))).toMatchObject({ status: 404, code: '000404' });
    expect(await failure(kisi.put('users/2', { user: { accessEnabled: 'yes' } }))).toEqual({ status: 422, code: '000000', reason: { access_enabled: ['must be true or false'] } });
  });

  it('users: metadata keys go through the client’s case conversion both ways', async () => {
    const { id } = (await kisi.get<KisiPage<User>>('users', { query: 'daniel.kim' })).data[0]!;
    await kisi.put(`users/${id}`, { user: { metadata: { lockerNumber: 12 } } });
    const raw = (await fetch(`${ctx.kisi!.settings.baseUrl}/users/${id}`, { headers: { Authorization: `KISI-LOGIN ${ctx.kisi!.settings.apiKey}` } }).then((r) => r.json())) as { metadata: object };
    expect(raw.metadata).toEqual({ locker_number: 12 });
    expect((await kisi.get<User>(`users/${id}`)).metadata).toEqual({ lockerNumber: 12 });
  });

  it('groups: a created group is in the list and can be fetched; once deleted it is gone', async () => {
    const before = await kisi.get<KisiPage<Group>>('groups');
    expect(before.pagination).toEqual({ offset: 0, limit: 10, count: 5 });
    const [place] = (await kisi.get<KisiPage<Place>>('places', { query: 'food' })).data;
    const created = await kisi.post<Group>('groups', { group: { name: 'Early Birds', placeId: place!.id, loginEnabled: true } });
    expect(created).toMatchObject({ name: 'Early Birds', placeId: place!.id, place: { name: 'Harbourside Food Court' }, usersCount: 0 });
    const listed = await kisi.get<KisiPage<Group>>('groups', { query: 'early', limit: 250 });
    expect(listed.data.map((g) => g.id)).toEqual([created.id]);
    expect((await kisi.get<Group>(`groups/${created.id}`)).name).toBe('Early Birds');

    expect(await kisi.delete(`groups/${created.id}`)).toBe('');
    expect((await kisi.get<KisiPage<Group>>('groups')).pagination.count).toBe(5);
    expect(await failure(kisi.get(`groups/${created.id}`))).toMatchObject({ status: 404, code: '000404' });
    expect(await failure(kisi.post('groups', { group: { name: '' } }))).toMatchObject({ status: 422, reason: { name: ["can't be blank"] } });
  });

  it('members and role assignments: who holds which group, filtered by the client’s camelCase params', async () => {
    const gym = (await kisi.get<KisiPage<Group>>('groups', { query: 'Gym Members' })).data[0]!;
    const members = await kisi.get<KisiPage<Member>>('members', { groupId: gym.id, limit: 100 });
    expect(members.pagination.count).toBe(gym.usersCount);
    const someone = members.data[0]!;
    const roles = await kisi.get<KisiPage<RoleAssignment>>('role_assignments', { userId: someone.userId });
    expect(roles.data).toContainEqual(expect.objectContaining({ appliesToType: 'Group', appliesToId: gym.id, userId: someone.userId, roleId: expect.stringMatching(/^group_/) as string }));
    const byAssignee = await kisi.get<KisiPage<RoleAssignment>>('role_assignments', { assigneeType: 'User', assigneeId: someone.userId });
    expect(byAssignee.data).toEqual(roles.data);
  });

  it('group links: a created link carries its secret, shows in a search, and is gone once deleted', async () => {
    const groupId = ctx.kisi!.settings.groupId;
    const link = await kisi.post<GroupLink>('group_links', { groupLink: { name: 'Visitor Jane', email: 'jane@mail.example', groupId, quickResponseCodeType: 'online' } });
    expect(link).toMatchObject({ name: 'Visitor Jane', groupId, createdBy: { email: INTEGRATION_USER.email } });
    expect(link.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(link.quickResponseCodeToken).toMatch(/^[0-9a-f]{32}$/);
    const found = await kisi.get<KisiPage<GroupLink>>('group_links', { query: 'visitor jane' });
    expect(found.data.map((l) => l.id)).toEqual([link.id]);
    expect(found.data[0]).not.toHaveProperty('secret');

    expect(await kisi.delete(`group_links/${link.id}`)).toBe('');
    expect((await kisi.get<KisiPage<GroupLink>>('group_links', { query: 'visitor jane' })).pagination.count).toBe(0);
    expect(await failure(kisi.delete(`group_links/${link.id}`))).toMatchObject({ status: 404, code: '000404' });
    expect(await failure(kisi.post('group_links', { groupLink: { name: 'Nobody', groupId, email: 'not-an-email' } }))).toMatchObject({ status: 422, reason: { email: ['is invalid'] } });
  });

  it('locks and places: the doors with their state, the two places, and unlock answers per door', async () => {
    const locks = await kisi.get<KisiPage<Lock>>('locks', { favorite: '*' });
    expect(locks.pagination.count).toBe(8);
    expect(locks.data.every((l) => l.favorite === false)).toBe(true);
    const places = await kisi.get<KisiPage<Place>>('places', { sort: '-name' });
    expect(places.data.map((p) => [p.name, p.locksCount])).toEqual([
      ['Harbourside Main Building', 6],
      ['Harbourside Food Court', 2],
    ]);
    expect(places.data[0]!.organization.domain).toBe('harbourside');

    expect(await kisi.post(`locks/${(await lockNamed('Gym Floor')).id}/unlock`)).toEqual({ message: 'Unlocked!' });
    expect(await failure(kisi.post(`locks/${(await lockNamed('Server Room')).id}/unlock`))).toEqual({ status: 409, code: 'fad001', reason: 'The door is currently locked down.' });
    expect(await failure(kisi.post(`locks/${(await lockNamed('Cold Store')).id}/unlock`))).toEqual({ status: 503, code: 'fad107', reason: 'The wireless lock is offline.' });
    expect(await failure(kisi.post('locks/9999/unlock'))).toMatchObject({ status: 404, code: 'fad10e' });
  });

  it('events: the unlocks just made, newest first, filtered the way a catching-up client asks', async () => {
    const events = await kisi.get<KisiPage<KisiEvent>>('events', { type: 'lock.unlock', limit: 4 });
    expect(events.pagination).toMatchObject({ offset: 0, limit: 4 });
    expect(events.data.map((e) => [e.objectName, e.success, e.errorCode])).toEqual([
      ['Cold Store', false, 'fad107'],
      ['Server Room', false, 'fad001'],
      ['Gym Floor', true, null],
      ['Main Entrance', true, null],
    ]);
    expect(events.data[0]).toMatchObject({ actorName: INTEGRATION_USER.name, actorEmail: INTEGRATION_USER.email, errorMessage: 'The wireless lock is offline.' });

    const refusals = await kisi.get<KisiPage<KisiEvent>>('events', { success: false });
    expect(refusals.data.map((e) => e.errorMessage)).toEqual(['The wireless lock is offline.', 'The door is currently locked down.', 'Access disabled.']);
    const oldest = events.data.at(-1)!;
    const since = await kisi.get<KisiPage<KisiEvent>>('events', { since: oldest.createdAt });
    expect(since.data.map((e) => e.uuid)).toEqual(expect.arrayContaining(events.data.map((e) => e.uuid)));
    expect(await failure(kisi.get('events', { since: 'last tuesday' }))).toMatchObject({ status: 400, code: '000400' });
  });

  it('an empty list is still a page: no data, a count of 0', async () => {
    expect(await kisi.get<KisiPage<User>>('users', { query: 'no-such-person' })).toEqual({ pagination: { offset: 0, limit: 50, count: 0 }, data: [] });
  });
});
