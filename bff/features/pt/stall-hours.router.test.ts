import request from 'supertest';
import type { LiveEvent } from '../../contracts/events.contract';
import type { Menu, MenuItem, Stall } from '../../contracts/pt.contract';
import { WEEKDAYS, type WeeklyHours } from '../../contracts/stall-hours.contract';
import { listenOnAnyPort, openSseStream } from '../../test-support/live-client';
import { createTestContext, type TestContext } from '../../test-support/test-app';

/** Opening hours, closing the stall for good, opening it from the ordering side, a kitchen's sold-out switch, and the menu's live changes. */

let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let runner: Awaited<ReturnType<TestContext['loginAs']>>;
const published: LiveEvent[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ VENUE_TIME_ZONE: 'UTC' }, { ordersPerMinute: 1000 });
  staff = await ctx.loginAs('staff');
  runner = await ctx.loginAs('runner');
  ctx.bus.subscribe((event) => published.push(event));
});
afterAll(() => ctx.close());

let seq = 0;
async function stallWith(prices: number[], name = `Hours stall ${++seq}`) {
  const { id } = (await staff.post('/api/pt/stalls').send({ name }).expect(201)).body as { id: number };
  const itemIds: number[] = [];
  for (const priceCents of prices) itemIds.push(((await staff.post(`/api/pt/stalls/${id}/items`).send({ name: `Dish ${++seq}`, priceCents }).expect(201)).body as { id: number }).id);
  return { id, itemIds };
}

const closedAllWeek: WeeklyHours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
/** Open only on the weekday two days from today (UTC, the test's venue zone), 11:30–14:30: closed now whatever the hour. */
function openInTwoDays(): { hours: WeeklyHours; opensAt: string; words: string } {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2, 11, 30));
  const weekday = WEEKDAYS[(day.getUTCDay() + 6) % 7]!;
  return { hours: { ...closedAllWeek, [weekday]: [{ opens: '11:30', closes: '14:30' }] }, opensAt: day.toISOString(), words: `${day.toUTCString().slice(0, 3)} 11:30` };
}
const menu = async () => (await request(ctx.app).get('/api/pt/menu').expect(200)).body as Menu;

describe("a stall's opening hours", () => {
  it('are kept by staff, checked with clear words, and null clears them', async () => {
    const { id } = await stallWith([]);
    const problem = async (hours: unknown) => (await staff.patch(`/api/pt/stalls/${id}`).send({ hours }).expect(400)).body as { errors: Array<{ path: string; message: string }> };
    expect((await problem({ ...closedAllWeek, mon: [{ opens: '14:00', closes: '11:00' }] })).errors).toEqual([
      { path: 'body.hours.mon.0.closes', message: 'It must close after it opens. Open past midnight? Close at 24:00 and open at 00:00 the next day' },
    ]);
    expect((await problem({ ...closedAllWeek, tue: [{ opens: '11:00', closes: '15:00' }, { opens: '14:00', closes: '18:00' }] })).errors).toEqual([
      { path: 'body.hours.tue', message: 'Opening times on one day must not overlap' },
    ]);
    expect((await problem({ ...closedAllWeek, wed: [{ opens: '9:00', closes: '25:00' }] })).errors.map((e) => e.path)).toEqual(['body.hours.wed.0.opens', 'body.hours.wed.0.closes']);
    expect((await problem({ mon: [] })).errors[0]!.path).toBe('body.hours.tue');
    await runner.patch(`/api/pt/stalls/${id}`).send({ hours: null }).expect(403);

    const hours = { ...closedAllWeek, fri: [{ opens: '18:00', closes: '24:00' }], sat: [{ opens: '00:00', closes: '02:00' }, { opens: '11:00', closes: '14:00' }, { opens: '14:00', closes: '18:00' }] };
    expect(((await staff.patch(`/api/pt/stalls/${id}`).send({ hours }).expect(200)).body as Stall).hours).toEqual(hours);
    expect(((await request(ctx.app).get(`/api/pt/stalls/${id}`).expect(200)).body as Stall).hours).toEqual(hours);
    expect(((await staff.patch(`/api/pt/stalls/${id}`).send({ hours: null }).expect(200)).body as Stall).hours).toBeNull();
  });

  it('leave a stall without hours open as before; a closed or paused one stays on the menu, saying so, after the open ones', async () => {
    const always = await stallWith([500]);
    const closed = await stallWith([500]);
    const paused = await stallWith([500]);
    const later = openInTwoDays();
    await staff.patch(`/api/pt/stalls/${closed.id}`).send({ hours: later.hours }).expect(200);
    await staff.patch(`/api/pt/stalls/${paused.id}`).send({ status: 'paused' }).expect(200);
    const shown = await menu();
    expect(shown.timeZone).toBe('UTC');
    const of = (id: number) => shown.stalls.find((s) => s.id === id)!;
    expect(of(always.id).availability).toEqual({ state: 'open', opensAt: null, closesAt: null });
    expect(of(closed.id).availability).toEqual({ state: 'closed', opensAt: later.opensAt, closesAt: null });
    expect(of(closed.id).items).toHaveLength(1);
    expect(of(paused.id).availability).toEqual({ state: 'paused', opensAt: null, closesAt: null });
    const states = shown.stalls.map((s) => s.availability.state);
    expect(states).toEqual([...states].sort((a, b) => ['open', 'closed', 'paused'].indexOf(a) - ['open', 'closed', 'paused'].indexOf(b)));

    const allDay = Object.fromEntries(WEEKDAYS.map((day) => [day, [{ opens: '00:00', closes: '24:00' }]]));
    await staff.patch(`/api/pt/stalls/${closed.id}`).send({ hours: allDay }).expect(200);
    expect((await menu()).stalls.find((s) => s.id === closed.id)!.availability).toMatchObject({ state: 'open', opensAt: null });
  });

  it('refuse an order with a line from a closed stall (409, saying when it opens), and store nothing', async () => {
    const open = await stallWith([500]);
    const closed = await stallWith([700], 'Night Market');
    const later = openInTwoDays();
    await staff.patch(`/api/pt/stalls/${closed.id}`).send({ hours: later.hours }).expect(200);
    const res = await request(ctx.app)
      .post('/api/pt/order')
      .send({ table: 2, cart: [{ itemId: open.itemIds[0], quantity: 1 }, { itemId: closed.itemIds[0], quantity: 1 }] })
      .expect(409);
    expect(res.type).toBe('application/problem+json');
    expect(res.body.errors).toEqual([{ path: 'body.cart.1', message: `Night Market is closed now; it opens ${later.words}.` }]);
    const orders = await ctx.database.db.selectFrom('order_lines').where('item_id', '=', open.itemIds[0]!).select('id').execute();
    expect(orders).toEqual([]);
    // Opened by its hours, it takes the order.
    await staff.patch(`/api/pt/stalls/${closed.id}`).send({ hours: null }).expect(200);
    await request(ctx.app).post('/api/pt/order').send({ table: 2, cart: [{ itemId: closed.itemIds[0], quantity: 1 }] }).expect(201);
  });
});

describe("a kitchen's sold-out switch", () => {
  it("lets the crew mark their stall's own dish sold out and back, not another stall's, not a stranger", async () => {
    const mine = await stallWith([500, 600]);
    const theirs = await stallWith([700]);
    await request(ctx.app).patch(`/api/pt/kitchen/${mine.id}/items/${mine.itemIds[0]}`).send({ soldOut: true }).expect(401);
    const marked = (await runner.patch(`/api/pt/kitchen/${mine.id}/items/${mine.itemIds[0]}`).send({ soldOut: true }).expect(200)).body as MenuItem;
    expect(marked).toMatchObject({ id: mine.itemIds[0], stallId: mine.id, soldOut: true });
    expect((await menu()).stalls.find((s) => s.id === mine.id)!.items.find((i) => i.id === mine.itemIds[0])!.soldOut).toBe(true);
    const refused = await runner.patch(`/api/pt/kitchen/${mine.id}/items/${theirs.itemIds[0]}`).send({ soldOut: true }).expect(404);
    expect(refused.body.detail).toBe(`No dish with id ${theirs.itemIds[0]} at this stall.`);
    expect((await menu()).stalls.find((s) => s.id === theirs.id)!.items[0]!.soldOut).toBe(false);
    await runner.patch(`/api/pt/kitchen/${mine.id}/items/${mine.itemIds[0]}`).send({ soldOut: 'yes' }).expect(400);
    await staff.patch(`/api/pt/kitchen/${mine.id}/items/${mine.itemIds[0]}`).send({ soldOut: false }).expect(200);
    const trail = await ctx.database.db.selectFrom('audit_entries').selectAll().where('subject_id', '=', String(mine.itemIds[0])).where('kind', '=', 'menu_item').where('action', '=', 'updated').execute();
    expect(trail).toHaveLength(2);
  });

  it('announces each menu change with its data, once it commits, and nothing for a change that changes nothing', async () => {
    const { id, itemIds } = await stallWith([500]);
    await ctx.bus.idle();
    published.length = 0;
    await runner.patch(`/api/pt/kitchen/${id}/items/${itemIds[0]}`).send({ soldOut: true }).expect(200);
    await runner.patch(`/api/pt/kitchen/${id}/items/${itemIds[0]}`).send({ soldOut: true }).expect(200);
    await staff.patch(`/api/pt/stalls/${id}`).send({ status: 'paused' }).expect(200);
    await ctx.bus.idle();
    expect(published.map((e) => [e.type, (e.data as { kind: string }).kind])).toEqual([
      ['menu', 'item'],
      ['menu', 'stall'],
    ]);
    expect(published[0]!.data).toMatchObject({ kind: 'item', item: { id: itemIds[0], soldOut: true } });
    expect(published[1]!.data).toMatchObject({ kind: 'stall', stall: { id, status: 'paused' } });
  });

  it("reaches a diner's menu stream (no account) live, and nothing else does", async () => {
    const { id, itemIds } = await stallWith([500]);
    const live = await listenOnAnyPort(ctx);
    const stream = await openSseStream(`${live.base}/api/pt/menu/stream`, '');
    expect(stream.text()).toMatch(/^retry: 3000\nid: \d+\n\n/);
    // An order is no menu change: it is not on this stream.
    await request(ctx.app).post('/api/pt/order').send({ table: 1, cart: [{ itemId: itemIds[0], quantity: 1 }] }).expect(201);
    await runner.patch(`/api/pt/kitchen/${id}/items/${itemIds[0]}`).send({ soldOut: true }).expect(200);
    const change = await stream.next((frame) => frame.event === 'menu');
    expect(change.id).toMatch(/^\d+$/);
    expect(change.data).toMatchObject({ kind: 'item', item: { id: itemIds[0], stallId: id, soldOut: true } });
    expect(stream.frames().some((frame) => frame.event === 'order')).toBe(false);
    stream.close();
    await live.close();
  });
});
