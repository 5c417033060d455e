import { CompiledQuery, sql } from 'kysely';
import request from 'supertest';
import type { Page } from '../../contracts/common.contract';
import type { LiveEvent } from '../../contracts/events.contract';
import type { Kitchen, KitchenTicket, Menu, Order, PlacedOrder, StallWithItems } from '../../contracts/pt.contract';
import { listenOnAnyPort, openSseStream } from '../../test-support/live-client';
import { createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';
import { matchingOrders, orderPageQuery, queuesQuery, recentTicketsQuery } from './orders.repository';

let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let runner: Awaited<ReturnType<TestContext['loginAs']>>;
const published: LiveEvent[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ VENUE_TABLES: '30', VENUE_CURRENCY: 'eur' }, { ordersPerMinute: 1000 });
  staff = await ctx.loginAs('staff');
  runner = await ctx.loginAs('runner');
  ctx.bus.subscribe((event) => published.push(event));
});
afterAll(() => ctx.close());

let seq = 0;
/** A stall with the given items, made through the API as a stall holder would. */
async function stallWith(items: Array<{ name?: string; priceCents: number; category?: string; soldOut?: boolean }>, name = `Stall ${++seq}`) {
  const { id } = (await staff.post('/api/pt/stalls').send({ name, cuisine: 'Test', description: 'A test stall' }).expect(201)).body as { id: number };
  const itemIds: number[] = [];
  for (const item of items) {
    const created = (await staff.post(`/api/pt/stalls/${id}/items`).send({ name: item.name ?? `Dish ${++seq}`, priceCents: item.priceCents, category: item.category }).expect(201)).body as { id: number };
    if (item.soldOut) await staff.patch(`/api/pt/items/${created.id}`).send({ soldOut: true }).expect(200);
    itemIds.push(created.id);
  }
  return { id, itemIds };
}

const order = (body: unknown, key?: string) => {
  const req = request(ctx.app).post('/api/pt/order').set('Content-Type', 'application/json');
  if (key) req.set('Idempotency-Key', key);
  return req.send(typeof body === 'string' ? body : JSON.stringify(body));
};

describe('stalls and menus', () => {
  it('lets anyone browse stalls by name, search them and page them', async () => {
    await stallWith([{ priceCents: 500 }], 'Zebra Noodles');
    await stallWith([], 'Aardvark Grill');
    const page = (await request(ctx.app).get('/api/pt/stalls?page=0&pageSize=100').expect(200)).body as { items: Array<{ name: string; itemCount: number; status: string }>; total: number };
    const names = page.items.map((s) => s.name);
    expect(names.indexOf('Aardvark Grill')).toBeLessThan(names.indexOf('Zebra Noodles'));
    expect(page.items.find((s) => s.name === 'Zebra Noodles')).toMatchObject({ itemCount: 1, status: 'open' });
    const found = (await request(ctx.app).get('/api/pt/stalls?query=zebra').expect(200)).body as { items: Array<{ name: string }>; total: number };
    expect(found).toMatchObject({ total: 1, items: [{ name: 'Zebra Noodles' }] });
    expect((await request(ctx.app).get('/api/pt/stalls?query=100%25').expect(200)).body.total).toBe(0);
    await request(ctx.app).get('/api/pt/stalls?page=-1').expect(400);
  });

  it('shows one stall with its menu in the order it was written (categories as first used); 404 for an unknown id, 400 for a malformed one', async () => {
    const { id } = await stallWith([
      { name: 'Soup', priceCents: 400, category: 'Starters' },
      { name: 'Stew', priceCents: 900, category: 'Mains' },
      { name: 'Bread', priceCents: 200, category: 'Starters' },
      { name: 'Water', priceCents: 100, category: 'Drinks' },
    ]);
    const stall = (await request(ctx.app).get(`/api/pt/stalls/${id}`).expect(200)).body as StallWithItems;
    expect(stall.items.map((i) => [i.category, i.name, i.priceCents, i.soldOut])).toEqual([
      ['Starters', 'Soup', 400, false],
      ['Starters', 'Bread', 200, false],
      ['Mains', 'Stew', 900, false],
      ['Drinks', 'Water', 100, false],
    ]);
    expect((await request(ctx.app).get('/api/pt/stalls/999999').expect(404)).body.detail).toBe('No stall with id 999999.');
    await request(ctx.app).get('/api/pt/stalls/abc').expect(400);
  });

  it('lets staff and admins keep stalls and items, but not runners or strangers', async () => {
    await request(ctx.app).post('/api/pt/stalls').send({ name: 'Nope' }).expect(401);
    await runner.post('/api/pt/stalls').send({ name: 'Nope' }).expect(403);
    const { id, itemIds } = await stallWith([{ priceCents: 700 }]);
    await runner.patch(`/api/pt/items/${itemIds[0]}`).send({ soldOut: true }).expect(403);
    await request(ctx.app).delete(`/api/pt/stalls/${id}`).expect(401);
  });

  it('names each invalid field of a stall or an item', async () => {
    const blank = await staff.post('/api/pt/stalls').send({ name: '   ', cuisine: 'x'.repeat(41) }).expect(400);
    expect(blank.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'body.name', message: 'Enter the stall’s name' },
        { path: 'body.cuisine', message: 'Use at most 40 characters' },
      ]),
    );
    const { id, itemIds } = await stallWith([{ priceCents: 100 }]);
    for (const priceCents of [-1, 1.5, '500', 100_001]) {
      const res = await staff.post(`/api/pt/stalls/${id}/items`).send({ name: 'Bad', priceCents }).expect(400);
      expect(res.body.errors[0].path).toBe('body.priceCents');
    }
    await staff.patch(`/api/pt/items/${itemIds[0]}`).send({}).expect(400);
    await staff.post('/api/pt/stalls/999999/items').send({ name: 'Lost', priceCents: 100 }).expect(404);
    await staff.patch('/api/pt/items/999999').send({ soldOut: true }).expect(404);
    await staff.post('/api/pt/stalls').set('Content-Type', 'application/json').send('{"name": ').expect(400);
  });

  it('changes an item (price, sold out, allergens) and a stall (pause), and deletes an item', async () => {
    const { id, itemIds } = await stallWith([{ priceCents: 800 }]);
    const changed = await staff.patch(`/api/pt/items/${itemIds[0]}`).send({ priceCents: 850, soldOut: true, allergens: ['peanuts'], description: '' }).expect(200);
    expect(changed.body).toMatchObject({ priceCents: 850, soldOut: true, allergens: ['peanuts'], description: null });
    expect((await staff.patch(`/api/pt/stalls/${id}`).send({ status: 'paused' }).expect(200)).body).toMatchObject({ id, status: 'paused' });
    await staff.delete(`/api/pt/items/${itemIds[0]}`).expect(204);
    await staff.delete(`/api/pt/items/${itemIds[0]}`).expect(404);
  });

  it("gives diners every stall with every item, sold-out ones flagged, a paused one said so, and the venue's terms", async () => {
    const open = await stallWith([{ name: 'Available', priceCents: 500 }, { name: 'Gone', priceCents: 500, soldOut: true }]);
    const paused = await stallWith([{ priceCents: 500 }]);
    await staff.patch(`/api/pt/stalls/${paused.id}`).send({ status: 'paused' }).expect(200);
    const menu = (await request(ctx.app).get('/api/pt/menu').expect(200)).body as { currency: string; tables: number; stalls: StallWithItems[] };
    expect(menu).toMatchObject({ currency: 'EUR', tables: 30 });
    expect(menu.stalls.find((s) => s.id === paused.id)).toMatchObject({ availability: { state: 'paused' } });
    expect(menu.stalls.find((s) => s.id === open.id)!.items.map((i) => [i.name, i.soldOut])).toEqual([
      ['Available', false],
      ['Gone', true],
    ]);
  });
});

describe('POST /api/pt/order', () => {
  it('prices the order from the menu, ignoring any price the browser sends, and announces it', async () => {
    const a = await stallWith([{ priceCents: 650 }, { priceCents: 250 }]);
    const b = await stallWith([{ priceCents: 1190 }]);
    published.length = 0;
    const res = await order({
      table: 12,
      cart: [
        { itemId: a.itemIds[0], quantity: 2, note: 'no chilli', priceCents: 1 },
        { itemId: a.itemIds[1], quantity: 1, totalCents: 0 },
        { itemId: b.itemIds[0], quantity: 1 },
      ],
      totalCents: 3,
    }).expect(201);
    const placed = res.body as PlacedOrder;
    expect(placed).toMatchObject({ table: 12, status: 'received', totalCents: 2 * 650 + 250 + 1190 });
    expect(placed.lines.map((l) => [l.stallId, l.unitPriceCents, l.quantity, l.note])).toEqual([
      [a.id, 650, 2, 'no chilli'],
      [a.id, 250, 1, null],
      [b.id, 1190, 1, null],
    ]);
    expect(placed.token).toMatch(/^[\w-]{20,}$/);
    await ctx.bus.idle(); // announced after the commit, not before the answer
    expect(published).toEqual([expect.objectContaining({ type: 'order', data: expect.objectContaining({ id: placed.id, status: 'received' }) })]);
    expect(JSON.stringify(published[0]!.data)).not.toContain(placed.token);
  });

  it('refuses sold-out items, paused stalls and items no longer on the menu with a 409 naming each line, and stores nothing', async () => {
    const open = await stallWith([{ priceCents: 500 }, { priceCents: 600, soldOut: true }]);
    const paused = await stallWith([{ priceCents: 700 }], 'Closed For Now');
    await staff.patch(`/api/pt/stalls/${paused.id}`).send({ status: 'paused' }).expect(200);
    const before = await ctx.database.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await order({
      table: 3,
      cart: [
        { itemId: open.itemIds[0], quantity: 1 },
        { itemId: open.itemIds[1], quantity: 1 },
        { itemId: paused.itemIds[0], quantity: 1 },
        { itemId: 999999, quantity: 1 },
      ],
    }).expect(409);
    expect(res.type).toBe('application/problem+json');
    expect(res.body.errors).toEqual([
      { path: 'body.cart.1', message: expect.stringContaining('sold out') },
      { path: 'body.cart.2', message: 'Closed For Now is not taking orders right now.' },
      { path: 'body.cart.3', message: 'This item is no longer on the menu.' },
    ]);
    const after = await ctx.database.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers 400 naming the field for a bad quantity, table, cart or body', async () => {
    const { itemIds } = await stallWith([{ priceCents: 500 }]);
    const cases: Array<[unknown, string]> = [
      [{ table: 1, cart: [{ itemId: itemIds[0], quantity: 0 }] }, 'body.cart.0.quantity'],
      [{ table: 1, cart: [{ itemId: itemIds[0], quantity: 999 }] }, 'body.cart.0.quantity'],
      [{ table: 1, cart: [{ itemId: itemIds[0], quantity: 1.5 }] }, 'body.cart.0.quantity'],
      [{ table: 1, cart: [{ itemId: 'one', quantity: 1 }] }, 'body.cart.0.itemId'],
      [{ table: 0, cart: [{ itemId: itemIds[0], quantity: 1 }] }, 'body.table'],
      [{ table: 31, cart: [{ itemId: itemIds[0], quantity: 1 }] }, 'body.table'],
      [{ table: 1, cart: [] }, 'body.cart'],
      [{ table: 1 }, 'body.cart'],
      [{ table: 1, cart: [{ itemId: itemIds[0], quantity: 1, note: 'x'.repeat(141) }] }, 'body.cart.0.note'],
    ];
    for (const [body, path] of cases) {
      const res = await order(body).expect(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect((await order('{"table": 1, "cart": [').expect(400)).type).toBe('application/problem+json');
    await order({ table: 1, cart: [{ itemId: itemIds[0], quantity: 1 }] }, 'bad key!').expect(400);
  });

  it('answers a retried submit with the same order, once, even when the retries race', async () => {
    const { itemIds } = await stallWith([{ priceCents: 500 }]);
    const body = { table: 7, cart: [{ itemId: itemIds[0], quantity: 2 }] };
    const first = (await order(body, 'table7-cart-aaaa').expect(201)).body as PlacedOrder;
    const again = (await order(body, 'table7-cart-aaaa').expect(201)).body as PlacedOrder;
    // The same order, and the retry is told it found an earlier one rather than placed it.
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ ...first, replayed: true });

    const racing = await Promise.all(Array.from({ length: 8 }, () => order(body, 'table7-cart-bbbb')));
    const ids = new Set(racing.map((res) => (res.body as PlacedOrder).id));
    expect(racing.map((res) => res.status)).toEqual(Array(8).fill(201));
    expect(racing.filter((res) => !(res.body as PlacedOrder).replayed)).toHaveLength(1);
    expect(ids.size).toBe(1);
    expect(await ctx.database.db.selectFrom('orders').select('id').where('idempotency_key', '=', 'table7-cart-bbbb').execute()).toHaveLength(1);

    const other = await order({ table: 7, cart: [{ itemId: itemIds[0], quantity: 3 }] }, 'table7-cart-aaaa').expect(422);
    expect(other.body.detail).toContain('already used for a different order');
  });

  it('is rate limited per client, generously, with a clear 429', async () => {
    await withTestContext({ overrides: { ordersPerMinute: 3 } }, async (limited) => {
      const body = JSON.stringify({ table: 1, cart: [{ itemId: 999999, quantity: 1 }] });
      for (let i = 0; i < 3; i++) await request(limited.app).post('/api/pt/order').set('Content-Type', 'application/json').send(body).expect(409);
      const res = await request(limited.app).post('/api/pt/order').set('Content-Type', 'application/json').send(body).expect(429);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.body.detail).toContain('nothing was ordered twice');
    });
  });
});

describe("a diner's own order", () => {
  it('is readable with its token only', async () => {
    const { itemIds } = await stallWith([{ priceCents: 500 }]);
    const placed = (await order({ table: 4, cart: [{ itemId: itemIds[0], quantity: 1 }] }).expect(201)).body as PlacedOrder;
    const mine = await request(ctx.app).get(`/api/pt/orders/${placed.id}?token=${placed.token}`).expect(200);
    expect(mine.body).toMatchObject({ id: placed.id, status: 'received', table: 4 });
    expect(mine.body.token).toBeUndefined();
    await request(ctx.app).get(`/api/pt/orders/${placed.id}`).expect(404);
    await request(ctx.app).get(`/api/pt/orders/${placed.id}?token=${placed.token.slice(0, -1)}${placed.token.endsWith('x') ? 'y' : 'x'}`).expect(404);
  });

  it('streams its status to the diner as the runner moves it', async () => {
    const { itemIds } = await stallWith([{ priceCents: 500 }]);
    const placed = (await order({ table: 5, cart: [{ itemId: itemIds[0], quantity: 1 }] }).expect(201)).body as PlacedOrder;
    const live = await listenOnAnyPort(ctx);
    const stream = await openSseStream(`${live.base}/api/pt/orders/${placed.id}/stream?token=${placed.token}`, '');
    // Its first message says where it stands, so a reconnect before any change resumes from there.
    expect(stream.text()).toMatch(/^retry: 3000\nid: \d+\n\n/);
    expect((await stream.next((frame) => frame.event === 'order')).data).toMatchObject({ id: placed.id, table: 5, status: 'received' });
    await runner.patch(`/api/pt/orders/${placed.id}`).send({ status: 'preparing' }).expect(200);
    // Each change carries its event's id (the browser's Last-Event-ID moves with it).
    const preparing = await stream.next((frame) => frame.event === 'order' && (frame.data as { status: string }).status === 'preparing');
    expect(preparing.id).toMatch(/^\d+$/);
    expect(preparing.data).toMatchObject({ id: placed.id, table: 5 });
    stream.close();
    await live.close();
    const stranger = await request(ctx.app).get(`/api/pt/orders/${placed.id}/stream?token=wrong`).expect(404);
    expect(stranger.type).toBe('application/problem+json');
  });
});

describe('the runner board', () => {
  it('lists open orders oldest first for runners and staff, not for strangers', async () => {
    const { itemIds } = await stallWith([{ priceCents: 500 }]);
    const first = (await order({ table: 1, cart: [{ itemId: itemIds[0], quantity: 1 }] }).expect(201)).body as PlacedOrder;
    const second = (await order({ table: 2, cart: [{ itemId: itemIds[0], quantity: 1 }] }).expect(201)).body as PlacedOrder;
    await request(ctx.app).get('/api/pt/orders').expect(401);
    const board = (await runner.get('/api/pt/orders?pageSize=100').expect(200)).body as { items: Order[] };
    const ids = board.items.map((o) => o.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(board.items.every((o) => ['received', 'preparing', 'ready'].includes(o.status))).toBe(true);
    await staff.get('/api/pt/orders?status=served').expect(200);
    await runner.get('/api/pt/orders?status=eaten').expect(400);
  });

  it('pages the served orders by Next and Previous, and says 1,000+ rather than counting years of them', async () => {
    // Old served orders, written as years of history are (no lines: the list reads what there is).
    const { db } = ctx.database;
    const old = Array.from({ length: 1_010 }, (_, i) => {
      const at = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
      return { table_number: 1, status: 'served' as const, total_cents: 100, token: `old-${i}`, request_hash: `old-${i}`, created_at: at, updated_at: at };
    });
    for (let i = 0; i < old.length; i += 200) await db.insertInto('orders').values(old.slice(i, i + 200)).execute();
    type Listed = Page<Order> & { totalIsLowerBound?: boolean; next?: string; previous?: string };
    const list = async (query: string) => (await staff.get(`/api/pt/orders?status=served&${query}`).expect(200)).body as Listed;

    const ten = await list('pageSize=10');
    const first = await list('pageSize=5');
    expect(first).toMatchObject({ page: 0, total: 1_000, totalIsLowerBound: true });
    expect(first.previous).toBeUndefined();
    const second = await list(`pageSize=5&next=${first.next!}`);
    expect(second.page).toBe(1);
    expect([...first.items, ...second.items].map((o) => o.id)).toEqual(ten.items.map((o) => o.id));
    expect((await list(`pageSize=5&previous=${second.previous!}`)).items.map((o) => o.id)).toEqual(first.items.map((o) => o.id));
    // A cursor that is not one is refused in words.
    await staff.get('/api/pt/orders?status=served&next=nonsense').expect(400);
    await db.deleteFrom('orders').where('token', 'like', 'old-%').execute();
  });

  it('answers each board read with the open orders as they are after every change already answered, here or on another instance', async () => {
    const { id: stallId, itemIds } = await stallWith([{ priceCents: 500 }]);
    const board = async () => ((await runner.get('/api/pt/orders?status=open&pageSize=100').expect(200)).body as Page<Order>).items;
    const onBoard = async (orderId: number) => (await board()).find((o) => o.id === orderId);
    await board();
    const placed = (await order({ table: 3, cart: [{ itemId: itemIds[0], quantity: 1 }] }).expect(201)).body as PlacedOrder;
    expect(await onBoard(placed.id)).toMatchObject({ status: 'received', tickets: [{ status: 'received' }] });
    await runner.patch(`/api/pt/kitchen/${stallId}/tickets/${placed.id}`).send({ from: 'received', to: 'preparing' }).expect(200);
    expect(await onBoard(placed.id)).toMatchObject({ status: 'preparing', tickets: [{ status: 'preparing' }] });

    // Another instance's change reaches this one as its order event (the database is shared).
    await ctx.bus.write(async (tx, announce) => {
      await tx.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', placed.id).execute();
      announce('order', { ...placed, status: 'cancelled' });
    });
    await ctx.bus.idle();
    expect(await onBoard(placed.id)).toBeUndefined();
  });

  it('moves an order one step on or back, refuses a jump with a 409, and announces each change', async () => {
    const { itemIds } = await stallWith([{ priceCents: 500 }]);
    const placed = (await order({ table: 9, cart: [{ itemId: itemIds[0], quantity: 1 }] }).expect(201)).body as PlacedOrder;
    const move = (status: string) => runner.patch(`/api/pt/orders/${placed.id}`).send({ status });
    const jump = await move('served').expect(409);
    expect(jump.body.detail).toBe(`Order ${placed.id} is received; it cannot go to served from there.`);
    published.length = 0;
    await move('preparing').expect(200);
    await move('ready').expect(200);
    await move('preparing').expect(200); // undo
    await move('ready').expect(200);
    expect((await move('served').expect(200)).body).toMatchObject({ status: 'served' });
    await move('ready').expect(200); // undo a bump
    await move('cancelled').expect(200);
    await move('received').expect(200); // a cancel undone
    await ctx.bus.idle();
    expect(published.map((e) => (e.data as Order).status)).toEqual(['preparing', 'ready', 'preparing', 'ready', 'served', 'ready', 'cancelled', 'received']);
    await runner.patch('/api/pt/orders/999999').send({ status: 'ready' }).expect(404);
    await runner.patch(`/api/pt/orders/${placed.id}`).send({ status: 'eaten' }).expect(400);
    await request(ctx.app).patch(`/api/pt/orders/${placed.id}`).send({ status: 'preparing' }).expect(401);
  });

  it('lets only one of two runners bumping the same ticket at once win', async () => {
    const { itemIds } = await stallWith([{ priceCents: 500 }]);
    const placed = (await order({ table: 10, cart: [{ itemId: itemIds[0], quantity: 1 }] }).expect(201)).body as PlacedOrder;
    const results = await Promise.all([staff, runner].map((who) => who.patch(`/api/pt/orders/${placed.id}`).send({ status: 'preparing' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('never lets an order and the deletion of its stall both succeed when they race', async () => {
    for (let round = 0; round < 10; round++) {
      const { id, itemIds } = await stallWith([{ priceCents: 500 }]);
      const [placed, deleted] = await Promise.all([order({ table: 1, cart: [{ itemId: itemIds[0], quantity: 1 }] }), staff.delete(`/api/pt/stalls/${id}`)]);
      const outcome = `${placed.status}/${deleted.status}`;
      expect(['201/409', '409/204']).toContain(outcome);
      if (placed.status === 201) expect((placed.body as PlacedOrder).lines[0]).toMatchObject({ stallId: id, itemId: itemIds[0] });
    }
  });

  it('keeps a stall with orders not yet served from being deleted, and lets it go once they are', async () => {
    const { id, itemIds } = await stallWith([{ priceCents: 500 }], 'Busy Stall');
    const placed = (await order({ table: 11, cart: [{ itemId: itemIds[0], quantity: 1 }] }).expect(201)).body as PlacedOrder;
    const refused = await staff.delete(`/api/pt/stalls/${id}`).expect(409);
    expect(refused.body.detail).toContain('Busy Stall still has orders that are not served yet');
    for (const status of ['preparing', 'ready', 'served']) await runner.patch(`/api/pt/orders/${placed.id}`).send({ status }).expect(200);
    await staff.delete(`/api/pt/stalls/${id}`).expect(204);
    await staff.delete(`/api/pt/stalls/${id}`).expect(404);
    // The served order keeps what was ordered, by name and price.
    const kept = (await request(ctx.app).get(`/api/pt/orders/${placed.id}?token=${placed.token}`).expect(200)).body as Order;
    expect(kept.lines[0]).toMatchObject({ stallId: null, itemId: null, stallName: 'Busy Stall', unitPriceCents: 500 });
  });
});

describe("a stall's kitchen screen", () => {
  /** A diner's order from two stalls: noodles (two lines) and grill (one line). */
  async function twoStallOrder(table: number) {
    const noodles = await stallWith([{ name: 'Laksa', priceCents: 900 }, { name: 'Wonton soup', priceCents: 700 }], `Noodles ${++seq}`);
    const grill = await stallWith([{ name: 'Satay', priceCents: 800 }], `Grill ${++seq}`);
    const cart = [
      { itemId: noodles.itemIds[0], quantity: 1 },
      { itemId: grill.itemIds[0], quantity: 2 },
      { itemId: noodles.itemIds[1], quantity: 1, note: 'no chilli' },
    ];
    const placed = (await order({ table, cart }).expect(201)).body as PlacedOrder;
    return { noodles: noodles.id, grill: grill.id, placed };
  }
  const kitchen = async (stallId: number) => (await runner.get(`/api/pt/kitchen/${stallId}/tickets`).expect(200)).body as Kitchen;
  const bump = (stallId: number, orderId: number, from: string, to: string, who = runner) => who.patch(`/api/pt/kitchen/${stallId}/tickets/${orderId}`).send({ from, to });

  it("lists only that stall's part of each open order, oldest first, with only its lines", async () => {
    const { noodles, grill, placed } = await twoStallOrder(5);
    expect(placed.tickets.map((t) => [t.stallId, t.status])).toEqual([
      [noodles, 'received'],
      [grill, 'received'],
    ]);
    const later = (await order({ table: 6, cart: [{ itemId: (await request(ctx.app).get(`/api/pt/stalls/${noodles}`)).body.items[0].id, quantity: 3 }] }).expect(201)).body as PlacedOrder;

    const screen = await kitchen(noodles);
    expect(screen.stall.id).toBe(noodles);
    expect(screen.tickets.map((t) => t.orderId)).toEqual([placed.id, later.id]);
    expect(screen.tickets[0]).toMatchObject({ table: 5, status: 'received', orderStatus: 'received', preparingAt: null, readyAt: null });
    expect(screen.tickets[0]!.lines.map((l) => [l.name, l.quantity, l.note])).toEqual([
      ['Laksa', 1, null],
      ['Wonton soup', 1, 'no chilli'],
    ]);
    const grillScreen = await kitchen(grill);
    expect(grillScreen.tickets.map((t) => [t.orderId, t.lines.map((l) => l.name)])).toEqual([[placed.id, ['Satay']]]);
  });

  it('moves a ticket one step on or back, stamps each step, and makes the order ready only when every stall is ready', async () => {
    const { noodles, grill, placed } = await twoStallOrder(7);
    const orderStatus = async () => ((await request(ctx.app).get(`/api/pt/orders/${placed.id}?token=${placed.token}`).expect(200)).body as Order).status;
    published.length = 0;

    const started = (await bump(noodles, placed.id, 'received', 'preparing').expect(200)).body as KitchenTicket;
    expect(started).toMatchObject({ status: 'preparing', orderStatus: 'preparing', readyAt: null });
    expect(started.preparingAt).toEqual(expect.any(String));
    await bump(noodles, placed.id, 'preparing', 'ready').expect(200);
    expect(await orderStatus()).toBe('preparing'); // the grill is not done yet
    await bump(grill, placed.id, 'received', 'preparing', staff).expect(200);
    const done = (await bump(grill, placed.id, 'preparing', 'ready', staff).expect(200)).body as KitchenTicket;
    expect(done).toMatchObject({ status: 'ready', orderStatus: 'ready' });
    expect(await orderStatus()).toBe('ready');

    // Undo: the grill's part is back to preparing, and so is the order; its ready time is gone.
    const undone = (await bump(grill, placed.id, 'ready', 'preparing').expect(200)).body as KitchenTicket;
    expect(undone).toMatchObject({ status: 'preparing', readyAt: null, orderStatus: 'preparing' });

    await ctx.bus.idle();
    // Each move is announced as the order, carrying every stall's ticket.
    const announced = published.filter((e) => e.type === 'order' && (e.data as Order).id === placed.id).map((e) => (e.data as Order).tickets.map((t) => t.status).join('/') + ` ${(e.data as Order).status}`);
    expect(announced).toEqual([
      'preparing/received preparing',
      'ready/received preparing',
      'ready/preparing preparing',
      'ready/ready ready',
      'ready/preparing preparing',
    ]);
  });

  it('answers a replayed bump as done without a second change, and a stale one with a 409 that says why', async () => {
    const { noodles, placed } = await twoStallOrder(8);
    await bump(noodles, placed.id, 'received', 'preparing').expect(200);
    await ctx.bus.idle();
    published.length = 0;
    const replayed = (await bump(noodles, placed.id, 'received', 'preparing').expect(200)).body as KitchenTicket;
    expect(replayed.status).toBe('preparing');
    await ctx.bus.idle();
    expect(published).toHaveLength(0);

    // Another screen moved it on to ready; a screen that still shows it received sends its bump late.
    await bump(noodles, placed.id, 'preparing', 'ready').expect(200);
    const stale = await bump(noodles, placed.id, 'received', 'preparing').expect(409);
    expect(stale.body.detail).toContain('is ready now, not received');
    await bump(noodles, placed.id, 'received', 'ready').expect(400); // a jump is never a move
  });

  it('brings the stalls’ parts along when the runner moves the whole order on, and leaves them on an undo', async () => {
    const { noodles, grill, placed } = await twoStallOrder(11);
    await bump(noodles, placed.id, 'received', 'preparing').expect(200);
    await bump(noodles, placed.id, 'preparing', 'ready').expect(200);
    const ready = (await runner.patch(`/api/pt/orders/${placed.id}`).send({ status: 'ready' }).expect(200)).body as Order;
    expect(ready.tickets.map((t) => [t.stallId, t.status])).toEqual([
      [noodles, 'ready'],
      [grill, 'ready'],
    ]);
    const grillTicket = (await kitchen(grill)).tickets.find((t) => t.orderId === placed.id)!;
    expect(grillTicket).toMatchObject({ status: 'ready', orderStatus: 'ready' });
    expect(grillTicket.preparingAt).toEqual(grillTicket.readyAt);
    // The runner's undo puts the order back; the stalls' parts stay ready (their own screens undo them).
    const undone = (await runner.patch(`/api/pt/orders/${placed.id}`).send({ status: 'preparing' }).expect(200)).body as Order;
    expect(undone.tickets.map((t) => t.status)).toEqual(['ready', 'ready']);
  });

  it('stops moving tickets once the order is served or cancelled; they leave the screen', async () => {
    const { noodles, grill, placed } = await twoStallOrder(9);
    await runner.patch(`/api/pt/orders/${placed.id}`).send({ status: 'cancelled' }).expect(200);
    expect((await bump(noodles, placed.id, 'received', 'preparing').expect(409)).body.detail).toBe(`Order ${placed.id} is cancelled; its tickets no longer move.`);
    expect((await kitchen(grill)).tickets.map((t) => t.orderId)).not.toContain(placed.id);
  });

  it('answers 404 for an unknown stall or order, or an order with nothing from that stall', async () => {
    const { noodles, placed } = await twoStallOrder(10);
    const other = await stallWith([{ priceCents: 100 }], `Juice ${++seq}`);
    expect((await runner.get('/api/pt/kitchen/999999/tickets').expect(404)).body.detail).toBe('No stall with id 999999.');
    await bump(999999, placed.id, 'received', 'preparing').expect(404);
    await bump(noodles, 999999, 'received', 'preparing').expect(404);
    expect((await bump(other.id, placed.id, 'received', 'preparing').expect(404)).body.detail).toContain('has nothing from Juice');
    await runner.get('/api/pt/kitchen/abc/tickets').expect(400);
  });

  it('is for runners and staff: a diner (no account) gets 401', async () => {
    const { noodles, placed } = await twoStallOrder(11);
    await request(ctx.app).get(`/api/pt/kitchen/${noodles}/tickets`).expect(401);
    await request(ctx.app).patch(`/api/pt/kitchen/${noodles}/tickets/${placed.id}`).send({ from: 'received', to: 'preparing' }).expect(401);
    await staff.get(`/api/pt/kitchen/${noodles}/tickets`).expect(200);
    // A kitchen's bump is the crew's work, not set-up: no audit entry (decision 0058).
    const admin = await ctx.loginAs('admin');
    const entries = async () => ((await admin.get('/api/audit').expect(200)).body as { total: number }).total;
    const before = await entries();
    await bump(noodles, placed.id, 'received', 'preparing', staff).expect(200);
    expect(await entries()).toBe(before);
  });
});

describe('waits', () => {
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  const menuWait = async (stallId: number) => ((await request(ctx.app).get('/api/pt/menu').expect(200)).body as Menu).stalls.find((s) => s.id === stallId)!.wait;
  const place = async (itemIds: number[]) => (await order({ table: 2, cart: itemIds.map((itemId) => ({ itemId, quantity: 1 })) }).expect(201)).body as PlacedOrder;
  /** An order of this stall whose ticket was received `received` minutes ago and made ready `ready` minutes ago. */
  async function readyTicket(stall: { id: number; itemIds: number[] }, received: number, ready: number) {
    const placed = await place([stall.itemIds[0]!]);
    // Moved as the runner would (the stall's queue follows), then its times set back.
    for (const status of ['preparing', 'ready', 'served']) await runner.patch(`/api/pt/orders/${placed.id}`).send({ status }).expect(200);
    await ctx.database.db
      .updateTable('order_tickets')
      .set({ received_at: minutesAgo(received), preparing_at: minutesAgo(received), ready_at: minutesAgo(ready) })
      .where('order_id', '=', placed.id)
      .execute();
  }

  it('says the wait is unknown without enough tickets made ready in the last hour', async () => {
    const stall = await stallWith([{ priceCents: 500 }]);
    expect(await menuWait(stall.id)).toEqual({ minutes: null, recentTickets: 0, ticketsAhead: 0 });
    for (const prep of [8, 10, 12, 14]) await readyTicket(stall, 20 + prep, 20);
    // Made ready 70 minutes ago: too old to count.
    await readyTicket(stall, 80, 70);
    expect(await menuWait(stall.id)).toEqual({ minutes: null, recentTickets: 4, ticketsAhead: 0 });
    const placed = await place([stall.itemIds[0]!]);
    expect(placed.wait).toBeNull();
  });

  it("gives each open stall a range from its last hour's tickets, raised by the queue ahead; an order keeps the one it was told", async () => {
    const stall = await stallWith([{ priceCents: 500 }]);
    const unknown = await stallWith([{ priceCents: 500 }]);
    for (const prep of [14, 8, 16, 10, 12]) await readyTicket(stall, 5 + prep, 5);
    expect(await menuWait(stall.id)).toEqual({ minutes: { low: 10, high: 15 }, recentTickets: 5, ticketsAhead: 0 });

    // 5 tickets of about 12 minutes in the hour: one in hand is usual, each one beyond it adds 12 minutes.
    const first = await place([stall.itemIds[0]!]);
    const second = await place([stall.itemIds[0]!]);
    const third = await place([stall.itemIds[0]!]);
    expect([first.wait, second.wait, third.wait]).toEqual([
      { low: 10, high: 15 },
      { low: 10, high: 15 },
      { low: 20, high: 25 },
    ]);
    expect(await menuWait(stall.id)).toEqual({ minutes: { low: 35, high: 40 }, recentTickets: 5, ticketsAhead: 3 });

    // A cancelled order's ticket is no queue; the placed order's own wait stays as told.
    await runner.patch(`/api/pt/orders/${first.id}`).send({ status: 'cancelled' }).expect(200);
    expect(await menuWait(stall.id)).toMatchObject({ minutes: { low: 20, high: 25 }, ticketsAhead: 2 });
    expect(((await request(ctx.app).get(`/api/pt/orders/${third.id}?token=${third.token}`).expect(200)).body as Order).wait).toEqual({ low: 20, high: 25 });

    // An order with a stall whose wait is unknown has no wait: the known one would only be a floor.
    expect((await place([stall.itemIds[0]!, unknown.itemIds[0]!])).wait).toBeNull();
    for (const o of [second, third]) await runner.patch(`/api/pt/orders/${o.id}`).send({ status: 'cancelled' }).expect(200);
  });

  it("reads the board's page, its count and the served and cancelled lists from an index in their order, whatever the statistics say", async () => {
    if (ctx.database.engine !== 'sqlite') return;
    const { db } = ctx.database;
    const raw = <Row>(query: string) => db.executeQuery<Row>(CompiledQuery.raw(query));
    const planOf = async (query: { compile: () => CompiledQuery }) => {
      const compiled = query.compile();
      return (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]))).rows.map((row) => row.detail);
    };
    // The statistics SQLite sampled in the rush bench with 10,000 open orders: a status seemed to keep
    // a tenth of the orders, so three status ranges and a sort looked cheaper than the open orders' index.
    await raw('analyze');
    const stats = (await raw<{ idx: string; stat: string }>(`select idx, stat from sqlite_stat1 where tbl = 'orders'`)).rows;
    for (const { idx, stat } of stats) {
      const columns = (await raw<{ name: string }>(`pragma index_info('${idx}')`)).rows.map((column) => column.name);
      if (columns[0] !== 'status') continue;
      const [rows, , ...rest] = stat.split(' ');
      await raw(`update sqlite_stat1 set stat = '${[rows, Math.ceil(Number(rows) / 10), ...rest].join(' ')}' where tbl = 'orders' and idx = '${idx}'`);
    }
    await raw('analyze sqlite_schema');
    try {
      expect(await planOf(orderPageQuery(db, 100, 0))).toEqual([expect.stringMatching(/^SCAN orders USING INDEX orders_open_idx$/)]);
      // "Of N open orders" is counted from the index alone, not from every open order's row.
      expect(await planOf(matchingOrders(db, 'open').select((eb) => eb.fn.countAll().as('n')))).toEqual([expect.stringMatching(/^SCAN orders USING COVERING INDEX orders_open_idx$/)]);
      // Served and cancelled: a page after a cursor, and the count from a page's first row, as keysetPaginate reads them.
      const fromKey = sql<boolean>`(updated_at, id) < (${'2026-01-01T00:00:00.000Z'}, ${5})`;
      for (const status of ['served', 'cancelled'] as const) {
        expect(await planOf(matchingOrders(db, status).selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(11))).toEqual([
          expect.stringMatching(/^SEARCH orders USING INDEX orders_closed_changed_idx \(status=\?\)$/),
        ]);
        expect(await planOf(matchingOrders(db, status).where(fromKey).selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(11))).toEqual([
          expect.stringMatching(/^SEARCH orders USING INDEX orders_closed_changed_idx \(status=\? AND (\(updated_at,id\)<\(\?,\?\)|updated_at<\?)\)$/),
        ]);
        expect((await planOf(matchingOrders(db, status).where(fromKey).select(sql.lit(1).as('one')).limit(1001))).join(' ')).toMatch(
          /SEARCH orders USING COVERING INDEX orders_closed_changed_idx \(status=\? AND (\(updated_at,id\)<\(\?,\?\)|updated_at<\?)\)/,
        );
      }
    } finally {
      await raw('delete from sqlite_stat1');
      await raw('analyze sqlite_schema');
    }
  });

  it("reads the last hour's ready tickets of every stall through their index", async () => {
    if (ctx.database.engine !== 'sqlite') return;
    const compiled = recentTicketsQuery(ctx.database.db, minutesAgo(60)).compile();
    const plan = (await ctx.database.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]))).rows.map((row) => row.detail);
    expect(plan).toEqual([expect.stringMatching(/^SEARCH order_tickets USING (COVERING )?INDEX order_tickets_ready_idx/)]);
  });

  it("counts the stalls' queues from the open orders, never a stall's whole history, with statistics or without", async () => {
    if (ctx.database.engine !== 'sqlite') return;
    const { db } = ctx.database;
    const raw = (query: string) => db.executeQuery(CompiledQuery.raw(query));
    const planOf = async (stallIds?: number[]) => {
      const compiled = queuesQuery(db, stallIds).compile();
      return (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]))).rows.map((row) => row.detail);
    };
    for (const statistics of ['analyze', 'delete from sqlite_stat1']) {
      await raw(statistics);
      await raw('analyze sqlite_schema');
      for (const stallIds of [undefined, [1], [1, 2]]) {
        const plan = await planOf(stallIds);
        expect(plan[0]).toMatch(/^SCAN o USING COVERING INDEX orders_open_idx$/);
        expect(plan[1]).toMatch(/^SEARCH t USING (COVERING )?INDEX \S+ \(order_id=\?/);
      }
    }
    await raw('delete from sqlite_stat1');
    await raw('analyze sqlite_schema');
  });

  it('tells each stall’s queue as its tickets not ready of open orders, through bumps, undos, the runner’s moves, cancels and reopenings', async () => {
    const { id: noodles, itemIds: [noodle] } = await stallWith([{ priceCents: 900 }]);
    const { id: grill, itemIds: [skewer] } = await stallWith([{ priceCents: 700 }]);
    const placed: number[] = [];
    for (let i = 0; i < 6; i++) {
      const cart = i % 3 === 0 ? [{ itemId: noodle!, quantity: 1 }] : [{ itemId: noodle!, quantity: 1 }, { itemId: skewer!, quantity: 1 }];
      placed.push(((await order({ table: 1 + i, cart }).expect(201)).body as PlacedOrder).id);
    }
    const counted = async () => {
      const rows = await ctx.database.db
        .selectFrom('order_tickets as t')
        .innerJoin('orders', 'orders.id', 't.order_id')
        .select(['t.stall_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('t.status', '!=', 'ready')
        .where('orders.status', 'in', ['received', 'preparing', 'ready'])
        .where('t.stall_id', 'in', [noodles, grill])
        .groupBy('t.stall_id')
        .execute();
      return { [noodles]: 0, [grill]: 0, ...Object.fromEntries(rows.map((r) => [r.stall_id, Number(r.n)])) };
    };
    const menuAhead = async () => {
      const menu = (await request(ctx.app).get('/api/pt/menu').expect(200)).body as Menu;
      return Object.fromEntries(menu.stalls.filter((s) => s.id === noodles || s.id === grill).map((s) => [s.id, s.wait.ticketsAhead]));
    };
    expect(await menuAhead()).toEqual({ [noodles]: 6, [grill]: 4 });

    // A fixed pseudo-random walk: every move the screens and the runner can make, right or refused.
    let seed = 20261127;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const ticketSteps: Array<[string, string]> = [['received', 'preparing'], ['preparing', 'ready'], ['ready', 'preparing'], ['preparing', 'received']];
    const orderSteps = ['received', 'preparing', 'ready', 'served', 'cancelled'];
    const answers = new Set<number>();
    for (let step = 0; step < 120; step++) {
      const orderId = placed[next(placed.length)]!;
      if (next(3) > 0) {
        const [from, to] = ticketSteps[next(ticketSteps.length)]!;
        answers.add((await runner.patch(`/api/pt/kitchen/${next(2) ? noodles : grill}/tickets/${orderId}`).send({ from, to })).status);
      } else {
        answers.add((await runner.patch(`/api/pt/orders/${orderId}`).send({ status: orderSteps[next(orderSteps.length)] })).status);
      }
      expect(await menuAhead()).toEqual(await counted());
    }
    // The walk did move things, and was refused too (another screen's step, a closed order).
    expect([...answers].sort()).toEqual(expect.arrayContaining([200, 409]));
  });
});
