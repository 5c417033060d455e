import request from 'supertest';
import type { ChatMessage } from '../../contracts/chat.contract';
import type { Page } from '../../contracts/common.contract';
import type { Conversation, ConversationEvent, ConversationMessage, ConversationSummary } from '../../contracts/conversations.contract';
import type { Role } from '../../contracts/endpoint.contract';
import { erasePersonIn } from '../../db/personal-data';
import { stopWallClock } from '../../test-support/clock';
import { listenOnAnyPort, openSseStream, signInPerson, whileLiveEventLogIsDown, type Frame, type Person } from '../../test-support/live-client';
import { createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';
import { conversationsRepository } from './conversations.repository';

type Agent = Person['agent'];
interface Guest {
  agent: Agent;
  id: number;
  token: string;
}

const TABLES = 12;
let ctx: TestContext;
let server: Awaited<ReturnType<typeof listenOnAnyPort>>;
let admin: Person;
let staff: Person;
let colleague: Person;
let runner: Person;
let kitchenId: number;

let seq = 0;
const signIn = (c: TestContext, role: Role) => signInPerson(c, role, `${role}-${++seq}@conversations.test`);

beforeAll(async () => {
  ctx = await createTestContext({ VENUE_TABLES: String(TABLES) }, { helpRequestsPerHour: 10_000, messagesPerMinute: 10_000, eventStream: { heartbeatMs: 60_000 } });
  [admin, staff, colleague, runner] = [await signIn(ctx, 'admin'), await signIn(ctx, 'staff'), await signIn(ctx, 'staff'), await signIn(ctx, 'runner')];
  const { channels } = (await staff.agent.get('/api/chat/channels').expect(200)).body as { channels: Array<{ id: number; name: string }> };
  kitchenId = channels.find((c) => c.name === 'Kitchen')!.id;
  server = await listenOnAnyPort(ctx);
});
afterEach(() => jest.useRealTimers());
afterAll(async () => {
  await server.close();
  await ctx.close();
});

/** A guest's device (its own cookie jar) asks for help. */
async function askForHelp(input: { name?: string; table?: number | null; email?: string | null; body?: string } = {}, device: Agent = request.agent(ctx.app)): Promise<Guest> {
  const res = await device
    .post('/api/conversations')
    .send({ name: input.name ?? `Guest ${++seq}`, body: input.body ?? 'Could someone help me?', ...('email' in input ? { email: input.email } : {}), table: 'table' in input ? input.table : 3 })
    .expect(201);
  return { agent: device, id: res.body.id, token: res.body.token };
}

const list = async (who: Person, query = '') => (await who.agent.get(`/api/conversations${query}`).expect(200)).body as Page<ConversationSummary>;
const everything = (who: Person) => list(who, '?status=all&pageSize=100');
const open = async (who: Person | Guest, id: number) => (await who.agent.get(`/api/conversations/${id}`).expect(200)).body as Conversation;
const write = async (who: Person | Guest, id: number, body: string) => (await who.agent.post(`/api/conversations/${id}/messages`).send({ body }).expect(201)).body as ConversationMessage;
const summaryIn = (page: Page<ConversationSummary>, id: number) => page.items.find((c) => c.id === id);

const openStream = (path: string, cookie: string) => openSseStream(`${server.base}${path}`, cookie);
const guestStream = (guest: Guest, id = guest.id) => openStream(`/api/conversations/${id}/stream`, `guest=${guest.token}`);

const conversationFrame = (kind: ConversationEvent['kind'], conversationId: number, test: (data: ConversationEvent) => boolean = () => true) => (frame: Frame) => {
  const data = frame.data as ConversationEvent;
  return frame.event === 'conversation' && data.kind === kind && data.conversation.id === conversationId && test(data);
};

describe('a guest asks for help', () => {
  it('starts a conversation (201 with id and token) and keeps the token in an HttpOnly guest cookie for the conversation endpoints', async () => {
    const device = request.agent(ctx.app);
    const res = await device.post('/api/conversations').send({ name: '  Ann  ', table: 4, body: ' Could we have a high chair? ' }).expect(201);
    expect(res.body).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/) });
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('guest='));
    expect(cookie).toBeDefined();
    expect(cookie).toContain(`guest=${res.body.token};`);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; Path=\/api\/conversations(;|$)/);
    expect(cookie).toMatch(/; SameSite=Lax/i);

    const mine = await open({ agent: device, id: res.body.id, token: res.body.token }, res.body.id);
    expect(mine).toMatchObject({ id: res.body.id, guestName: 'Ann', table: 4, email: null, status: 'open', assignee: null, unread: 0 });
    expect(mine.messages).toEqual([{ id: expect.any(Number), conversationId: res.body.id, author: { kind: 'guest', accountId: null, name: 'Ann' }, body: 'Could we have a high chair?', createdAt: expect.any(String) }]);
    // The front desk sees it with the guest's message unread.
    expect(summaryIn(await list(staff), res.body.id)).toMatchObject({ guestName: 'Ann', table: 4, status: 'open', unread: 1, lastMessage: { body: 'Could we have a high chair?' } });
  });

  it('takes an email instead of a table', async () => {
    const guest = await askForHelp({ name: 'Bea', table: null, email: 'Bea@Example.com', body: 'Lost my locker key' });
    expect(await open(guest, guest.id)).toMatchObject({ guestName: 'Bea', table: null, email: 'bea@example.com' });
  });

  it('refuses a request with no table and no email, a table the venue does not have, a bad email or a blank message with a 400 naming the field, and stores nothing', async () => {
    const before = (await everything(staff)).total;
    const send = (body: object) => request(ctx.app).post('/api/conversations').send(body).expect(400);
    const cases: Array<[object, string]> = [
      [{ name: 'Cal', body: 'Help' }, 'body.table'],
      [{ name: 'Cal', table: null, email: '', body: 'Help' }, 'body.table'],
      [{ name: 'Cal', table: TABLES + 1, body: 'Help' }, 'body.table'],
      [{ name: 'Cal', table: 0, body: 'Help' }, 'body.table'],
      [{ name: 'Cal', table: 2.5, body: 'Help' }, 'body.table'],
      [{ name: 'Cal', table: '3', body: 'Help' }, 'body.table'],
      [{ name: 'Cal', email: 'not-an-email', body: 'Help' }, 'body.email'],
      [{ name: '  ', table: 3, body: 'Help' }, 'body.name'],
      [{ table: 3, body: 'Help' }, 'body.name'],
      [{ name: 'Cal', table: 3, body: '   ' }, 'body.body'],
      [{ name: 'Cal', table: 3, body: 'x'.repeat(2001) }, 'body.body'],
      [{ name: 'Cal', table: 3 }, 'body.body'],
    ];
    for (const [body, path] of cases) {
      const res = await send(body);
      expect(res.type).toBe('application/problem+json');
      expect({ body, paths: (res.body.errors as Array<{ path: string }>).map((e) => e.path) }).toEqual({ body, paths: [path] });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const missing = await send({ name: 'Cal', body: 'Help' });
    expect(missing.body.errors[0].message).toBe('Give your table number or an email address so we can find you');
    const noSuchTable = await send({ name: 'Cal', table: TABLES + 1, body: 'Help' });
    expect(noSuchTable.body.errors[0].message).toBe(`Tables are numbered 1 to ${TABLES}`);
    await request(ctx.app).post('/api/conversations').set('Content-Type', 'application/json').send('{"name":').expect(400);

    const after = await everything(staff);
    expect(after.total).toBe(before);
    expect(after.items.map((c) => c.guestName)).not.toContain('Cal');
    expect((await list(staff, '?status=all&query=cal')).total).toBe(0);
  });

  it('lets the guest read and answer their own conversation, and nobody else: another guest, no cookie, a made-up token or a runner get 404', async () => {
    const guest = await askForHelp({ name: 'Dev', body: 'My card does not open the door' });
    const reply = await write(guest, guest.id, 'It is the side door');
    expect(reply).toMatchObject({ conversationId: guest.id, author: { kind: 'guest', accountId: null, name: 'Dev' }, body: 'It is the side door' });
    expect((await open(guest, guest.id)).messages.map((m) => m.body)).toEqual(['My card does not open the door', 'It is the side door']);

    const other = await askForHelp({ name: 'Eve' });
    const strangers: Array<[string, Agent]> = [
      ['another guest', other.agent],
      ['no cookie', request.agent(ctx.app)],
      ['a made-up token', request.agent(ctx.app).set('Cookie', `guest=${'A'.repeat(32)}`)],
      ['a token one letter off', request.agent(ctx.app).set('Cookie', `guest=${guest.token.slice(0, -1)}${guest.token.endsWith('x') ? 'y' : 'x'}`)],
      ['a runner', runner.agent],
    ];
    for (const [who, agent] of strangers) {
      const get = await agent.get(`/api/conversations/${guest.id}`);
      const post = await agent.post(`/api/conversations/${guest.id}/messages`).send({ body: 'Let me in' });
      expect({ who, get: get.status, post: post.status }).toEqual({ who, get: 404, post: 404 });
      expect(get.type).toBe('application/problem+json');
      expect(JSON.stringify(get.body)).not.toContain('Dev');
    }
    expect((await open(staff, guest.id)).messages.map((m) => m.body)).not.toContain('Let me in');
    // The other guest still has their own.
    await open(other, other.id);
    // A runner is not the front desk.
    await runner.agent.get('/api/conversations').expect(403);
    await runner.agent.patch(`/api/conversations/${guest.id}`).send({ status: 'resolved' }).expect(403);
    await runner.agent.post(`/api/conversations/${guest.id}/read`).send({}).expect(403);
    await request(ctx.app).get('/api/conversations').expect(401);
  });

  it('answers 400 for a malformed id and 404 for an unknown one, to staff and guests alike', async () => {
    const guest = await askForHelp();
    for (const bad of ['abc', '0', '-2', '1.5']) {
      await staff.agent.get(`/api/conversations/${bad}`).expect(400);
      await guest.agent.get(`/api/conversations/${bad}`).expect(400);
      await guest.agent.post(`/api/conversations/${bad}/messages`).send({ body: 'hi' }).expect(400);
      await staff.agent.patch(`/api/conversations/${bad}`).send({ status: 'resolved' }).expect(400);
      await staff.agent.post(`/api/conversations/${bad}/read`).send({}).expect(400);
      await guest.agent.get(`/api/conversations/${bad}/stream`).expect(400);
    }
    for (const unknown of ['999999', '2147483647']) {
      await staff.agent.get(`/api/conversations/${unknown}`).expect(404);
      await guest.agent.get(`/api/conversations/${unknown}`).expect(404);
      await staff.agent.post(`/api/conversations/${unknown}/messages`).send({ body: 'hi' }).expect(404);
      await staff.agent.patch(`/api/conversations/${unknown}`).send({ status: 'resolved' }).expect(404);
      await staff.agent.post(`/api/conversations/${unknown}/read`).send({}).expect(404);
      await guest.agent.get(`/api/conversations/${unknown}/stream`).expect(404);
    }
  });

  it('refuses a blank or too long reply with a 400 on body.body and stores nothing', async () => {
    const guest = await askForHelp({ body: 'First words' });
    for (const body of ['', '  ', 'x'.repeat(2001), 5]) {
      const res = await guest.agent.post(`/api/conversations/${guest.id}/messages`).send({ body }).expect(400);
      expect(res.body.errors).toEqual([{ path: 'body.body', message: expect.any(String) }]);
      await staff.agent.post(`/api/conversations/${guest.id}/messages`).send({ body }).expect(400);
    }
    expect((await open(staff, guest.id)).messages.map((m) => m.body)).toEqual(['First words']);
    expect((await open(staff, guest.id)).assignee).toBeNull();
  });

  it('stores HTML-looking text exactly as written', async () => {
    const text = '<img src=x onerror=alert(1)> & <b>now</b>';
    const guest = await askForHelp({ name: '<i>Zed</i>', body: text });
    const conversation = await open(staff, guest.id);
    expect(conversation.guestName).toBe('<i>Zed</i>');
    expect(conversation.messages[0]!.body).toBe(text);
  });

  it('reuses the device’s token for a second help request, so both conversations open with the one cookie', async () => {
    const first = await askForHelp({ name: 'Fay', body: 'Where are the towels?' });
    const second = await askForHelp({ name: 'Fay', body: 'And the showers?' }, first.agent);
    expect(second.token).toBe(first.token);
    expect(second.id).not.toBe(first.id);
    expect((await open(first, first.id)).messages[0]!.body).toBe('Where are the towels?');
    expect((await open(first, second.id)).messages[0]!.body).toBe('And the showers?');
    // The token is the key, whichever client carries it (the page keeps it from the 201 answer too).
    const sameKey = request.agent(ctx.app).set('Cookie', `guest=${first.token}`);
    await sameKey.get(`/api/conversations/${second.id}`).expect(200);
    // Another device gets a token of its own, and a cookie that is no token is replaced.
    expect((await askForHelp()).token).not.toBe(first.token);
    const junk = request.agent(ctx.app).set('Cookie', 'guest=not-a-token');
    const res = await junk.post('/api/conversations').send({ name: 'Gil', table: 2, body: 'Hello' }).expect(201);
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});

describe('the front desk', () => {
  it('lists conversations by latest activity, filtered by status, assignee and search, a page at a time', async () => {
    const tag = `walrus${++seq}`;
    // Activity times a second apart on a stopped clock (set in the past, so that what later tests write is newer),
    // so the order below is the order of events, not of ids.
    const clock = stopWallClock(Date.now() - 60_000);
    const later = async <T>(step: () => Promise<T>) => {
      clock.advance(1000);
      return step();
    };
    const a = await askForHelp({ name: `${tag} A` });
    const b = await later(() => askForHelp({ name: `${tag} B` }));
    const c = await later(() => askForHelp({ name: `${tag} C` }));
    const d = await later(() => askForHelp({ name: `${tag} D` }));
    const e = await later(() => askForHelp({ name: `${tag} E` }));
    await later(() => write(staff, b.id, 'On my way')); // b is now the latest, and staff's
    await later(() => colleague.agent.patch(`/api/conversations/${c.id}`).send({ assigneeId: colleague.id }).expect(200));
    await later(() => staff.agent.patch(`/api/conversations/${d.id}`).send({ status: 'resolved' }).expect(200));
    const names = (page: Page<ConversationSummary>) => page.items.map((x) => x.guestName.slice(tag.length + 1));

    const openOnes = await list(staff, `?query=${tag}`);
    expect(openOnes).toMatchObject({ page: 0, pageSize: 10, total: 4 });
    expect(names(openOnes)).toEqual(['C', 'B', 'E', 'A']);
    expect(names(await list(staff, `?query=${tag}&status=resolved`))).toEqual(['D']);
    expect(names(await list(staff, `?query=${tag}&status=all`))).toEqual(['D', 'C', 'B', 'E', 'A']);
    expect(names(await list(staff, `?query=${tag}&assignee=mine`))).toEqual(['B']);
    expect(names(await list(colleague, `?query=${tag}&assignee=mine`))).toEqual(['C']);
    expect(names(await list(staff, `?query=${tag}&assignee=unassigned`))).toEqual(['E', 'A']);
    expect(names(await list(admin, `?query=${tag}&assignee=anyone&status=all`))).toHaveLength(5);

    const pages = await Promise.all([0, 1, 2].map((page) => list(staff, `?query=${tag}&status=all&pageSize=2&page=${page}`)));
    expect(pages.map(names)).toEqual([['D', 'C'], ['B', 'E'], ['A']]);
    expect(pages.map((p) => [p.page, p.pageSize, p.total])).toEqual([[0, 2, 5], [1, 2, 5], [2, 2, 5]]);
    expect((await list(staff, `?query=${tag}&status=all&pageSize=2&page=3`)).items).toEqual([]);
    expect(summaryIn(pages[1]!, b.id)).toMatchObject({ assignee: { id: staff.id, name: staff.name }, lastMessage: { body: 'On my way', author: { kind: 'staff' } } });
    expect(e.id).toBeGreaterThan(a.id);

    for (const query of ['?status=closed', '?assignee=bob', '?page=-1', '?pageSize=101', `?query=${'q'.repeat(201)}`]) await staff.agent.get(`/api/conversations${query}`).expect(400);
  });

  it('finds conversations by any message’s text, the guest’s name or email, in any case; % and _ match themselves', async () => {
    const tag = `ocelot${++seq}`;
    const byMessage = await askForHelp({ name: 'Hal', body: 'Hello' });
    await write(byMessage, byMessage.id, `The ${tag.toUpperCase()} tap is leaking`);
    const byName = await askForHelp({ name: `Ida ${tag}`, body: 'Hi' });
    const byEmail = await askForHelp({ name: 'Jo', email: `${tag}@mail.test`, table: null, body: 'Hi' });
    const found = await list(staff, `?status=all&query=${tag}`);
    expect(found.items.map((c) => c.id).sort()).toEqual([byMessage.id, byName.id, byEmail.id].sort());
    expect((await list(staff, `?status=all&query=${encodeURIComponent(`  ${tag.toUpperCase()}  `)}`)).total).toBe(3);

    const percent = await askForHelp({ body: `${tag} 100% sure` });
    expect((await list(staff, `?status=all&query=${encodeURIComponent('100%')}`)).items.map((c) => c.id)).toEqual([percent.id]);
    expect((await list(staff, `?status=all&query=${encodeURIComponent(`${tag}_`)}`)).total).toBe(0);
  });

  it('finds a conversation by a later reply, guest’s or staff’s, and no longer by an erased guest’s name, email or words', async () => {
    const tag = `lynx${++seq}`;
    const guest = await askForHelp({ name: `Uma ${tag}`, email: `uma.${tag}@mail.test`, table: null, body: 'My locker is stuck' });
    await write(guest, guest.id, `It is locker ${tag}-guest`);
    await write(staff, guest.id, `Sending ${tag}-staff now`);
    for (const word of [`${tag}-guest`, `${tag}-staff`, `uma.${tag}@`, `Uma ${tag}`]) {
      expect((await list(staff, `?status=all&query=${encodeURIComponent(word)}`)).items.map((c) => c.id)).toEqual([guest.id]);
    }
    await ctx.database.db.transaction().execute((trx) => erasePersonIn(trx)({ email: `uma.${tag}@mail.test`, name: `Uma ${tag}`, subject: { id: 999_999, kinds: ['member'], label: 'member #999999' } }));
    for (const word of [`${tag}-guest`, `uma.${tag}@`, `Uma ${tag}`, 'locker is stuck']) expect((await list(staff, `?status=all&query=${encodeURIComponent(word)}`)).items.map((c) => c.id)).not.toContain(guest.id);
    expect((await list(staff, `?status=all&query=${encodeURIComponent(`${tag}-staff`)}`)).items.map((c) => c.id)).toEqual([guest.id]);
  });

  it('after years of help requests says "1,000+", pages on by Next and back by Previous, and a word every guest wrote answers its page', async () => {
    const tag = `heron${++seq}`;
    const conversations = conversationsRepository(ctx.database.db, ctx.database.containsMatch);
    const start = Date.parse('2020-01-01T00:00:00.000Z');
    for (let i = 0; i < 1_030; i++) {
      const at = new Date(start + i * 60_000).toISOString();
      await conversations.insert({ guestName: `Guest ${i}`, table: 1 + (i % TABLES), email: null, tokenHash: `${tag}-${i}` }, `Could we have more ${tag}, please?`, at);
    }
    const query = `?status=all&pageSize=10&query=${tag}`;
    const first = await list(staff, query);
    expect(first).toMatchObject({ page: 0, total: 1_000, totalIsLowerBound: true, next: expect.any(String) });
    expect(first.items.map((c) => c.guestName)).toEqual(Array.from({ length: 10 }, (_, i) => `Guest ${1_029 - i}`));
    const second = await list(staff, `${query}&page=1&next=${first.next!}`);
    expect(second.items.map((c) => c.guestName)).toEqual(Array.from({ length: 10 }, (_, i) => `Guest ${1_019 - i}`));
    expect(second).toMatchObject({ page: 1, total: 1_010, totalIsLowerBound: true, previous: expect.any(String) });
    expect((await list(staff, `${query}&previous=${second.previous!}`)).items.map((c) => c.id)).toEqual(first.items.map((c) => c.id));
    const last = await list(staff, `?status=all&pageSize=10&query=${tag}&page=102`);
    expect(last).toMatchObject({ total: 1_030, items: expect.any(Array) });
    expect(last.items.map((c) => c.guestName)).toEqual(Array.from({ length: 10 }, (_, i) => `Guest ${9 - i}`));
    expect(last.totalIsLowerBound).toBeUndefined();
  });

  it('assigns an unassigned conversation to the staff who answers first, and keeps it theirs when a colleague answers too', async () => {
    const guest = await askForHelp({ name: 'Kim' });
    const answer = await write(colleague, guest.id, 'Be right there');
    expect(answer).toMatchObject({ author: { kind: 'staff', accountId: colleague.id, name: colleague.name }, body: 'Be right there' });
    expect(await open(staff, guest.id)).toMatchObject({ assignee: { id: colleague.id, name: colleague.name } });
    await write(staff, guest.id, 'I can help too');
    const conversation = await open(guest, guest.id);
    expect(conversation.assignee).toEqual({ id: colleague.id, name: colleague.name });
    expect(conversation.messages.map((m) => [m.author.kind, m.body])).toEqual([
      ['guest', 'Could someone help me?'],
      ['staff', 'Be right there'],
      ['staff', 'I can help too'],
    ]);
  });

  it('gives a conversation two staff answer at the same moment to the one whose answer came first', async () => {
    for (let round = 0; round < 5; round++) {
      const guest = await askForHelp({ name: `Race ${round}` });
      await Promise.all([staff, colleague].map((who) => write(who, guest.id, `${who.name} here`)));
      const { assignee, messages } = await open(staff, guest.id);
      expect(assignee?.id).toBe(messages[1]!.author.accountId);
    }
  });

  it('writes as the guest when the reply says so, even in a browser where a staff session is signed in too', async () => {
    // A desk tablet: staff signed in, and a guest asked for help from the same browser.
    const tablet = await askForHelp({ name: 'Tablet guest' }, staff.agent);
    await staff.agent.patch(`/api/conversations/${tablet.id}`).send({ status: 'resolved' }).expect(200);

    const asGuest = (await staff.agent.post(`/api/conversations/${tablet.id}/messages`).send({ body: 'Still here', as: 'guest' }).expect(201)).body as ConversationMessage;
    expect(asGuest.author).toEqual({ kind: 'guest', accountId: null, name: 'Tablet guest' });
    expect(await open(colleague, tablet.id)).toMatchObject({ status: 'open', assignee: null, unread: 2 });

    const asStaff = (await staff.agent.post(`/api/conversations/${tablet.id}/messages`).send({ body: 'On my way', as: 'staff' }).expect(201)).body as ConversationMessage;
    expect(asStaff.author).toMatchObject({ kind: 'staff', accountId: staff.id });
    // Without the cookie there is no guest to write as; without a session no staff.
    const other = await askForHelp();
    await other.agent.post(`/api/conversations/${tablet.id}/messages`).send({ body: 'Me too', as: 'guest' }).expect(404);
    await other.agent.post(`/api/conversations/${other.id}/messages`).send({ body: 'Me too', as: 'staff' }).expect(404);
    await staff.agent.post(`/api/conversations/${tablet.id}/messages`).send({ body: 'x', as: 'manager' }).expect(400);
  });

  it('resolves a conversation, and the guest writing again reopens it', async () => {
    const guest = await askForHelp({ name: 'Lou' });
    const resolved = await staff.agent.patch(`/api/conversations/${guest.id}`).send({ status: 'resolved' }).expect(200);
    expect(resolved.body).toMatchObject({ id: guest.id, status: 'resolved' });
    expect(summaryIn(await list(staff, '?pageSize=100'), guest.id)).toBeUndefined();
    expect((await open(guest, guest.id)).status).toBe('resolved');

    await write(guest, guest.id, 'Sorry, one more thing');
    expect((await open(staff, guest.id)).status).toBe('open');
    expect(summaryIn(await list(staff, '?pageSize=100'), guest.id)).toMatchObject({ status: 'open', lastMessage: { body: 'Sorry, one more thing' } });

    // Staff reopen by hand, too; a staff answer does not reopen.
    await staff.agent.patch(`/api/conversations/${guest.id}`).send({ status: 'resolved' }).expect(200);
    await write(staff, guest.id, 'Anything else, just ask');
    expect((await open(staff, guest.id)).status).toBe('resolved');
    expect((await staff.agent.patch(`/api/conversations/${guest.id}`).send({ status: 'open' }).expect(200)).body.status).toBe('open');
  });

  it('assigns to a staff or admin account, 422 for a runner or an unknown account, and unassigns with null', async () => {
    const guest = await askForHelp({ name: 'Max' });
    const patch = (body: object) => staff.agent.patch(`/api/conversations/${guest.id}`).send(body);
    for (const assigneeId of [runner.id, 999999]) {
      const res = await patch({ assigneeId }).expect(422);
      expect(res.type).toBe('application/problem+json');
      expect(res.body.errors).toEqual([{ path: 'body.assigneeId', message: 'Assign to a staff or admin account' }]);
    }
    expect((await open(staff, guest.id)).assignee).toBeNull();

    expect((await patch({ assigneeId: colleague.id }).expect(200)).body.assignee).toEqual({ id: colleague.id, name: colleague.name });
    expect((await patch({ assigneeId: admin.id, status: 'resolved' }).expect(200)).body).toMatchObject({ assignee: { id: admin.id }, status: 'resolved' });
    expect((await patch({ assigneeId: null }).expect(200)).body).toMatchObject({ assignee: null, status: 'resolved' });
    expect(summaryIn(await list(staff, '?status=resolved&assignee=unassigned&pageSize=100'), guest.id)).toBeDefined();

    for (const body of [{}, { status: 'closed' }, { assigneeId: 'me' }, { assigneeId: 0 }, { assigneeId: 1.5 }]) {
      const res = await patch(body).expect(400);
      expect(res.type).toBe('application/problem+json');
    }
  });

  it('counts guest messages each staff reader has not read: reading clears them, a new guest message raises them again', async () => {
    const guest = await askForHelp({ name: 'Ned' });
    await write(guest, guest.id, 'Hello?');
    expect(summaryIn(await list(staff, '?pageSize=100'), guest.id)?.unread).toBe(2);
    expect((await open(staff, guest.id)).unread).toBe(2);

    const read = await staff.agent.post(`/api/conversations/${guest.id}/read`).send({}).expect(200);
    expect(read.body).toMatchObject({ id: guest.id, unread: 0 });
    expect(summaryIn(await list(staff, '?pageSize=100'), guest.id)?.unread).toBe(0);
    // Each reader has their own place.
    expect(summaryIn(await list(colleague, '?pageSize=100'), guest.id)?.unread).toBe(2);

    await write(guest, guest.id, 'Anyone there?');
    expect(summaryIn(await list(staff, '?pageSize=100'), guest.id)?.unread).toBe(1);
    // Staff messages never count; answering reads everything up to the answer.
    await write(staff, guest.id, 'Yes, coming');
    expect(summaryIn(await list(staff, '?pageSize=100'), guest.id)?.unread).toBe(0);
    expect(summaryIn(await list(colleague, '?pageSize=100'), guest.id)?.unread).toBe(3);
    // The guest is never told of unread messages of the front desk.
    expect((await open(guest, guest.id)).unread).toBe(0);
  });

  it('counts what waits for each staff reader across open conversations: reading or resolving takes it off, a runner gets 403', async () => {
    const reader = await signIn(ctx, 'staff');
    const waiting = async (who: Person) => ((await who.agent.get('/api/conversations/waiting').expect(200)).body as { unread: number }).unread;
    const before = await waiting(reader);
    const guest = await askForHelp({ name: 'Wanda' });
    await write(guest, guest.id, 'Still there?');
    expect(await waiting(reader)).toBe(before + 2);

    await reader.agent.post(`/api/conversations/${guest.id}/read`).send({}).expect(200);
    expect(await waiting(reader)).toBe(before);
    await write(guest, guest.id, 'One more thing');
    expect(await waiting(reader)).toBe(before + 1);
    // A resolved conversation waits for no one.
    await reader.agent.patch(`/api/conversations/${guest.id}`).send({ status: 'resolved' }).expect(200);
    expect(await waiting(reader)).toBe(before);
    await runner.agent.get('/api/conversations/waiting').expect(403);
  });
});

describe('live', () => {
  it('streams the guest’s own conversation: a staff reply as kind message, a status change as kind updated, no audience field, nothing of others', async () => {
    const guest = await askForHelp({ name: 'Oli', body: 'The music is too loud' });
    const other = await askForHelp({ name: 'Pat' });
    const stream = await guestStream(guest);
    try {
      expect(stream.status).toBe(200);
      expect(stream.type).toMatch(/^text\/event-stream/);
      await write(staff, other.id, 'Not for Oli');
      const reply = await write(staff, guest.id, 'Turning it down');
      const message = await stream.next(conversationFrame('message', guest.id));
      expect(message.data).toMatchObject({ kind: 'message', conversation: { id: guest.id, status: 'open', assignee: { id: staff.id } }, message: { id: reply.id, body: 'Turning it down', author: { kind: 'staff', name: staff.name } } });

      await staff.agent.patch(`/api/conversations/${guest.id}`).send({ status: 'resolved' }).expect(200);
      const updated = await stream.next(conversationFrame('updated', guest.id));
      expect(updated.data).toMatchObject({ kind: 'updated', conversation: { id: guest.id, status: 'resolved' } });
      expect((updated.data as ConversationEvent).message).toBeUndefined();

      for (const frame of stream.frames()) {
        expect(frame.data).not.toHaveProperty('audience');
        expect(frame.data).not.toHaveProperty('conversation.unread');
        expect((frame.data as ConversationEvent).conversation.id).toBe(guest.id);
      }
      expect(stream.text()).not.toContain('Not for Oli');
    } finally {
      stream.close();
    }
  });

  it('answers 404 for a stream of someone else’s conversation, or without a cookie, before any event-stream opens', async () => {
    const guest = await askForHelp();
    const other = await askForHelp();
    for (const [cookie, who] of [
      [`guest=${other.token}`, 'another guest'],
      ['', 'no cookie'],
      [runner.cookie, 'a runner'],
    ]) {
      const stream = await openStream(`/api/conversations/${guest.id}/stream`, cookie!);
      expect({ who, status: stream.status, type: stream.type }).toEqual({ who, status: 404, type: expect.stringContaining('application/problem+json') });
      stream.close();
    }
    // The front desk may follow it too.
    const desk = await openStream(`/api/conversations/${guest.id}/stream`, staff.cookie);
    expect(desk.status).toBe(200);
    desk.close();
  });

  it('stores a help request or a reply only with its live event: when the event cannot be stored, nothing of it is (a 500 without a cookie; sending again works)', async () => {
    const device = request.agent(ctx.app);
    const refused = await whileLiveEventLogIsDown(ctx, () => device.post('/api/conversations').send({ name: 'Noor', table: 3, body: 'The card machine is offline' }).expect(500));
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await list(staff, '?status=all&query=Noor')).items).toEqual([]);

    const guest = await askForHelp({ name: 'Noor', body: 'The card machine is offline' }, device);
    await whileLiveEventLogIsDown(ctx, () => guest.agent.post(`/api/conversations/${guest.id}/messages`).send({ body: 'Still offline' }).expect(500));
    expect((await open(guest, guest.id)).messages.map((m) => m.body)).toEqual(['The card machine is offline']);
    await write(guest, guest.id, 'Still offline');
    expect((await open(guest, guest.id)).messages.map((m) => m.body)).toEqual(['The card machine is offline', 'Still offline']);
  });

  it('sends conversation events to staff and admins on /api/events, never to runners', async () => {
    const [staffStream, adminStream, runnerStream] = await Promise.all([openStream('/api/events', staff.cookie), openStream('/api/events', admin.cookie), openStream('/api/events', runner.cookie)]);
    try {
      const guest = await askForHelp({ name: 'Quinn', body: 'Private: my locker code is 4321' });
      await write(guest, guest.id, 'Still waiting');
      await colleague.agent.patch(`/api/conversations/${guest.id}`).send({ status: 'resolved' }).expect(200);
      // A later event a runner does hear: a conversation event would have come before it.
      const marker = (await staff.agent.post(`/api/chat/channels/${kitchenId}/messages`).send({ body: 'Quinn marker' }).expect(201)).body as ChatMessage;

      for (const stream of [staffStream, adminStream]) {
        expect((await stream.next(conversationFrame('message', guest.id, (d) => d.message?.body === 'Private: my locker code is 4321'))).data).toMatchObject({
          conversation: { guestName: 'Quinn', status: 'open' },
        });
        await stream.next(conversationFrame('message', guest.id, (d) => d.message?.body === 'Still waiting'));
        await stream.next(conversationFrame('updated', guest.id, (d) => d.conversation.status === 'resolved'));
      }
      await runnerStream.next((f) => f.event === 'chat' && (f.data as { message?: { id: number } }).message?.id === marker.id);
      expect(runnerStream.frames().filter((f) => f.event === 'conversation')).toEqual([]);
      expect(runnerStream.text()).not.toContain('locker code');
    } finally {
      [staffStream, adminStream, runnerStream].forEach((s) => s.close());
    }
  });
});

describe('rate limits', () => {
  it('answers a third help request within the hour with a 429 when the limit is 2, stores nothing for it, and throttles a fast guest’s replies', async () => {
    await withTestContext({ overrides: { helpRequestsPerHour: 2, messagesPerMinute: 5 } }, async (limited) => {
      const desk = await signIn(limited, 'staff');
      const device = request.agent(limited.app);
      const ask = (name: string) => device.post('/api/conversations').send({ name, table: 1, body: 'Help' });
      const first = await ask('Ray 1').expect(201);
      await ask('Ray 2').expect(201);
      const refused = await ask('Ray 3').expect(429);
      expect(refused.type).toBe('application/problem+json');
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.headers['set-cookie']).toBeUndefined();
      expect(refused.body.detail).toContain('Too many help requests');
      const all = (await desk.agent.get('/api/conversations?status=all').expect(200)).body as Page<ConversationSummary>;
      expect(all.items.map((c) => c.guestName).sort()).toEqual(['Ray 1', 'Ray 2']);

      const id = first.body.id as number;
      // The guest sent their first message with the request: five more in the minute, then a 429.
      for (let i = 1; i <= 5; i++) await device.post(`/api/conversations/${id}/messages`).send({ body: `again ${i}` }).expect(201);
      const slow = await device.post(`/api/conversations/${id}/messages`).send({ body: 'again 6' }).expect(429);
      expect(slow.headers['retry-after']).toMatch(/^\d+$/);
      const conversation = (await desk.agent.get(`/api/conversations/${id}`).expect(200)).body as Conversation;
      expect(conversation.messages.map((m) => m.body)).toEqual(['Help', 'again 1', 'again 2', 'again 3', 'again 4', 'again 5']);
      // The front desk answers regardless.
      await desk.agent.post(`/api/conversations/${id}/messages`).send({ body: 'We hear you' }).expect(201);
    });
  });
});
