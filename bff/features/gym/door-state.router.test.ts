import { doorStateOf, MEMBERSHIPS, type Membership, type MemberDoorAccess } from '../../contracts/gym.contract';
import { createTestContext, type TestContext } from '../../test-support/test-app';

/**
 * Issue 30: the member list and the member's door card agree with Kisi in every combination of
 * membership × Kisi account (access on, off, none), against the emulator as Kisi: the row says
 * what the card says, and both follow a switch made in Kisi by an admin after the list was read.
 */
let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let admin: Awaited<ReturnType<TestContext['loginAs']>>;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  staff = await ctx.loginAs('staff');
  admin = await ctx.loginAs('admin');
});
afterAll(() => ctx.close());

type KisiSide = 'enabled' | 'disabled' | 'no account';
const EXPECTED: Record<Membership, Record<KisiSide, string>> = {
  active: { enabled: 'Doors open for them', disabled: 'Doors closed: switched off in Kisi', 'no account': 'No door account' },
  paused: { enabled: 'Doors open, though the membership is not active', disabled: 'Doors closed: membership not active', 'no account': 'No door account' },
  cancelled: { enabled: 'Doors open, though the membership is not active', disabled: 'Doors closed: membership not active', 'no account': 'No door account' },
};
// People of the emulator's seeded organisation (each has a Kisi account with access on).
const KISI_PEOPLE = ['alice.moreau', 'bruno.costa', 'carmen.ruiz', 'daniel.kim', 'esther.adeyemi', 'felix.wagner'].map((p) => `${p}@mail.example`);

it('the list row and the door card say the same, for each membership × Kisi access on, off and no account', async () => {
  const owner = (await staff.post('/api/gym/owners').send({ name: 'Door Owner', email: 'door-owner@gyms.test', gymName: 'Door Gym' }).expect(201)).body as { id: number };
  const cases: Array<{ id: number; membership: Membership; kisi: KisiSide; kisiUserId?: number }> = [];
  let person = 0;
  for (const membership of MEMBERSHIPS) {
    for (const kisi of ['enabled', 'disabled', 'no account'] as const) {
      const email = kisi === 'no account' ? `nobody-${membership}@desk.test` : KISI_PEOPLE[person++]!;
      // Adding a member switches their Kisi access to match the membership.
      const { id } = (await staff.post('/api/gym/users').send({ name: `${membership} ${kisi}`, email, ownerId: owner.id, membership }).expect(201)).body as { id: number };
      const kisiUserId = kisi === 'no account' ? undefined : ((await admin.get(`/api/kisi/users?email=${encodeURIComponent(email)}`).expect(200)).body as Array<{ id: number }>)[0]!.id;
      cases.push({ id, membership, kisi, kisiUserId });
    }
  }
  // The list is read once (Kisi's users are now remembered), then an admin switches people in Kisi.
  await staff.get(`/api/gym/users?ownerId=${owner.id}&pageSize=100`).expect(200);
  for (const c of cases) {
    if (c.kisiUserId) await admin.patch(`/api/kisi/users/${c.kisiUserId}`).send({ user: { access_enabled: c.kisi === 'enabled' } }).expect(204);
  }

  const rows = (await staff.get(`/api/gym/users?ownerId=${owner.id}&pageSize=100`).expect(200)).body.items as Array<{ id: number; membership: Membership; door: { label: string } }>;
  for (const c of cases) {
    const row = rows.find((r) => r.id === c.id)!;
    const access = (await staff.get(`/api/gym/users/${c.id}/access`).expect(200)).body as MemberDoorAccess;
    const card = doorStateOf(c.membership, access.kisiUser);
    expect({ case: `${c.membership} × ${c.kisi}`, row: row.door.label, card: card.label }).toEqual({ case: `${c.membership} × ${c.kisi}`, row: EXPECTED[c.membership][c.kisi], card: EXPECTED[c.membership][c.kisi] });
    expect(row.door).toEqual(card);
  }
});

it('a look at Kisi from the member page is kept as what Kisi last confirmed, so the list’s door filter follows a switch made in Kisi', async () => {
  const owner = (await staff.post('/api/gym/owners').send({ name: 'Filter Owner', email: 'filter-owner@gyms.test', gymName: 'Filter Gym' }).expect(201)).body as { id: number };
  const email = 'gabriela.souza@mail.example';
  const { id } = (await staff.post('/api/gym/users').send({ name: 'Gabriela Souza', email, ownerId: owner.id, membership: 'active' }).expect(201)).body as { id: number };
  const listed = async (access: string) =>
    ((await staff.get(`/api/gym/users?ownerId=${owner.id}&access=${access}&pageSize=100`).expect(200)).body.items as Array<{ id: number }>).map((m) => m.id);
  expect(await listed('open')).toEqual([id]);

  // An admin switches them off in Kisi itself; the desk has not looked since.
  const kisiUserId = ((await admin.get(`/api/kisi/users?email=${encodeURIComponent(email)}`).expect(200)).body as Array<{ id: number }>)[0]!.id;
  await admin.patch(`/api/kisi/users/${kisiUserId}`).send({ user: { access_enabled: false } }).expect(204);
  expect(await listed('open')).toEqual([id]);

  // The member page (or "Check Kisi now") asks Kisi: what it says is now what Kisi last confirmed.
  const access = (await staff.get(`/api/gym/users/${id}/access`).expect(200)).body as MemberDoorAccess;
  expect(access.kisiUser?.accessEnabled).toBe(false);
  expect(access.accessSync.confirmedEnabled).toBe(false);
  expect(await listed('open')).toEqual([]);
  expect(await listed('closed')).toEqual([id]);

  // A switch recorded after the look was asked (here: stamped later than any look) is newer than what
  // the look brings back: the look leaves it as it is.
  await ctx.database.db.updateTable('gym_users').set({ access_sync_at: '2999-01-01T00:00:00.000Z' }).where('id', '=', id).execute();
  await admin.patch(`/api/kisi/users/${kisiUserId}`).send({ user: { access_enabled: true } }).expect(204);
  const later = (await staff.get(`/api/gym/users/${id}/access`).expect(200)).body as MemberDoorAccess;
  expect(later.kisiUser?.accessEnabled).toBe(true);
  expect(later.accessSync.confirmedEnabled).toBe(false);
  expect(await listed('closed')).toEqual([id]);
});
