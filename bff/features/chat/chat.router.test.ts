import request from 'supertest';
import type { ChannelList, ChatEvent, ChatMessage, MessageSlice, ReadState } from '../../contracts/chat.contract';
import type { Role } from '../../contracts/endpoint.contract';
import { stopWallClock } from '../../test-support/clock';
import { listenOnAnyPort, newestLiveEventId, openSseStream, signInPerson, whileLiveEventLogIsDown, type Frame, type Person } from '../../test-support/live-client';
import { createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';

let ctx: TestContext;
let server: Awaited<ReturnType<typeof listenOnAnyPort>>;
let admin: Person;
let staff: Person;
let colleague: Person;
let runner: Person;
/** The channels every venue starts with. */
const seeded = { frontDesk: 0, kitchen: 0, managers: 0 };

let seq = 0;
const signIn = (c: TestContext, role: Role) => signInPerson(c, role, `${role}-${++seq}@chat.test`);

beforeAll(async () => {
  ctx = await createTestContext({}, { messagesPerMinute: 10_000, eventStream: { heartbeatMs: 60_000 } });
  [admin, staff, colleague, runner] = [await signIn(ctx, 'admin'), await signIn(ctx, 'staff'), await signIn(ctx, 'staff'), await signIn(ctx, 'runner')];
  const { channels } = (await admin.agent.get('/api/chat/channels').expect(200)).body as ChannelList;
  const idOf = (name: string) => channels.find((c) => c.name === name)!.id;
  Object.assign(seeded, { frontDesk: idOf('Front desk'), kitchen: idOf('Kitchen'), managers: idOf('Managers') });
  server = await listenOnAnyPort(ctx);
});
afterEach(() => jest.useRealTimers());
afterAll(async () => {
  await server.close();
  await ctx.close();
});

const channelsOf = async (who: Person, query = '') => (await who.agent.get(`/api/chat/channels${query}`).expect(200)).body as ChannelList;
const channelIn = (list: ChannelList, id: number) => list.channels.find((c) => c.id === id);
const post = (who: Person, channelId: number, body: unknown) => who.agent.post(`/api/chat/channels/${channelId}/messages`).send({ body });
const send = async (who: Person, channelId: number, body: string) => (await post(who, channelId, body).expect(201)).body as ChatMessage;
const thread = async (who: Person, channelId: number, query = '') => (await who.agent.get(`/api/chat/channels/${channelId}/messages${query}`).expect(200)).body as MessageSlice;
const readUpTo = async (who: Person, channelId: number, body: object = {}) => (await who.agent.post(`/api/chat/channels/${channelId}/read`).send(body).expect(200)).body as ReadState;

/** A channel of the test's own (staff only unless asked), so counts and threads start empty. */
async function newChannel(fields: { name?: string; runnersMayJoin?: boolean } = {}) {
  const name = fields.name ?? `Test channel ${++seq}`;
  const { id } = (await admin.agent.post('/api/chat/channels').send({ name, runnersMayJoin: fields.runnersMayJoin ?? false }).expect(201)).body as { id: number };
  return id;
}

/** A real SSE connection to `/api/events` as `who`. */
async function openEvents(who: Person) {
  const stream = await openSseStream(`${server.base}/api/events`, who.cookie);
  expect(stream.status).toBe(200);
  return stream;
}

const chatFrame = (kind: ChatEvent['kind'], messageId: number) => (frame: Frame) => {
  const data = frame.data as ChatEvent;
  return frame.event === 'chat' && data.kind === kind && 'message' in data && data.message.id === messageId;
};

describe('who may use chat', () => {
  it('needs a session for every chat endpoint', async () => {
    const anonymous = request(ctx.app);
    await anonymous.get('/api/chat/channels').expect(401);
    await anonymous.post('/api/chat/channels').send({ name: 'Sneaky' }).expect(401);
    await anonymous.patch(`/api/chat/channels/${seeded.kitchen}`).send({ name: 'Sneaky' }).expect(401);
    await anonymous.get(`/api/chat/channels/${seeded.kitchen}/messages`).expect(401);
    await anonymous.post(`/api/chat/channels/${seeded.kitchen}/messages`).send({ body: 'hi' }).expect(401);
    await anonymous.post(`/api/chat/channels/${seeded.kitchen}/read`).send({}).expect(401);
    await anonymous.patch('/api/chat/messages/1').send({ body: 'hi' }).expect(401);
    const res = await anonymous.delete('/api/chat/messages/1').expect(401);
    expect(res.type).toBe('application/problem+json');
  });

  it('shows staff and admins every seeded channel by name, and a runner only the kitchen', async () => {
    for (const who of [staff, admin]) {
      const names = (await channelsOf(who)).channels.map((c) => c.name);
      expect(names).toEqual(expect.arrayContaining(['Front desk', 'Kitchen', 'Managers']));
      expect(names.indexOf('Front desk')).toBeLessThan(names.indexOf('Kitchen'));
      expect(names.indexOf('Kitchen')).toBeLessThan(names.indexOf('Managers'));
    }
    const runnerSees = await channelsOf(runner);
    expect(runnerSees.channels.map((c) => c.name)).toContain('Kitchen');
    expect(runnerSees.channels.map((c) => c.name)).not.toContain('Front desk');
    expect(runnerSees.channels.map((c) => c.name)).not.toContain('Managers');
    expect(runnerSees.channels.every((c) => c.runnersMayJoin)).toBe(true);
  });

  it('lets a runner read and write in the kitchen, and answers 404 for the front desk and managers channels as if they did not exist', async () => {
    const hello = await send(runner, seeded.kitchen, 'Table 4 is out of napkins');
    expect((await thread(runner, seeded.kitchen)).items[0]).toMatchObject({ id: hello.id, author: { kind: 'staff', accountId: runner.id } });
    await readUpTo(runner, seeded.kitchen);

    const secret = await send(staff, seeded.frontDesk, 'Door code changes on Monday');
    for (const channelId of [seeded.frontDesk, seeded.managers]) {
      await runner.agent.get(`/api/chat/channels/${channelId}/messages`).expect(404);
      await post(runner, channelId, 'let me in').expect(404);
      await runner.agent.post(`/api/chat/channels/${channelId}/read`).send({}).expect(404);
    }
    // Nor can a runner reach one of those messages by its id.
    await runner.agent.patch(`/api/chat/messages/${secret.id}`).send({ body: 'changed' }).expect(404);
    await runner.agent.delete(`/api/chat/messages/${secret.id}`).expect(404);
    expect((await thread(staff, seeded.frontDesk)).items.map((m) => m.body)).not.toContain('let me in');
    expect((await thread(staff, seeded.frontDesk)).items[0]).toMatchObject({ id: secret.id, body: 'Door code changes on Monday', deleted: false });
  });
});

describe('channels', () => {
  it('lets an admin open a channel (201) that staff then see; 409 for a name taken in any case; 403 for staff and runners', async () => {
    const res = await admin.agent.post('/api/chat/channels').send({ name: '  Bar Ops  ', topic: ' Kegs and glasses ' }).expect(201);
    expect(res.body).toEqual({ id: expect.any(Number) });
    const created = channelIn(await channelsOf(staff), res.body.id);
    expect(created).toMatchObject({ name: 'Bar Ops', topic: 'Kegs and glasses', runnersMayJoin: false, archivedAt: null, unread: 0, lastMessage: null });
    expect(channelIn(await channelsOf(runner), res.body.id)).toBeUndefined();

    const taken = await admin.agent.post('/api/chat/channels').send({ name: 'bar ops' }).expect(409);
    expect(taken.type).toBe('application/problem+json');
    expect(taken.body.detail).toContain('bar ops');
    await admin.agent.post('/api/chat/channels').send({ name: 'KITCHEN' }).expect(409);
    await staff.agent.post('/api/chat/channels').send({ name: 'Staff room' }).expect(403);
    await runner.agent.post('/api/chat/channels').send({ name: 'Runner room' }).expect(403);
    expect((await channelsOf(admin)).channels.filter((c) => c.name.toLowerCase() === 'bar ops')).toHaveLength(1);
    expect((await channelsOf(admin)).channels.map((c) => c.name)).not.toEqual(expect.arrayContaining(['Staff room']));
  });

  it('rejects a blank, too long or mistyped channel with a 400 naming the field', async () => {
    const blank = await admin.agent.post('/api/chat/channels').send({ name: '   ' }).expect(400);
    expect(blank.body.errors).toEqual([{ path: 'body.name', message: 'Enter the channel’s name' }]);
    const long = await admin.agent.post('/api/chat/channels').send({ name: 'x'.repeat(41) }).expect(400);
    expect(long.body.errors[0].path).toBe('body.name');
    const typed = await admin.agent.post('/api/chat/channels').send({ name: 'Typed', runnersMayJoin: 'yes' }).expect(400);
    expect(typed.body.errors).toEqual([{ path: 'body.runnersMayJoin', message: 'Expected true or false' }]);
    expect((await channelsOf(admin)).channels.map((c) => c.name)).not.toContain('Typed');
  });

  it('refuses a name or message holding a NUL character with a 400 naming the field, on either database', async () => {
    const named = await admin.agent.post('/api/chat/channels').send({ name: 'Bar\u0000ops' }).expect(400);
    expect(named.body.errors).toEqual([{ path: 'body.name', message: 'Text may not contain a NUL character' }]);
    const id = await newChannel();
    const message = await post(staff, id, 'hello\u0000there').expect(400);
    expect(message.body.errors).toEqual([{ path: 'body.body', message: 'Text may not contain a NUL character' }]);
    expect((await thread(staff, id)).items).toEqual([]);
  });

  it('opens a channel to runners when asked', async () => {
    const id = await newChannel({ name: 'Runner relay', runnersMayJoin: true });
    expect(channelIn(await channelsOf(runner), id)).toMatchObject({ name: 'Runner relay', runnersMayJoin: true });
    await send(runner, id, 'Relay ready');
  });

  it('renames a channel; 409 when the new name is taken, 404 for an unknown one, 400 for an empty patch or a malformed id, 403 for staff', async () => {
    const id = await newChannel({ name: 'Old name' });
    const renamed = await admin.agent.patch(`/api/chat/channels/${id}`).send({ name: 'New name', topic: 'Fresh' }).expect(200);
    expect(renamed.body).toMatchObject({ id, name: 'New name', topic: 'Fresh', archivedAt: null });
    expect(channelIn(await channelsOf(staff), id)?.name).toBe('New name');
    // Its old name is free again.
    await newChannel({ name: 'old NAME' });

    await admin.agent.patch(`/api/chat/channels/${id}`).send({ name: 'managers' }).expect(409);
    expect(channelIn(await channelsOf(staff), id)?.name).toBe('New name');
    await admin.agent.patch('/api/chat/channels/999999').send({ name: 'Ghost' }).expect(404);
    const empty = await admin.agent.patch(`/api/chat/channels/${id}`).send({}).expect(400);
    expect(empty.body.detail).toBe('The request has invalid fields.');
    await admin.agent.patch('/api/chat/channels/abc').send({ name: 'Ghost' }).expect(400);
    await staff.agent.patch(`/api/chat/channels/${id}`).send({ name: 'Mine now' }).expect(403);
    await runner.agent.patch(`/api/chat/channels/${seeded.kitchen}`).send({ archived: true }).expect(403);
  });

  it('hides an archived channel unless asked to include it, keeps it readable but not writable, and brings it back when unarchived', async () => {
    const id = await newChannel({ name: 'Seasonal' });
    const before = await send(staff, id, 'Summer menu is live');
    const archived = await admin.agent.patch(`/api/chat/channels/${id}`).send({ archived: true }).expect(200);
    expect(archived.body.archivedAt).toEqual(expect.any(String));

    expect(channelIn(await channelsOf(staff), id)).toBeUndefined();
    const included = await channelsOf(staff, '?archived=include');
    expect(channelIn(included, id)).toMatchObject({ name: 'Seasonal', archivedAt: archived.body.archivedAt });
    // Archived channels come after every active one.
    const archivedAt = included.channels.map((c) => c.archivedAt !== null);
    expect(archivedAt.indexOf(true)).toBe(archivedAt.length - archivedAt.filter(Boolean).length);
    await staff.agent.get('/api/chat/channels?archived=maybe').expect(400);

    expect((await thread(staff, id)).items.map((m) => m.id)).toEqual([before.id]);
    const refused = await post(staff, id, 'Winter menu?').expect(409);
    expect(refused.body.detail).toContain('archived');
    await staff.agent.patch(`/api/chat/messages/${before.id}`).send({ body: 'Summer menu is over' }).expect(409);
    // Read-only means deleting too, admins included: unarchive to tidy up.
    await staff.agent.delete(`/api/chat/messages/${before.id}`).expect(409);
    await admin.agent.delete(`/api/chat/messages/${before.id}`).expect(409);
    expect((await thread(staff, id)).items.map((m) => m.body)).toEqual(['Summer menu is live']);

    // Archiving again keeps the date it was archived.
    expect((await admin.agent.patch(`/api/chat/channels/${id}`).send({ archived: true }).expect(200)).body.archivedAt).toBe(archived.body.archivedAt);
    await admin.agent.patch(`/api/chat/channels/${id}`).send({ archived: false }).expect(200);
    expect(channelIn(await channelsOf(staff), id)?.archivedAt).toBeNull();
    await send(staff, id, 'Winter menu is live');
  });
});

describe('messages', () => {
  it('stores a message (201 with its id, author and time) and lists the thread newest first', async () => {
    const id = await newChannel();
    const first = (await post(staff, id, '  Morning all  ').expect(201)).body as ChatMessage;
    expect(first).toMatchObject({ id: expect.any(Number), channelId: id, author: { kind: 'staff', accountId: staff.id, name: staff.name }, body: 'Morning all', editedAt: null, deleted: false });
    expect(Date.parse(first.createdAt)).not.toBeNaN();
    const second = await send(colleague, id, 'Morning!');
    expect(second.id).toBeGreaterThan(first.id);
    const slice = await thread(admin, id);
    expect(slice).toEqual({ items: [second, first], older: null });
    expect(channelIn(await channelsOf(admin), id)?.lastMessage).toEqual(second);
  });

  it('pages back with `before` and `older`: every message once, none missing, `older` null at the start', async () => {
    const id = await newChannel();
    const sent: ChatMessage[] = [];
    for (let i = 1; i <= 7; i++) sent.push(await send(staff, id, `Message ${i}`));
    const pages: MessageSlice[] = [await thread(staff, id, '?limit=3')];
    while (pages[pages.length - 1]!.older !== null) pages.push(await thread(staff, id, `?limit=3&before=${pages[pages.length - 1]!.older}`));

    expect(pages.map((p) => p.items.map((m) => m.body))).toEqual([
      ['Message 7', 'Message 6', 'Message 5'],
      ['Message 4', 'Message 3', 'Message 2'],
      ['Message 1'],
    ]);
    expect(pages.map((p) => p.older)).toEqual([sent[4]!.id, sent[1]!.id, null]);
    const ids = pages.flatMap((p) => p.items.map((m) => m.id));
    expect(ids).toEqual(sent.map((m) => m.id).reverse());
    // A page that ends exactly at the start says so, instead of sending the reader to an empty page.
    expect(await thread(staff, id, `?limit=3&before=${sent[3]!.id}`)).toMatchObject({ older: null });
    expect((await thread(staff, id, `?limit=3&before=${sent[3]!.id}`)).items).toHaveLength(3);
    expect((await thread(staff, id)).items).toHaveLength(7);

    for (const query of ['?limit=0', '?limit=101', '?limit=ten', '?before=abc', '?before=0', '?before=-3']) {
      const res = await staff.agent.get(`/api/chat/channels/${id}/messages${query}`).expect(400);
      expect(res.body.errors[0].path).toMatch(/^query\./);
    }
  });

  it('refuses an empty, blank, missing, mistyped or too long message with a 400 on body.body, and stores nothing', async () => {
    const id = await newChannel();
    for (const body of ['', '   \n\t ', undefined, 42, null, 'x'.repeat(2001)]) {
      const res = await staff.agent.post(`/api/chat/channels/${id}/messages`).send(body === undefined ? {} : { body }).expect(400);
      expect(res.type).toBe('application/problem+json');
      expect(res.body.errors).toEqual([{ path: 'body.body', message: expect.any(String) }]);
    }
    const blank = await post(staff, id, '   ').expect(400);
    expect(blank.body.errors[0].message).toBe('Write a message first');
    const long = await post(staff, id, 'x'.repeat(2001)).expect(400);
    expect(long.body.errors[0].message).toBe('Use at most 2000 characters');
    expect(await thread(staff, id)).toEqual({ items: [], older: null });
    // 2000 characters is allowed, and so is a longer text whose spaces trim to 2000.
    await send(staff, id, 'y'.repeat(2000));
    await send(staff, id, ` ${'z'.repeat(2000)} `);
    expect((await thread(staff, id)).items.map((m) => m.body.length)).toEqual([2000, 2000]);
  });

  it('answers 400 for malformed ids and 404 for unknown ones', async () => {
    for (const bad of ['abc', '0', '-1', '1.5', '1e3', '2147483648', '99999999999999999']) {
      await staff.agent.get(`/api/chat/channels/${bad}/messages`).expect(400);
      await staff.agent.post(`/api/chat/channels/${bad}/messages`).send({ body: 'hi' }).expect(400);
      await staff.agent.post(`/api/chat/channels/${bad}/read`).send({}).expect(400);
      await staff.agent.patch(`/api/chat/messages/${bad}`).send({ body: 'hi' }).expect(400);
      const res = await staff.agent.delete(`/api/chat/messages/${bad}`).expect(400);
      expect(res.body.errors).toEqual([{ path: 'params.id', message: expect.any(String) }]);
    }
    for (const unknown of ['999999', '2147483647']) {
      await staff.agent.get(`/api/chat/channels/${unknown}/messages`).expect(404);
      await staff.agent.post(`/api/chat/channels/${unknown}/messages`).send({ body: 'hi' }).expect(404);
      await staff.agent.post(`/api/chat/channels/${unknown}/read`).send({}).expect(404);
      await admin.agent.patch(`/api/chat/channels/${unknown}`).send({ name: 'Ghost' }).expect(404);
      await staff.agent.patch(`/api/chat/messages/${unknown}`).send({ body: 'hi' }).expect(404);
      await staff.agent.delete(`/api/chat/messages/${unknown}`).expect(404);
      await staff.agent.get(`/api/chat/channels/${seeded.kitchen}/messages?before=${unknown}`).expect(200);
      await staff.agent.post(`/api/chat/channels/${seeded.kitchen}/read`).send({ upTo: Number(unknown) }).expect(200);
    }
  });

  it('stores and returns HTML-looking text exactly as written: rendering text safely is the client’s job', async () => {
    const id = await newChannel();
    const text = `<script>alert("hi")</script> <b>bold</b> &amp; 'quotes' https://example.com/?a=1&b=2`;
    const sent = await send(staff, id, text);
    expect(sent.body).toBe(text);
    const res = await staff.agent.get(`/api/chat/channels/${id}/messages`).expect(200);
    expect(res.type).toBe('application/json');
    expect((res.body as MessageSlice).items[0]!.body).toBe(text);
  });

  it('lets an author edit their own message (200 with editedAt), never someone else’s (403)', async () => {
    const id = await newChannel();
    const mine = await send(staff, id, 'Delivery at 9');
    const edited = (await staff.agent.patch(`/api/chat/messages/${mine.id}`).send({ body: ' Delivery at 10 ' }).expect(200)).body as ChatMessage;
    expect(edited).toMatchObject({ id: mine.id, body: 'Delivery at 10', createdAt: mine.createdAt, deleted: false });
    expect(edited.editedAt).toEqual(expect.any(String));
    expect((await thread(colleague, id)).items).toEqual([edited]);

    const notYours = await colleague.agent.patch(`/api/chat/messages/${mine.id}`).send({ body: 'Delivery cancelled' }).expect(403);
    expect(notYours.body.detail).toBe('You can only edit your own messages.');
    // Not even an admin rewrites someone else's words.
    await admin.agent.patch(`/api/chat/messages/${mine.id}`).send({ body: 'Delivery cancelled' }).expect(403);
    await staff.agent.patch(`/api/chat/messages/${mine.id}`).send({ body: '  ' }).expect(400);
    expect((await thread(staff, id)).items[0]!.body).toBe('Delivery at 10');
  });

  it('deletes an own message (204): it stays in the thread as deleted with no text, and cannot be edited or deleted again (404)', async () => {
    const id = await newChannel();
    const before = await send(staff, id, 'First');
    const oops = await send(staff, id, 'Wrong channel, sorry');
    const after = await send(colleague, id, 'Third');
    await colleague.agent.delete(`/api/chat/messages/${oops.id}`).expect(403);
    await staff.agent.delete(`/api/chat/messages/${oops.id}`).expect(204);

    const { items } = await thread(colleague, id);
    expect(items.map((m) => m.id)).toEqual([after.id, oops.id, before.id]);
    expect(items[1]).toMatchObject({ id: oops.id, deleted: true, body: '', author: { accountId: staff.id } });
    expect(JSON.stringify(items)).not.toContain('Wrong channel');
    await staff.agent.patch(`/api/chat/messages/${oops.id}`).send({ body: 'Back again' }).expect(404);
    await staff.agent.delete(`/api/chat/messages/${oops.id}`).expect(404);
    expect((await thread(staff, id)).items[1]).toMatchObject({ deleted: true, body: '' });
  });

  it('lets an admin delete anyone’s message', async () => {
    const id = await newChannel();
    const rude = await send(colleague, id, 'Something rude');
    await admin.agent.delete(`/api/chat/messages/${rude.id}`).expect(204);
    expect((await thread(staff, id)).items[0]).toMatchObject({ id: rude.id, deleted: true, body: '' });
    const kitchen = await send(runner, seeded.kitchen, 'Runner mistake');
    await admin.agent.delete(`/api/chat/messages/${kitchen.id}`).expect(204);
    await runner.agent.delete(`/api/chat/messages/${kitchen.id}`).expect(404);
  });
});

describe('unread counts', () => {
  it('counts other people’s messages after the reader’s place, never their own or deleted ones; reading lowers the counts and the total', async () => {
    const reader = await signIn(ctx, 'staff');
    const id = await newChannel();
    await send(reader, id, 'my own');
    const one = await send(staff, id, 'one');
    const two = await send(staff, id, 'two');
    const three = await send(colleague, id, 'three');
    const gone = await send(colleague, id, 'soon gone');
    await colleague.agent.delete(`/api/chat/messages/${gone.id}`).expect(204);

    const list = await channelsOf(reader);
    expect(channelIn(list, id)?.unread).toBe(3);
    expect(list.totalUnread).toBe(list.channels.reduce((sum, c) => sum + c.unread, 0));
    // The author has read what they wrote (and what came before it).
    expect(channelIn(await channelsOf(staff), id)?.unread).toBe(1);

    const partly = await readUpTo(reader, id, { upTo: two.id });
    expect(partly).toEqual({ channelId: id, lastReadId: two.id, unread: 1, totalUnread: list.totalUnread - 2 });
    // A position never moves back.
    const back = await readUpTo(reader, id, { upTo: one.id });
    expect(back).toMatchObject({ lastReadId: two.id, unread: 1 });
    const all = await readUpTo(reader, id);
    expect(all).toMatchObject({ lastReadId: expect.any(Number), unread: 0, totalUnread: list.totalUnread - 3 });
    expect(all.lastReadId).toBeGreaterThanOrEqual(three.id);
    const after = await channelsOf(reader);
    expect(channelIn(after, id)?.unread).toBe(0);
    expect(after.totalUnread).toBe(list.totalUnread - 3);

    // A new message by someone else counts again; reading ahead of the newest message stops at it.
    const four = await send(colleague, id, 'four');
    expect(channelIn(await channelsOf(reader), id)?.unread).toBe(1);
    expect(await readUpTo(reader, id, { upTo: four.id + 1000 })).toMatchObject({ lastReadId: four.id, unread: 0 });
    await send(colleague, id, 'five');
    expect(channelIn(await channelsOf(reader), id)?.unread).toBe(1);
    // Answering is reading: the reader's own message moves their place past everything before it.
    await send(reader, id, 'six');
    expect(channelIn(await channelsOf(reader), id)?.unread).toBe(0);

    for (const upTo of ['x', 0, -1, 1.5]) {
      const res = await reader.agent.post(`/api/chat/channels/${id}/read`).send({ upTo }).expect(400);
      expect(res.body.errors[0].path).toBe('body.upTo');
    }
  });

  it('does not count what was written before the reader’s account existed: a new colleague starts with nothing unread', async () => {
    // A second between each step, on a stopped clock (set in the past, so that what later tests write is newer).
    const clock = stopWallClock(Date.now() - 60_000);
    const id = await newChannel();
    await send(staff, id, 'Before you joined');
    clock.advance(1000);
    const newcomer = await signIn(ctx, 'staff');
    expect(channelIn(await channelsOf(newcomer), id)?.unread).toBe(0);
    clock.advance(1000);
    await send(staff, id, 'Welcome aboard');
    expect(channelIn(await channelsOf(newcomer), id)?.unread).toBe(1);
  });

  it('stops counting at 100 (the pill says 99+), from the reader’s place or, before they have one, from when they joined', async () => {
    const reader = await signIn(ctx, 'staff');
    const away = await newChannel();
    const never = await newChannel();
    await send(reader, away, 'Off on holiday');
    for (let i = 1; i <= 105; i++) {
      await send(colleague, away, `While you were away ${i}`);
      if (i <= 3 || i > 101) await send(colleague, never, `Never opened ${i}`);
    }
    let list = await channelsOf(reader);
    expect(channelIn(list, away)?.unread).toBe(100);
    expect(channelIn(list, never)?.unread).toBe(7);
    const { items } = await thread(reader, away, '?limit=5');
    await readUpTo(reader, away, { upTo: items[4]!.id });
    list = await channelsOf(reader);
    expect(channelIn(list, away)?.unread).toBe(4);
    expect(list.totalUnread).toBe(list.channels.reduce((sum, c) => sum + (c.archivedAt ? 0 : c.unread), 0));
  });

  it('leaves archived channels out of the total', async () => {
    const reader = await signIn(ctx, 'staff');
    const id = await newChannel();
    await send(staff, id, 'a');
    await send(staff, id, 'b');
    const before = await channelsOf(reader);
    await admin.agent.patch(`/api/chat/channels/${id}`).send({ archived: true }).expect(200);
    const after = await channelsOf(reader, '?archived=include');
    expect(channelIn(after, id)?.unread).toBe(2);
    expect(after.totalUnread).toBe(before.totalUnread - 2);
  });
});

describe('rate limit', () => {
  it('answers the 6th message within a minute with a 429 and Retry-After when the limit is 5, stores nothing for it, and leaves other senders alone', async () => {
    await withTestContext({ overrides: { messagesPerMinute: 5 } }, async (limited) => {
      const fast = await signIn(limited, 'staff');
      const other = await signIn(limited, 'staff');
      const { channels } = (await fast.agent.get('/api/chat/channels').expect(200)).body as ChannelList;
      const id = channels.find((c) => c.name === 'Front desk')!.id;
      for (let i = 1; i <= 5; i++) await fast.agent.post(`/api/chat/channels/${id}/messages`).send({ body: `burst ${i}` }).expect(201);
      const res = await fast.agent.post(`/api/chat/channels/${id}/messages`).send({ body: 'burst 6' }).expect(429);
      expect(res.type).toBe('application/problem+json');
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(res.body).toMatchObject({ status: 429, detail: expect.stringContaining('your text is kept') });

      const stored = (await fast.agent.get(`/api/chat/channels/${id}/messages`).expect(200)).body as MessageSlice;
      expect(stored.items.map((m) => m.body)).toEqual(['burst 5', 'burst 4', 'burst 3', 'burst 2', 'burst 1']);
      // Counted per account: a colleague behind the same IP still sends.
      await other.agent.post(`/api/chat/channels/${id}/messages`).send({ body: 'I can still talk' }).expect(201);
    });
  });
});

describe('live delivery on GET /api/events', () => {
  it('sends a Managers message to staff and admins and never to a runner', async () => {
    const [staffStream, adminStream, runnerStream] = await Promise.all([openEvents(colleague), openEvents(admin), openEvents(runner)]);
    try {
      const secret = await send(staff, seeded.managers, 'Pay rise for the kitchen');
      const edited = (await staff.agent.patch(`/api/chat/messages/${secret.id}`).send({ body: 'Pay rise for everyone' }).expect(200)).body as ChatMessage;
      await staff.agent.delete(`/api/chat/messages/${secret.id}`).expect(204);
      // A later event the runner does hear: anything of the Managers channel would have come before it.
      const marker = await send(staff, seeded.kitchen, 'Fryer 2 is back on');

      for (const stream of [staffStream, adminStream]) {
        expect((await stream.next(chatFrame('posted', secret.id))).data).toMatchObject({ kind: 'posted', channelId: seeded.managers, message: { body: 'Pay rise for the kitchen' } });
        expect((await stream.next(chatFrame('edited', secret.id))).data).toMatchObject({ kind: 'edited', message: { body: edited.body, editedAt: edited.editedAt } });
        await stream.next(chatFrame('deleted', secret.id));
        await stream.next(chatFrame('posted', marker.id));
      }
      await runnerStream.next(chatFrame('posted', marker.id));
      const heard = runnerStream.frames();
      expect(heard.filter((f) => f.event === 'chat').map((f) => (f.data as ChatEvent).channelId)).not.toContain(seeded.managers);
      expect(JSON.stringify(heard)).not.toContain('Pay rise');
    } finally {
      [staffStream, adminStream, runnerStream].forEach((s) => s.close());
    }
  });

  it('sends a Kitchen message to the runner, then its edit and its deletion as kind edited and deleted', async () => {
    const runnerStream = await openEvents(runner);
    try {
      const message = await send(staff, seeded.kitchen, 'Table 12 wants extra chilli');
      const posted = await runnerStream.next(chatFrame('posted', message.id));
      expect(posted.id).toMatch(/^\d+$/);
      expect(posted.data).toMatchObject({ kind: 'posted', channelId: seeded.kitchen, message: { id: message.id, body: 'Table 12 wants extra chilli', author: { name: staff.name }, deleted: false } });

      await staff.agent.patch(`/api/chat/messages/${message.id}`).send({ body: 'Table 12 wants no chilli' }).expect(200);
      const edited = await runnerStream.next(chatFrame('edited', message.id));
      expect(edited.data).toMatchObject({ kind: 'edited', message: { body: 'Table 12 wants no chilli', editedAt: expect.any(String) } });

      await staff.agent.delete(`/api/chat/messages/${message.id}`).expect(204);
      const deleted = await runnerStream.next(chatFrame('deleted', message.id));
      expect(deleted.data).toMatchObject({ kind: 'deleted', message: { id: message.id, body: '', deleted: true } });
      expect(Number(posted.id)).toBeLessThan(Number(edited.id));
      expect(Number(edited.id)).toBeLessThan(Number(deleted.id));
    } finally {
      runnerStream.close();
    }
  });

  it('stores a message only with its live event: when the event cannot be stored, neither is the message (a 500, so it is sent again, once)', async () => {
    const id = await newChannel();
    const refused = await whileLiveEventLogIsDown(ctx, () => post(staff, id, 'Fridge 3 is warm').expect(500));
    expect(refused.type).toBe('application/problem+json');
    expect((await thread(staff, id)).items).toEqual([]);
    const stored = await send(staff, id, 'Fridge 3 is warm');
    expect((await thread(staff, id)).items.map((m) => m.id)).toEqual([stored.id]);
  });

  it('answers a stored message with its 201 even when handing its event to the streams fails, and a stream resuming from before it gets it from the log', async () => {
    const id = await newChannel();
    const before = await newestLiveEventId(ctx);
    const bus = ctx.bus;
    let failed = 0;
    const stopFailing = bus.subscribe(() => {
      failed++;
      throw new Error('a stream broke');
    });
    let stored: ChatMessage;
    try {
      stored = await send(staff, id, 'Fridge 3 is warm');
      await bus.idle();
    } finally {
      stopFailing();
    }
    expect(failed).toBeGreaterThan(0);
    const resumed = await openSseStream(`${server.base}/api/events?lastEventId=${before}`, staff.cookie);
    try {
      await resumed.next(chatFrame('posted', stored.id));
    } finally {
      resumed.close();
    }
  });

  it('tells staff and a runner of the channels they may read as they are opened or changed, and never a runner of a staff-only one', async () => {
    const [staffStream, runnerStream] = await Promise.all([openEvents(staff), openEvents(runner)]);
    try {
      const hidden = await newChannel({ name: 'Payroll' });
      const open = await newChannel({ name: 'Pass', runnersMayJoin: true });
      const isChannel = (id: number) => (f: Frame) => f.event === 'chat' && (f.data as ChatEvent).kind === 'channel' && (f.data as ChatEvent).channelId === id;
      await staffStream.next(isChannel(hidden));
      await staffStream.next(isChannel(open));
      await runnerStream.next(isChannel(open));
      expect(runnerStream.frames().some(isChannel(hidden))).toBe(false);
    } finally {
      staffStream.close();
      runnerStream.close();
    }
  });
});
