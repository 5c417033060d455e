import request from 'supertest';
import type { Report } from '../../contracts/pt-reports.contract';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { FIGURES_ZONE_KEY, keepFiguresInZone } from './figures.repository';

/**
 * The day's figures against a known set of orders, on a venue in New York (UTC−4 in March, after
 * the clocks went forward on the 8th): an order's hour is the venue's, and an order placed at
 * 23:30 there is on that day though it is the next day in UTC.
 */

let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
const stalls = { burgers: 0, noodles: 0 };

async function stallWith(name: string, priceCents: number) {
  const { id } = (await staff.post('/api/pt/stalls').send({ name }).expect(201)).body as { id: number };
  const item = (await staff.post(`/api/pt/stalls/${id}/items`).send({ name: `${name} special`, priceCents }).expect(201)).body as { id: number };
  return { id, item: item.id };
}

/**
 * Places an order through the API, then dates it `at` (the API stamps orders with the real now); the
 * figures are then counted again from the orders (`countedAgain`), as the first start after migration 030 does.
 */
async function placed(at: string, cart: Array<{ itemId: number; quantity: number }>, cancel = false) {
  const { id } = (await request(ctx.app).post('/api/pt/order').set('Content-Type', 'application/json').send(JSON.stringify({ table: 1, cart })).expect(201)).body as { id: number };
  if (cancel) await staff.patch(`/api/pt/orders/${id}`).send({ status: 'cancelled' }).expect(200);
  await ctx.database.db.updateTable('orders').set({ created_at: at }).where('id', '=', id).execute();
  return id;
}

const zeros = { orders: 0, cancelled: 0, revenueCents: 0, averageTicketCents: null };

beforeAll(async () => {
  ctx = await createTestContext({ VENUE_TIME_ZONE: 'America/New_York', VENUE_CURRENCY: 'usd' }, {});
  staff = await ctx.loginAs('staff');
  const burgers = await stallWith('Burgers', 500);
  const noodles = await stallWith('Noodles', 300);
  stalls.burgers = burgers.id;
  stalls.noodles = noodles.id;
  // 10 March 2026 in New York:
  await placed('2026-03-10T13:15:00.000Z', [{ itemId: burgers.item, quantity: 2 }, { itemId: noodles.item, quantity: 1 }]); // 09:15, both stalls, 13.00
  await placed('2026-03-10T13:45:00.000Z', [{ itemId: burgers.item, quantity: 1 }]); // 09:45, 5.00
  await placed('2026-03-10T16:30:00.000Z', [{ itemId: noodles.item, quantity: 3 }], true); // 12:30, cancelled (9.00)
  await placed('2026-03-11T03:30:00.000Z', [{ itemId: burgers.item, quantity: 1 }]); // 23:30 on the 10th, 5.00
  // 9 March, 23:30 in New York (the 10th in UTC): not the 10th's.
  await placed('2026-03-10T03:30:00.000Z', [{ itemId: noodles.item, quantity: 2 }]); // 6.00
  expect(await countedAgain()).toBe(true);
});

/** The figures counted from the orders in the venue's zone, as a server does when they never were (true when it counted). */
const countedAgain = async () => {
  await ctx.database.db.deleteFrom('app_meta').where('key', '=', FIGURES_ZONE_KEY).execute();
  return keepFiguresInZone(ctx.database, 'America/New_York');
};
afterAll(() => ctx.close());

const report = async (query: string) => (await staff.get(`/api/pt/reports${query}`).expect(200)).body as Report;

describe('GET /api/pt/reports', () => {
  it('counts a day’s orders by the venue’s clock: revenue without the cancelled order, an order from two stalls once to each', async () => {
    const day = await report('?from=2026-03-10&to=2026-03-10');
    expect(day).toMatchObject({ from: '2026-03-10', to: '2026-03-10', timeZone: 'America/New_York', currency: 'USD' });
    // Four orders placed, one cancelled; 13.00 + 5.00 + 5.00 sold over three orders.
    expect(day.totals).toEqual({ orders: 4, cancelled: 1, revenueCents: 2300, averageTicketCents: 767 });

    expect(day.byHour).toHaveLength(24);
    expect(day.byHour.map((h) => h.hour)).toEqual([...Array(24).keys()]);
    expect(day.byHour[9]).toEqual({ hour: 9, orders: 2, cancelled: 0, revenueCents: 1800, averageTicketCents: 900 });
    expect(day.byHour[12]).toEqual({ hour: 12, orders: 1, cancelled: 1, revenueCents: 0, averageTicketCents: null });
    expect(day.byHour[23]).toEqual({ hour: 23, orders: 1, cancelled: 0, revenueCents: 500, averageTicketCents: 500 });
    expect(day.byHour.filter((h) => ![9, 12, 23].includes(h.hour)).every((h) => h.orders === 0 && h.revenueCents === 0 && h.averageTicketCents === null)).toBe(true);

    // The two-stall order is one order to each stall, with only its own lines' revenue.
    expect(day.byStall).toEqual([
      { stallId: stalls.burgers, stallName: 'Burgers', orders: 3, cancelled: 0, revenueCents: 2000, averageTicketCents: 667, prepTickets: 0, averagePrepSeconds: null },
      { stallId: stalls.noodles, stallName: 'Noodles', orders: 2, cancelled: 1, revenueCents: 300, averageTicketCents: 300, prepTickets: 0, averagePrepSeconds: null },
    ]);
    expect(day.byStall.reduce((sum, s) => sum + s.revenueCents, 0)).toBe(day.totals.revenueCents);
  });

  it('adds up a range of days by hour of the day; either day alone is that day', async () => {
    const range = await report('?from=2026-03-09&to=2026-03-10');
    expect(range.totals).toEqual({ orders: 5, cancelled: 1, revenueCents: 2900, averageTicketCents: 725 });
    expect(range.byHour[23]).toMatchObject({ orders: 2, revenueCents: 1100 });
    expect((await report('?from=2026-03-09')).totals).toEqual({ orders: 1, cancelled: 0, revenueCents: 600, averageTicketCents: 600 });
    expect((await report('?to=2026-03-09')).from).toBe('2026-03-09');
  });

  it('answers the venue’s today when no day is asked for, and zeros for a day without orders', async () => {
    const today = await report('');
    expect(today.from).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date()));
    expect(today.to).toBe(today.from);
    const empty = await report('?from=2026-01-01');
    expect(empty.totals).toEqual(zeros);
    expect(empty.byStall).toEqual([]);
    expect(empty.byHour.every((h) => h.orders === 0)).toBe(true);
  });

  it('says which hours of the day have begun: every one of a past day, up to the hour now of today, none of a day to come', async () => {
    const hourNow = () => Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
    expect((await report('?from=2026-03-10')).lastHourBegun).toBe(23);
    const before = hourNow();
    const today = await report('');
    expect([before, hourNow()]).toContain(today.lastHourBegun);
    expect((await report('?from=2099-01-01')).lastHourBegun).toBe(-1);
  });

  it('refuses a day that is not one, a range backwards and more than 31 days, naming the field', async () => {
    const refused = async (query: string, path: string, message: RegExp) => {
      const res = await staff.get(`/api/pt/reports${query}`).expect(400);
      expect(res.type).toBe('application/problem+json');
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path, message: expect.stringMatching(message) })]));
    };
    await refused('?from=2026-02-30', 'query.from', /no such day/);
    await refused('?from=today', 'query.from', /YYYY-MM-DD/);
    await refused('?from=2026-03-10&to=2026-03-09', 'query.to', /before the first/);
    await refused('?from=2026-03-01&to=2026-04-01', 'query.to', /at most 31 days/);
    await staff.get('/api/pt/reports?from=2026-03-01&to=2026-03-31').expect(200);
    await staff.get('/api/pt/reports/export.csv?from=2026-03-01&to=2026-04-01').expect(400);
  });

  it('is for the front desk: 401 without a session, 403 for a runner', async () => {
    await request(ctx.app).get('/api/pt/reports').expect(401);
    const runner = await ctx.loginAs('runner');
    await runner.get('/api/pt/reports').expect(403);
    await runner.get('/api/pt/reports/export.csv').expect(403);
  });
});

describe('figures kept as orders are placed and cancelled', () => {
  const order = async (cart: Array<{ itemId: number; quantity: number }>) =>
    ((await request(ctx.app).post('/api/pt/order').set('Content-Type', 'application/json').send(JSON.stringify({ table: 2, cart })).expect(201)).body as { id: number }).id;
  const move = (id: number, status: string) => staff.patch(`/api/pt/orders/${id}`).send({ status }).expect(200);

  it('today’s report is the sum of today’s orders, a cancelled one out and one brought back from cancelled in', async () => {
    const before = await report('');
    const item = async (name: string) => ((await staff.get(`/api/pt/stalls/${stalls[name as keyof typeof stalls]}`).expect(200)).body as { items: Array<{ id: number }> }).items[0]!.id;
    const burger = await item('burgers');
    const noodle = await item('noodles');
    await order([{ itemId: burger, quantity: 1 }, { itemId: noodle, quantity: 2 }]); // 5.00 + 6.00
    await move(await order([{ itemId: burger, quantity: 3 }]), 'cancelled'); // 15.00, cancelled
    const back = await order([{ itemId: noodle, quantity: 1 }]); // 3.00, cancelled, then brought back
    await move(back, 'cancelled');
    await move(back, 'received');

    const today = await report('');
    const more = (field: 'orders' | 'cancelled' | 'revenueCents', of: { orders: number; cancelled: number; revenueCents: number } | undefined) => (of?.[field] ?? 0);
    expect({ orders: today.totals.orders - before.totals.orders, cancelled: today.totals.cancelled - before.totals.cancelled, revenueCents: today.totals.revenueCents - before.totals.revenueCents }).toEqual({
      orders: 3,
      cancelled: 1,
      revenueCents: 1400,
    });
    const stallNow = (r: Report, id: number) => r.byStall.find((s) => s.stallId === id);
    const burgersNow = stallNow(today, stalls.burgers);
    const noodlesNow = stallNow(today, stalls.noodles);
    expect(more('orders', burgersNow) - more('orders', stallNow(before, stalls.burgers))).toBe(2);
    expect(more('cancelled', burgersNow) - more('cancelled', stallNow(before, stalls.burgers))).toBe(1);
    expect(more('revenueCents', burgersNow) - more('revenueCents', stallNow(before, stalls.burgers))).toBe(500);
    expect(more('revenueCents', noodlesNow) - more('revenueCents', stallNow(before, stalls.noodles))).toBe(900);

    // What the writes kept is what counting every order again gives.
    expect(await countedAgain()).toBe(true);
    expect(await report('')).toEqual(today);
  });

  it('keeps a deleted stall’s figures under the name it had, and counts them once the zone is known', async () => {
    const { id, item } = await stallWith('Crêpes', 400);
    const served = await order([{ itemId: item, quantity: 2 }]);
    for (const status of ['preparing', 'ready', 'served']) await move(served, status);
    await staff.delete(`/api/pt/stalls/${id}`).expect(204);

    const today = await report('');
    expect(today.byStall.find((s) => s.stallName === 'Crêpes')).toEqual({
      stallId: null,
      stallName: 'Crêpes',
      orders: 1,
      cancelled: 0,
      revenueCents: 800,
      averageTicketCents: 800,
      // Made ready by the runner: its ticket's preparation stays with its name too.
      prepTickets: 1,
      averagePrepSeconds: expect.any(Number),
    });
    expect(await countedAgain()).toBe(true);
    expect(await report('')).toEqual(today);
    // Counted in the venue's zone already: a start finds nothing to do.
    expect(await keepFiguresInZone(ctx.database, 'America/New_York')).toBe(false);
  });
});

describe('GET /api/pt/reports/export.csv', () => {
  it('gives one row per day, hour and stall, adding up to the report’s figures', async () => {
    const res = await staff.get('/api/pt/reports/export.csv?from=2026-03-09&to=2026-03-10').buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      r.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename=food-court-2026-03-09-to-2026-03-10.csv');
    const [heading, ...rows] = (res.body as string).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(heading).toBe('day,hour,stall,stall id,orders,cancelled,revenue (USD),average ticket (USD),tickets ready,average prep (minutes)');
    expect(rows).toEqual([
      `2026-03-09,23:00,Noodles,${stalls.noodles},1,0,6.00,6.00,0,`,
      `2026-03-10,09:00,Burgers,${stalls.burgers},2,0,15.00,7.50,0,`,
      `2026-03-10,09:00,Noodles,${stalls.noodles},1,0,3.00,3.00,0,`,
      `2026-03-10,12:00,Noodles,${stalls.noodles},1,1,0.00,,0,`,
      `2026-03-10,23:00,Burgers,${stalls.burgers},1,0,5.00,5.00,0,`,
    ]);

    // The rows of each stall add up to the report's row for it.
    const json = await report('?from=2026-03-09&to=2026-03-10');
    for (const stall of json.byStall) {
      const mine = rows.map((row) => row.split(',')).filter((cells) => cells[3] === String(stall.stallId));
      expect({ stall: stall.stallName, orders: mine.reduce((n, c) => n + Number(c[4]), 0), cancelled: mine.reduce((n, c) => n + Number(c[5]), 0), revenueCents: mine.reduce((n, c) => n + Math.round(Number(c[6]) * 100), 0) }).toEqual({
        stall: stall.stallName,
        orders: stall.orders,
        cancelled: stall.cancelled,
        revenueCents: stall.revenueCents,
      });
    }
  });

  it('streams a month a few days at a time, its rows still in day and hour order', async () => {
    const res = await staff.get('/api/pt/reports/export.csv?from=2026-03-01&to=2026-03-31').expect(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename=food-court-2026-03-01-to-2026-03-31.csv');
    const [, ...rows] = res.text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(rows.map((row) => row.split(',').slice(0, 3).join(' '))).toEqual(['2026-03-09 23:00 Noodles', '2026-03-10 09:00 Burgers', '2026-03-10 09:00 Noodles', '2026-03-10 12:00 Noodles', '2026-03-10 23:00 Burgers']);
  });

  it('is the headings alone for a day without orders', async () => {
    const res = await staff.get('/api/pt/reports/export.csv?from=2026-01-01').expect(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename=food-court-2026-01-01.csv');
    expect(res.text.replace(/^\uFEFF/, '')).toBe('day,hour,stall,stall id,orders,cancelled,revenue (USD),average ticket (USD),tickets ready,average prep (minutes)\r\n');
  });
});

describe('figures outlive the orders', () => {
  it('a day’s report stays the same once its orders are purged (RETAIN_ORDERS_DAYS)', async () => {
    const before = await report('?from=2026-03-09&to=2026-03-10');
    expect(before.totals.orders).toBe(5);
    // As the daily purge takes them: served and cancelled orders placed before the cut-off, lines and tickets with them.
    await ctx.database.db.updateTable('orders').set({ status: 'served' }).where('status', '=', 'received').where('created_at', '<', '2026-03-12').execute();
    expect(Number((await ctx.database.db.deleteFrom('orders').where('created_at', '<', '2026-03-12').executeTakeFirst()).numDeletedRows)).toBe(5);
    expect(await report('?from=2026-03-09&to=2026-03-10')).toEqual(before);
  });
});
