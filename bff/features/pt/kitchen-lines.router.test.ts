import request from 'supertest';
import type { LiveEvent } from '../../contracts/events.contract';
import type { KitchenTicket, Order, PlacedOrder } from '../../contracts/pt.contract';
import type { Report } from '../../contracts/pt-reports.contract';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { FIGURES_ZONE_KEY, keepFiguresInZone } from './figures.repository';

/**
 * Kitchen tickets bumped line by line (issue 52, decision 0108): a line's ready time, the ticket
 * ready when all its lines are, the order when all its tickets are; allergens kept on the line as
 * ordered; each stall's preparation time in the figures, kept by the writes and counted again alike.
 */

let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let runner: Awaited<ReturnType<TestContext['loginAs']>>;
const published: LiveEvent[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ VENUE_TABLES: '30', VENUE_CURRENCY: 'eur', VENUE_TIME_ZONE: 'Europe/Amsterdam' }, { ordersPerMinute: 1000 });
  staff = await ctx.loginAs('staff');
  runner = await ctx.loginAs('runner');
  ctx.bus.subscribe((event) => published.push(event));
});
afterAll(() => ctx.close());

let seq = 0;
async function stallWith(items: Array<{ name: string; allergens?: string[] }>) {
  const { id } = (await staff.post('/api/pt/stalls').send({ name: `Kitchen ${++seq}` }).expect(201)).body as { id: number };
  const itemIds: number[] = [];
  for (const item of items) itemIds.push(((await staff.post(`/api/pt/stalls/${id}/items`).send({ name: item.name, priceCents: 500, allergens: item.allergens ?? [] }).expect(201)).body as { id: number }).id);
  return { id, itemIds };
}

/** An order of three noodle lines (one with a note) and one grill line. */
async function placeOrder() {
  const noodles = await stallWith([{ name: 'Laksa', allergens: ['peanuts', 'shellfish'] }, { name: 'Wonton soup', allergens: ['gluten'] }, { name: 'Rice' }]);
  const grill = await stallWith([{ name: 'Satay', allergens: ['peanuts'] }]);
  const cart = [
    { itemId: noodles.itemIds[0], quantity: 1, note: 'no chilli' },
    { itemId: noodles.itemIds[1], quantity: 2 },
    { itemId: grill.itemIds[0], quantity: 1 },
    { itemId: noodles.itemIds[2], quantity: 1 },
  ];
  const placed = (await request(ctx.app).post('/api/pt/order').set('Content-Type', 'application/json').send(JSON.stringify({ table: 4, cart })).expect(201)).body as PlacedOrder;
  const lineOf = (name: string) => placed.lines.find((l) => l.name === name)!.id;
  return { noodles: noodles.id, grill: grill.id, noodleItems: noodles.itemIds, placed, lineOf };
}

const tap = (stallId: number, orderId: number, lineId: number, ready: boolean, who = runner) => who.patch(`/api/pt/kitchen/${stallId}/tickets/${orderId}/lines/${lineId}`).send({ ready });
const bump = (stallId: number, orderId: number, from: string, to: string) => runner.patch(`/api/pt/kitchen/${stallId}/tickets/${orderId}`).send({ from, to });
const orderOf = async (placed: PlacedOrder) => (await request(ctx.app).get(`/api/pt/orders/${placed.id}?token=${placed.token}`).expect(200)).body as Order;
const readyNames = (ticket: KitchenTicket) => ticket.lines.filter((l) => l.readyAt !== null).map((l) => l.name);
const announcedOf = (orderId: number) => published.filter((e) => e.type === 'order' && (e.data as Order).id === orderId).map((e) => e.data as Order);

describe("a kitchen's lines", () => {
  it('keeps each line’s allergens as the dish had them when ordered, with the diner’s note, on the ticket', async () => {
    const { noodles, noodleItems, placed } = await placeOrder();
    await staff.patch(`/api/pt/items/${noodleItems[0]}`).send({ allergens: ['sesame'] }).expect(200);
    const screen = (await runner.get(`/api/pt/kitchen/${noodles}/tickets`).expect(200)).body as { tickets: KitchenTicket[] };
    const ticket = screen.tickets.find((t) => t.orderId === placed.id)!;
    expect(ticket.lines.map((l) => [l.name, l.note, l.allergens, l.readyAt])).toEqual([
      ['Laksa', 'no chilli', ['peanuts', 'shellfish'], null],
      ['Wonton soup', null, ['gluten'], null],
      ['Rice', null, [], null],
    ]);
  });

  it('starts the ticket at the first line ready, makes it ready at the last, and the order when every ticket is; each tap announced with the lines', async () => {
    const { noodles, grill, placed, lineOf } = await placeOrder();
    await ctx.bus.idle();
    published.length = 0;

    const first = (await tap(noodles, placed.id, lineOf('Laksa'), true).expect(200)).body as KitchenTicket;
    expect(first).toMatchObject({ status: 'preparing', orderStatus: 'preparing', readyAt: null });
    expect(first.preparingAt).toEqual(expect.any(String));
    expect(readyNames(first)).toEqual(['Laksa']);
    await tap(noodles, placed.id, lineOf('Wonton soup'), true).expect(200);
    const last = (await tap(noodles, placed.id, lineOf('Rice'), true).expect(200)).body as KitchenTicket;
    expect(last).toMatchObject({ status: 'ready', orderStatus: 'preparing' }); // the grill is not done
    expect(last.readyAt).toBe(last.lines.find((l) => l.name === 'Rice')!.readyAt);
    const done = (await tap(grill, placed.id, lineOf('Satay'), true).expect(200)).body as KitchenTicket;
    expect(done).toMatchObject({ status: 'ready', orderStatus: 'ready' });
    expect((await orderOf(placed)).status).toBe('ready');

    await ctx.bus.idle();
    expect(announcedOf(placed.id).map((o) => `${o.lines.filter((l) => l.readyAt).length}/${o.lines.length} ${o.tickets.map((t) => t.status).join('/')} ${o.status}`)).toEqual([
      '1/4 preparing/received preparing',
      '2/4 preparing/received preparing',
      '3/4 ready/received preparing',
      '4/4 ready/ready ready',
    ]);
  });

  it('answers a repeated tap as done, with nothing written or announced', async () => {
    const { noodles, placed, lineOf } = await placeOrder();
    const once = (await tap(noodles, placed.id, lineOf('Laksa'), true).expect(200)).body as KitchenTicket;
    await ctx.bus.idle();
    published.length = 0;
    const again = (await tap(noodles, placed.id, lineOf('Laksa'), true).expect(200)).body as KitchenTicket;
    expect(again).toEqual(once);
    await ctx.bus.idle();
    expect(announcedOf(placed.id)).toHaveLength(0);
  });

  it('takes a line back while the order is not served: a ready ticket and order are preparing again; then no more once served', async () => {
    const { noodles, grill, placed, lineOf } = await placeOrder();
    for (const name of ['Laksa', 'Wonton soup', 'Rice']) await tap(noodles, placed.id, lineOf(name), true).expect(200);
    await tap(grill, placed.id, lineOf('Satay'), true).expect(200);
    const back = (await tap(noodles, placed.id, lineOf('Wonton soup'), false).expect(200)).body as KitchenTicket;
    expect(back).toMatchObject({ status: 'preparing', readyAt: null, orderStatus: 'preparing' });
    expect(readyNames(back)).toEqual(['Laksa', 'Rice']);
    await tap(noodles, placed.id, lineOf('Wonton soup'), true).expect(200);
    expect((await orderOf(placed)).status).toBe('ready');
    await runner.patch(`/api/pt/orders/${placed.id}`).send({ status: 'served' }).expect(200);
    expect((await tap(noodles, placed.id, lineOf('Rice'), false).expect(409)).body.detail).toBe(`Order ${placed.id} is served; its dishes no longer change.`);
  });

  it('marks every line ready with a whole-ticket bump, and its undo takes back only the lines that bump made ready', async () => {
    const { noodles, placed, lineOf } = await placeOrder();
    await tap(noodles, placed.id, lineOf('Laksa'), true).expect(200);
    const ready = (await bump(noodles, placed.id, 'preparing', 'ready').expect(200)).body as KitchenTicket;
    expect(readyNames(ready)).toEqual(['Laksa', 'Wonton soup', 'Rice']);
    const undone = (await bump(noodles, placed.id, 'ready', 'preparing').expect(200)).body as KitchenTicket;
    expect(readyNames(undone)).toEqual(['Laksa']);
    const fresh = (await bump(noodles, placed.id, 'preparing', 'received').expect(200)).body as KitchenTicket;
    expect(readyNames(fresh)).toEqual([]);
  });

  it("marks every stall's lines ready when the runner makes the whole order ready", async () => {
    const { placed } = await placeOrder();
    const ready = (await runner.patch(`/api/pt/orders/${placed.id}`).send({ status: 'preparing' }).expect(200)).body as Order;
    expect(ready.lines.every((l) => l.readyAt === null)).toBe(true);
    const done = (await runner.patch(`/api/pt/orders/${placed.id}`).send({ status: 'ready' }).expect(200)).body as Order;
    expect(done.lines.every((l) => l.readyAt === done.updatedAt)).toBe(true);
  });

  it('makes the ticket ready exactly once when its last two lines are tapped at the same moment', async () => {
    const { noodles, placed, lineOf } = await placeOrder();
    await tap(noodles, placed.id, lineOf('Laksa'), true).expect(200);
    await ctx.bus.idle();
    published.length = 0;
    const answers = await Promise.all([tap(noodles, placed.id, lineOf('Wonton soup'), true), tap(noodles, placed.id, lineOf('Rice'), true)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const ticket = ((await runner.get(`/api/pt/kitchen/${noodles}/tickets`).expect(200)).body as { tickets: KitchenTicket[] }).tickets.find((t) => t.orderId === placed.id)!;
    expect(ticket.status).toBe('ready');
    expect(readyNames(ticket)).toEqual(['Laksa', 'Wonton soup', 'Rice']);
    await ctx.bus.idle();
    const announced = announcedOf(placed.id).map((o) => o.tickets.find((t) => t.stallId === noodles)!.status);
    expect(announced.filter((status) => status === 'ready')).toHaveLength(1);
    expect(announced).toHaveLength(2);
    // One ticket made ready: counted once in the stall's preparation.
    const stall = (await report()).byStall.find((s) => s.stallId === noodles)!;
    expect(stall.prepTickets).toBe(1);
  });

  it('answers 404 for a line of another stall or order, 400 for a bad body, 401 without an account', async () => {
    const { noodles, grill, placed, lineOf } = await placeOrder();
    expect((await tap(noodles, placed.id, lineOf('Satay'), true).expect(404)).body.detail).toContain(`has no line ${lineOf('Satay')}`);
    await tap(grill, 999999, lineOf('Satay'), true).expect(404);
    await runner.patch(`/api/pt/kitchen/${noodles}/tickets/${placed.id}/lines/${lineOf('Laksa')}`).send({ ready: 'yes' }).expect(400);
    await request(ctx.app).patch(`/api/pt/kitchen/${noodles}/tickets/${placed.id}/lines/${lineOf('Laksa')}`).send({ ready: true }).expect(401);
  });
});

const report = async () => (await staff.get('/api/pt/reports').expect(200)).body as Report;

describe("each stall's preparation time in the figures", () => {
  it('averages received → ready of the tickets made ready, follows an undo, and counts the same again from the orders', async () => {
    const { noodles, grill, placed, lineOf } = await placeOrder();
    const second = await placeOrder();
    // Received 10 and 4 minutes ago.
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    await ctx.database.db.updateTable('order_tickets').set({ received_at: minutesAgo(10) }).where('order_id', '=', placed.id).execute();
    await ctx.database.db.updateTable('order_tickets').set({ received_at: minutesAgo(4) }).where('order_id', '=', second.placed.id).execute();

    await bump(noodles, placed.id, 'received', 'preparing').expect(200);
    await bump(noodles, placed.id, 'preparing', 'ready').expect(200);
    for (const name of ['Laksa', 'Wonton soup', 'Rice']) await tap(second.noodles, second.placed.id, second.lineOf(name), true).expect(200);
    await tap(grill, placed.id, lineOf('Satay'), true).expect(200);
    await tap(grill, placed.id, lineOf('Satay'), false).expect(200); // taken back: it leaves the figures

    const kept = (await report()).byStall;
    const stallOf = (id: number) => kept.find((s) => s.stallId === id)!;
    expect(stallOf(noodles)).toMatchObject({ prepTickets: 1, averagePrepSeconds: expect.any(Number) });
    expect(Math.round(stallOf(noodles).averagePrepSeconds! / 60)).toBe(10);
    expect(Math.round(stallOf(second.noodles).averagePrepSeconds! / 60)).toBe(4);
    expect(stallOf(grill)).toMatchObject({ prepTickets: 0, averagePrepSeconds: null });

    // Counted again from the orders (a zone changed, the first start after migration 040): the same.
    await ctx.database.db.deleteFrom('app_meta').where('key', '=', FIGURES_ZONE_KEY).execute();
    expect(await keepFiguresInZone(ctx.database, 'Europe/Amsterdam')).toBe(true);
    const counted = (await report()).byStall;
    expect(counted).toEqual(kept);

    const csv = (await staff.get('/api/pt/reports/export.csv').expect(200)).text;
    const [heading, ...rows] = csv.trim().split(/\r?\n/);
    expect(heading).toContain('tickets ready,average prep (minutes)');
    const stallName = counted.find((s) => s.stallId === noodles)!.stallName;
    expect(rows.filter((r) => r.includes(`,${stallName},`)).some((r) => /,1,10\.0$/.test(r))).toBe(true);
  });

  it("keeps a deleted stall's preparation under its name, through a count again", async () => {
    const { grill, placed, lineOf } = await placeOrder();
    await tap(grill, placed.id, lineOf('Satay'), true).expect(200);
    await runner.patch(`/api/pt/orders/${placed.id}`).send({ status: 'cancelled' }).expect(200);
    const name = (await report()).byStall.find((s) => s.stallId === grill)!.stallName;
    await staff.delete(`/api/pt/stalls/${grill}`).expect(204);
    const gone = () => report().then((r) => r.byStall.find((s) => s.stallId === null && s.stallName === name));
    expect(await gone()).toMatchObject({ prepTickets: 1 });
    await ctx.database.db.deleteFrom('app_meta').where('key', '=', FIGURES_ZONE_KEY).execute();
    await keepFiguresInZone(ctx.database, 'Europe/Amsterdam');
    expect(await gone()).toMatchObject({ prepTickets: 1 });
  });
});
