import type { AuditEntry } from '../../contracts/audit.contract';
import type { Page } from '../../contracts/common.contract';
import type { Conversation } from '../../contracts/conversations.contract';
import type { GymMember } from '../../contracts/gym.contract';
import type { KisiEvent } from '../../contracts/webhook.contract';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { untilAsync } from '../../test-support/until';
import { countEvents } from '../../db/kisi-event-choices';

/**
 * Deleting a member (issue 50): their door access is switched off in Kisi, and with `erase=true`
 * their name and email go from door events, unlocks, conversations and the audit trail, which keep
 * their rows as anonymous counts; the trail records the erasure by its counts, never the person.
 */
let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let admin: Awaited<ReturnType<TestContext['loginAs']>>;
let ownerId: number;
beforeAll(async () => {
  ctx = await createTestContext({}, { doorSync: { pollMs: 50, probeMs: 100 } }, { emulator: true, kisiLink: true });
  staff = await ctx.loginAs('staff', 'desk.erasure@frontdesk.test');
  admin = await ctx.loginAs('admin', 'boss.erasure@frontdesk.test');
  ownerId = ((await staff.post('/api/gym/owners').send({ name: 'Erasure Owner', email: 'erasure-owner@gyms.test', gymName: 'Erasure Gym' }).expect(201)).body as { id: number }).id;
});
afterEach(async () => {
  await Promise.all(ctx.jobs.map((job) => job.stop()));
  await ctx.kisiLink!.restore();
});
afterAll(() => ctx.close());

const kisiAccessOf = async (email: string) => (await ctx.kisiDirect!.client.findUserByEmail(email))!.accessEnabled;
const addMember = async (name: string, email: string) => {
  const added = (await staff.post('/api/gym/users').send({ name, email, ownerId, membership: 'active' }).expect(201)).body as GymMember;
  expect(await kisiAccessOf(email)).toBe(true);
  return added;
};

let uuid = 0;
/** A door event as the webhook stores it: the person's Kisi user, name and email, and the raw body that names them too. */
async function doorEvent(person: { name: string; email: string | null; kisiUserId: number }, at = new Date().toISOString()) {
  const body = { uuid: `erasure-${++uuid}`, action: 'unlock', actor_type: 'User', actor_id: person.kisiUserId, actor_name: person.name, actor_email: person.email, object_type: 'Lock', object_id: 7, object_name: 'Front door' };
  const row = { uuid: body.uuid, type: 'lock.unlock', actor_type: 'User', actor_id: person.kisiUserId, actor_name: person.name, actor_email: person.email, object_type: 'Lock', object_id: 7, object_name: 'Front door', success: 1, created_at: at, received_at: at, payload: JSON.stringify(body) };
  await ctx.database.db.insertInto('kisi_events').values(row).execute();
  // Counted into the inbox's people and choices as the webhook's store counts it (migration 031).
  await countEvents(ctx.database.db, [row], 1);
}

/** A guest's help request with their email, a staff reply and a guest reply. */
async function conversationOf(person: { name: string; email: string }) {
  const started = (await staff.post('/api/conversations').send({ name: person.name, email: person.email, body: `Hi, I am ${person.name}, my card does not open the door` }).expect(201)).body as { id: number; token: string };
  await staff.post(`/api/conversations/${started.id}/messages`).send({ body: 'We are on it.' }).expect(201);
  return started.id;
}

const everything = async (agent: typeof admin, path: string, query: Record<string, string> = {}) => ((await agent.get(path).query({ pageSize: 100, ...query }).expect(200)).body as Page<unknown>).items;

describe('deleting a member', () => {
  it('with erase: door events, unlocks, conversations and the trail keep their rows without the person, the trail says it happened, and their door is switched off', async () => {
    const person = { name: 'Daniel Kim', email: 'daniel.kim@mail.example' };
    const other = { name: 'Esther Adeyemi', email: 'esther.adeyemi@mail.example' };
    const member = await addMember(person.name, person.email);
    await staff.patch(`/api/gym/users/${member.id}`).send({ membership: 'paused' }).expect(200);
    await staff.patch(`/api/gym/users/${member.id}`).send({ membership: 'active' }).expect(200);
    const kisiUserId = (await ctx.kisiDirect!.client.findUserByEmail(person.email))!.id;
    for (let i = 0; i < 3; i++) await doorEvent({ ...person, kisiUserId });
    // One stored before Kisi told us whose it was (a webhook at the rate limit): the same Kisi user, no email yet.
    await doorEvent({ name: person.name, email: null, kisiUserId });
    await doorEvent({ ...other, kisiUserId: 999_001 });
    const conversationId = await conversationOf(person);
    const unlocks = () => everything(staff, '/api/webhooks/unlocks', { email: person.email });
    expect(await unlocks()).toHaveLength(3);

    await staff.delete(`/api/gym/users/${member.id}`).query({ erase: 'true' }).expect(204);

    // Door events: all there, nobody named; the other person's untouched.
    const events = (await everything(staff, '/api/webhook')) as KisiEvent[];
    expect(events).toHaveLength(5);
    expect(events.filter((e) => e.actorName === 'Erased person')).toHaveLength(4);
    expect(events.filter((e) => e.actorName === 'Erased person').every((e) => e.actorEmail === null && e.actorId === null)).toBe(true);
    expect(events.find((e) => e.actorEmail === other.email)).toMatchObject({ actorName: other.name });
    expect(await everything(staff, '/api/webhook', { person: 'Daniel' })).toEqual([]);
    expect(await everything(staff, '/api/webhook', { person: 'Erased person' })).toHaveLength(4);
    // Nor does the inbox's table of people (its person filter) keep them.
    expect(await ctx.database.db.selectFrom('kisi_event_people').select('name').where((eb) => eb.or([eb('name', '=', person.name), eb('email', '=', person.email)])).execute()).toEqual([]);
    expect(await unlocks()).toEqual([]);
    const raw = await ctx.database.db.selectFrom('kisi_events').select('payload').execute();
    expect(raw.filter((r) => r.payload.includes('daniel') || r.payload.includes('Daniel'))).toEqual([]);

    // The conversation: still counted, with the staff reply; the guest's name, email and words gone.
    const conversation = (await staff.get(`/api/conversations/${conversationId}`).expect(200)).body as Conversation;
    expect(conversation).toMatchObject({ guestName: 'Erased person', email: null });
    expect(conversation.messages.map((m) => m.body)).toEqual(['(erased)', 'We are on it.']);
    expect(JSON.stringify(conversation)).not.toMatch(/daniel/i);

    // The trail: what happened to "member #id", by whom; nowhere the person's name or email.
    const trail = (await everything(admin, '/api/audit')) as AuditEntry[];
    expect(JSON.stringify(trail)).not.toMatch(/daniel/i);
    const about = trail.filter((e) => e.subjectId === String(member.id) && (e.kind === 'member' || e.kind === 'door_access'));
    expect(about.map((e) => e.subject)).toEqual(about.map(() => `member #${member.id}`));
    expect(about.map((e) => `${e.kind} ${e.action}`)).toEqual(expect.arrayContaining(['member created', 'member paused', 'member reactivated', 'member deleted', 'member erased personal data']));
    expect(trail.find((e) => e.action === 'erased personal data')).toMatchObject({
      actor: { email: 'desk.erasure@frontdesk.test' },
      changes: expect.arrayContaining([
        { field: 'doorEvents', before: null, after: 4 },
        { field: 'conversations', before: null, after: 1 },
        { field: 'guestMessages', before: null, after: 1 },
      ]),
    });
    expect(trail.find((e) => e.action === 'deleted' && e.subjectId === String(member.id))!.changes).toEqual(
      expect.arrayContaining([{ field: 'membership', before: 'active', after: null }]),
    );

    // Their door: switched off in Kisi while Kisi answered, within the delete.
    expect(await kisiAccessOf(person.email)).toBe(false);
    const switchedOff = trail.find((e) => e.kind === 'door_access' && e.action === 'switched off' && e.subjectId === String(member.id));
    expect(switchedOff?.subject).toBe(`member #${member.id}`);
  });

  it('without erase: the history keeps who it was, and their door is switched off all the same', async () => {
    const person = { name: 'Felix Wagner', email: 'felix.wagner@mail.example' };
    const member = await addMember(person.name, person.email);
    const kisiUserId = (await ctx.kisiDirect!.client.findUserByEmail(person.email))!.id;
    await doorEvent({ ...person, kisiUserId });
    const conversationId = await conversationOf(person);

    await staff.delete(`/api/gym/users/${member.id}`).expect(204);

    expect(((await everything(staff, '/api/webhook', { person: 'Felix' })) as KisiEvent[]).map((e) => e.actorEmail)).toEqual([person.email]);
    expect(((await staff.get(`/api/conversations/${conversationId}`).expect(200)).body as Conversation).guestName).toBe(person.name);
    const trail = (await everything(admin, '/api/audit', { person: 'desk.erasure' })) as AuditEntry[];
    expect(trail.find((e) => e.action === 'deleted' && e.subjectId === String(member.id))?.subject).toBe(`${person.name} <${person.email}>`);
    expect(trail.find((e) => e.action === 'erased personal data' && e.subjectId === String(member.id))).toBeUndefined();
    expect(await kisiAccessOf(person.email)).toBe(false);
  });

  it('while Kisi is away: the switch-off is owed after the member is gone, and sent once Kisi is back', async () => {
    const person = { name: 'Gabriela Souza', email: 'gabriela.souza@mail.example' };
    const member = await addMember(person.name, person.email);
    await ctx.kisiLink!.cut();
    await staff.delete(`/api/gym/users/${member.id}`).query({ erase: 'true' }).expect(204);
    await staff.get(`/api/gym/users/${member.id}`).expect(404);
    expect((await staff.get('/api/gym/door-sync').expect(200)).body).toMatchObject({ waiting: 1 });

    ctx.jobs.find((job) => job.name === 'door access sender')!.start();
    await ctx.kisiLink!.restore();
    await untilAsync(async () => !(await kisiAccessOf(person.email)), 'switched off in Kisi');
    await untilAsync(async () => ((await staff.get('/api/gym/door-sync').expect(200)).body as { waiting: number }).waiting === 0, 'nothing owed');
    // The row kept the email only until Kisi had the switch.
    expect(await ctx.database.db.selectFrom('door_access_outbox').select('email').where('email', '=', person.email).execute()).toEqual([]);
  });

  it('a switch-off owed for a deleted member is dropped when the email is a member again: their own membership decides', async () => {
    const person = { name: 'Hassan Ali', email: 'hassan.ali@mail.example' };
    const first = await addMember(person.name, person.email);
    await ctx.kisiLink!.cut();
    await staff.delete(`/api/gym/users/${first.id}`).expect(204);
    await ctx.kisiLink!.restore();
    // Back before the sender got to it (it runs only when started here).
    const again = await addMember(person.name, person.email);
    ctx.jobs.find((job) => job.name === 'door access sender')!.start();
    await untilAsync(async () => ((await staff.get('/api/gym/door-sync').expect(200)).body as { waiting: number }).waiting === 0, 'nothing owed');
    expect(await kisiAccessOf(person.email)).toBe(true);
    expect(((await staff.get(`/api/gym/users/${again.id}`).expect(200)).body as GymMember).accessSync).toMatchObject({ state: 'synced', confirmedEnabled: true });
  });

  it('refuses an erase that is not true or false, and deletes nothing', async () => {
    const member = await addMember('Irene Novak', 'irene.novak@mail.example');
    const res = await staff.delete(`/api/gym/users/${member.id}`).query({ erase: 'yes please' }).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    await staff.get(`/api/gym/users/${member.id}`).expect(200);
  });
});
