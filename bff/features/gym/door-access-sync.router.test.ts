import type { DoorSyncStatus, GymMember } from '../../contracts/gym.contract';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { untilAsync } from '../../test-support/until';

/**
 * Issue 53: door access follows the membership until Kisi agrees. With the emulator behind a link
 * the test cuts: a pause and a cancel while Kisi is away are saved at once and owed to Kisi; the door
 * card answers a 502 problem (never a 500) and the member says what is known; once the link is back
 * the sender switches both off in Kisi with no click.
 */
let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let ownerId: number;
beforeAll(async () => {
  ctx = await createTestContext({}, { doorSync: { pollMs: 50, probeMs: 100 } }, { emulator: true, kisiLink: true });
  staff = await ctx.loginAs('staff');
  ownerId = ((await staff.post('/api/gym/owners').send({ name: 'Away Owner', email: 'away-owner@gyms.test', gymName: 'Away Gym' }).expect(201)).body as { id: number }).id;
});
afterEach(async () => {
  await Promise.all(ctx.jobs.map((job) => job.stop()));
  await ctx.kisiLink!.restore();
});
afterAll(() => ctx.close());

const sender = () => ctx.jobs.find((job) => job.name === 'door access sender')!;
/** Kisi's own record of a person, read past the link. */
const kisiAccessOf = async (email: string) => (await ctx.kisiDirect!.client.findUserByEmail(email))!.accessEnabled;
const member = async (id: number) => (await staff.get(`/api/gym/users/${id}`).expect(200)).body as GymMember;
const status = async () => (await staff.get('/api/gym/door-sync').expect(200)).body as DoorSyncStatus;
const addMember = async (email: string, name: string) => {
  const added = (await staff.post('/api/gym/users').send({ email, name, ownerId, membership: 'active' }).expect(201)).body as GymMember;
  expect(added.accessSync).toMatchObject({ state: 'synced', confirmedEnabled: true, waiting: null });
  return added;
};

it('a pause and a cancel while Kisi is away are owed to Kisi, shown as waiting, and sent once Kisi is back, with no click', async () => {
  const paused = await addMember('alice.moreau@mail.example', 'Alice Away');
  const cancelled = await addMember('bruno.costa@mail.example', 'Bruno Away');
  expect(await kisiAccessOf(paused.email)).toBe(true);

  await ctx.kisiLink!.cut();
  const pause = (await staff.patch(`/api/gym/users/${paused.id}`).send({ membership: 'paused' }).expect(200)).body as GymMember;
  const cancel = (await staff.patch(`/api/gym/users/${cancelled.id}`).send({ membership: 'cancelled' }).expect(200)).body as GymMember;
  for (const answer of [pause, cancel]) {
    expect(answer.accessSync).toMatchObject({ state: 'pending', wantEnabled: false, confirmedEnabled: true, waiting: expect.objectContaining({ nextTryAt: expect.any(String) }) });
  }
  // The first change tried Kisi at once and failed; the second was not held up by a Kisi known to be away.
  expect(pause.accessSync.waiting).toMatchObject({ attempts: 1, lastError: expect.stringContaining('Kisi is unreachable') });
  expect(cancel.accessSync.waiting).toMatchObject({ attempts: 0 });

  // The door card: a clear problem, never a 500; the member's own read still says what is known.
  const card = await staff.get(`/api/gym/users/${paused.id}/access`).expect(502);
  expect(card.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(card.body).toMatchObject({ status: 502, detail: expect.stringContaining('Kisi could not be reached') });
  expect((await member(paused.id)).accessSync).toMatchObject({ state: 'pending', confirmedEnabled: true, confirmedAt: paused.accessSync.confirmedAt });
  expect(await status()).toMatchObject({ kisi: 'unreachable', waiting: 2 });
  // Readiness is the database's, not Kisi's.
  await staff.get('/api/health/ready').expect(200);
  expect(await kisiAccessOf(paused.email)).toBe(true);

  // The sender runs while Kisi is away: nothing is lost, nothing is sent.
  sender().start();
  await ctx.kisiLink!.restore();
  const back = performance.now();
  await untilAsync(async () => !(await kisiAccessOf(paused.email)) && !(await kisiAccessOf(cancelled.email)), 'both switched off in Kisi');
  console.info(`door access followed ${Math.round(performance.now() - back)} ms after Kisi came back`);
  await untilAsync(async () => (await member(cancelled.id)).accessSync.state === 'synced' && (await member(paused.id)).accessSync.state === 'synced', 'both synced');
  expect((await member(paused.id)).accessSync).toMatchObject({ state: 'synced', confirmedEnabled: false, waiting: null, error: null });
  expect(await status()).toMatchObject({ kisi: 'reachable', waiting: 0, nextTryAt: null });
  await staff.get(`/api/gym/users/${paused.id}/access`).expect(200);
});

it('a later change supersedes one not sent yet: Kisi gets the last wish, once', async () => {
  const m = await addMember('carmen.ruiz@mail.example', 'Carmen Twice');
  await ctx.kisiLink!.cut();
  await staff.patch(`/api/gym/users/${m.id}`).send({ membership: 'paused' }).expect(200);
  const again = (await staff.patch(`/api/gym/users/${m.id}`).send({ membership: 'active' }).expect(200)).body as GymMember;
  expect(again.accessSync).toMatchObject({ state: 'pending', wantEnabled: true, waiting: expect.objectContaining({ attempts: 0 }) });
  expect((await status()).waiting).toBe(1);
  await ctx.kisiLink!.restore();
  // Try now (the member page's Retry): sent at once, without the job.
  const now = (await staff.post(`/api/gym/users/${m.id}/access/sync`).expect(200)).body as GymMember;
  expect(now.accessSync).toMatchObject({ state: 'synced', confirmedEnabled: true, waiting: null });
  expect(await kisiAccessOf(m.email)).toBe(true);
  expect((await status()).waiting).toBe(0);
});

it('"try now" while Kisi is still away keeps the switch owed, with its next try later', async () => {
  const m = await addMember('daniel.kim@mail.example', 'Daniel Retry');
  await ctx.kisiLink!.cut();
  await staff.patch(`/api/gym/users/${m.id}`).send({ membership: 'paused' }).expect(200);
  const tried = (await staff.post(`/api/gym/users/${m.id}/access/sync`).expect(200)).body as GymMember;
  expect(tried.accessSync.state).toBe('pending');
  expect(tried.accessSync.waiting!.attempts).toBeGreaterThanOrEqual(1);
  expect(Date.parse(tried.accessSync.waiting!.nextTryAt)).toBeGreaterThan(Date.now());
  await ctx.kisiLink!.restore();
  await staff.post(`/api/gym/users/${m.id}/access/sync`).expect(200);
  expect(await kisiAccessOf(m.email)).toBe(false);
});
