import type { AuditEntry } from '../../contracts/audit.contract';
import type { Page } from '../../contracts/common.contract';
import type { Conversation } from '../../contracts/conversations.contract';
import { createTestContext, type TestContext } from '../../test-support/test-app';

/**
 * Deleting an account with `erase=true` (issue 50): their name and email go from door events, their
 * messages (chat and replies to guests), their files and the trail's entries about them; what they
 * did to others' records keeps them as its actor; the trail records the erasure by its counts.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ MESSAGES_PER_MINUTE: '1000' });
});
afterAll(() => ctx.close());

type Agent = Awaited<ReturnType<TestContext['loginAs']>>;
const trailOf = async (admin: Agent) => ((await admin.get('/api/audit').query({ pageSize: 100 }).expect(200)).body as Page<AuditEntry>).items;
const idOf = async (agent: Agent) => ((await agent.get('/api/auth/getAuth').expect(200)).body as { user: { id: number } }).user.id;

/** A staff member with a history: a chat message, a reply to a guest, a stored file, a door event, sign-ins, a change to a member. */
async function staffWithHistory(email: string) {
  const agent = await ctx.loginAs('staff', email);
  const id = await idOf(agent);
  const channel = (await ctx.database.db.selectFrom('chat_channels').select('id').where('name_key', '=', 'front desk').executeTakeFirstOrThrow()).id;
  const chat = (await agent.post(`/api/chat/channels/${channel}/messages`).send({ body: 'Last shift, bye all' }).expect(201)).body as { id: number };
  const guest = (await agent.post('/api/conversations').send({ name: 'A guest', table: 4, body: 'Where is the lift?' }).expect(201)).body as { id: number };
  await agent.post(`/api/conversations/${guest.id}/messages`).send({ body: 'Behind the desk, on the left.' }).expect(201);
  const at = new Date().toISOString();
  await ctx.database.db.insertInto('uploads').values({ name: 'rota.txt', type: 'text/plain', size: 4, sha256: `rota-${id}`, account_id: id, uploaded_by: 'Test staff', created_at: at }).execute();
  await ctx.database.db
    .insertInto('kisi_events')
    .values({ uuid: `staff-door-${id}`, type: 'lock.unlock', actor_type: 'User', actor_id: 500 + id, actor_name: 'Test staff', actor_email: email, success: 1, created_at: at, received_at: at, payload: JSON.stringify({ actor_email: email }) })
    .execute();
  const owner = (await agent.post('/api/gym/owners').send({ name: 'Olga Owner', email: `olga.${id}@gyms.test`, gymName: 'Olga Gym' }).expect(201)).body as { id: number };
  return { agent, id, chat: chat.id, conversation: guest.id, owner: owner.id };
}

describe('deleting an account with erase', () => {
  it('takes their name and email out of the history, keeps the rows and their words, and records the erasure by its counts', async () => {
    const admin = await ctx.loginAs('admin', 'boss.accounts@frontdesk.test');
    const email = 'leaving.staff@frontdesk.test';
    const leaver = await staffWithHistory(email);

    await admin.delete(`/api/team/accounts/${leaver.id}`).query({ erase: 'true' }).expect(204);
    await leaver.agent.get('/api/auth/getAuth').expect(401);

    const { db } = ctx.database;
    expect(await db.selectFrom('messages').select(['author_name', 'body']).where('id', '=', leaver.chat).executeTakeFirstOrThrow()).toEqual({ author_name: 'Erased person', body: 'Last shift, bye all' });
    const conversation = (await admin.get(`/api/conversations/${leaver.conversation}`).expect(200)).body as Conversation;
    expect(conversation.messages.map((m) => [m.author.name, m.body])).toEqual([
      ['A guest', 'Where is the lift?'],
      ['Erased person', 'Behind the desk, on the left.'],
    ]);
    expect(await db.selectFrom('uploads').select('uploaded_by').where('sha256', '=', `rota-${leaver.id}`).executeTakeFirstOrThrow()).toEqual({ uploaded_by: 'Erased person' });
    expect(await db.selectFrom('kisi_events').select(['actor_name', 'actor_email', 'actor_id', 'payload']).where('uuid', '=', `staff-door-${leaver.id}`).executeTakeFirstOrThrow()).toEqual({
      actor_name: 'Erased person',
      actor_email: null,
      actor_id: null,
      payload: '{"erased":true}',
    });

    const trail = await trailOf(admin);
    // About them (their account, their sign-ins): "account #id", nowhere their email.
    const about = trail.filter((e) => e.subjectId === String(leaver.id) && (e.kind === 'account' || e.kind === 'session'));
    expect(about.map((e) => e.subject)).toEqual(about.map(() => `account #${leaver.id}`));
    expect(about.some((e) => e.action.startsWith('signed in'))).toBe(true);
    expect(JSON.stringify(about)).not.toContain('leaving.staff');
    expect(trail.find((e) => e.action === 'erased personal data')).toMatchObject({
      actor: { email: 'boss.accounts@frontdesk.test' },
      subject: `account #${leaver.id}`,
      changes: expect.arrayContaining([
        { field: 'doorEvents', before: null, after: 1 },
        { field: 'staffMessages', before: null, after: 2 },
        { field: 'files', before: null, after: 1 },
      ]),
    });
    // What they did to the venue's records keeps who did it: the owner they added.
    expect(trail.find((e) => e.kind === 'owner' && e.subjectId === String(leaver.owner))?.actor?.email).toBe(email);
  });

  it('without erase, keeps the history under their name', async () => {
    const admin = await ctx.loginAs('admin', 'boss2.accounts@frontdesk.test');
    const leaver = await staffWithHistory('staying.named@frontdesk.test');
    await admin.delete(`/api/team/accounts/${leaver.id}`).expect(204);
    expect(await ctx.database.db.selectFrom('messages').select('author_name').where('id', '=', leaver.chat).executeTakeFirstOrThrow()).toEqual({ author_name: 'Test staff' });
    const trail = await trailOf(admin);
    expect(trail.find((e) => e.kind === 'account' && e.action === 'deleted' && e.subjectId === String(leaver.id))?.subject).toBe('Test staff <staying.named@frontdesk.test>');
  });
});
