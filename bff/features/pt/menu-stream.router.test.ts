import { listenOnAnyPort, openSseStream, type Frame } from '../../test-support/live-client';
import { createTestContext, type TestContext } from '../../test-support/test-app';

/**
 * The diners' public menu stream holds no more than MENU_STREAMS_PER_ADDRESS streams per client address
 * (the oldest gives way), and replays nothing: the page reads the menu again whenever it opens.
 */

const PER_ADDRESS = 3;
let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let live: Awaited<ReturnType<typeof listenOnAnyPort>>;

beforeAll(async () => {
  // The client's address as a balancer on this machine names it (X-Forwarded-For), so one test plays several addresses.
  ctx = await createTestContext({ MENU_STREAMS_PER_ADDRESS: String(PER_ADDRESS), TRUST_PROXY: 'loopback' });
  staff = await ctx.loginAs('staff');
  live = await listenOnAnyPort(ctx);
});
afterAll(async () => {
  await live.close();
  await ctx.close();
});

/** A visitor's menu stream from `address`, open (its opening line come) once this resolves. */
const openStream = (address: string, headers: Record<string, string> = {}) =>
  openSseStream(`${live.base}/api/pt/menu/stream`, '', { 'X-Forwarded-For': address, ...headers });

/** The `menu` event of this dish marked sold out (`soldOut`) or back. */
const dishChange = (itemId: number, soldOut: boolean) => (frame: Frame) => {
  const item = (frame.data as { item?: { id: number; soldOut: boolean } }).item;
  return frame.event === 'menu' && item?.id === itemId && item.soldOut === soldOut;
};

async function soldOutDish(): Promise<{ stallId: number; itemId: number }> {
  const { id: stallId } = (await staff.post('/api/pt/stalls').send({ name: `Stream stall ${Date.now()}` }).expect(201)).body as { id: number };
  const { id: itemId } = (await staff.post(`/api/pt/stalls/${stallId}/items`).send({ name: 'Bao', priceCents: 650 }).expect(201)).body as { id: number };
  return { stallId, itemId };
}

it('holds at most MENU_STREAMS_PER_ADDRESS streams per address, the oldest giving way, and the others still hear the menu', async () => {
  const venue = [];
  for (let n = 0; n < PER_ADDRESS; n++) venue.push(await openStream('203.0.113.7'));
  // Another address has its own allowance.
  const elsewhere = await openStream('198.51.100.9');
  expect(venue.map((s) => s.ended())).toEqual(Array(PER_ADDRESS).fill(false));

  const newest = await openStream('203.0.113.7');
  await venue[0]!.whenEnded();
  expect(venue.map((s) => s.ended())).toEqual([true, ...Array(PER_ADDRESS - 1).fill(false)]);
  expect(elsewhere.ended()).toBe(false);

  const { stallId, itemId } = await soldOutDish();
  await staff.patch(`/api/pt/items/${itemId}`).send({ soldOut: true }).expect(200);
  for (const s of [...venue.slice(1), newest, elsewhere]) {
    const change = await s.next(dishChange(itemId, true));
    expect(change.id).toMatch(/^\d+$/);
    expect(change.data).toMatchObject({ kind: 'item', item: { id: itemId, stallId, soldOut: true } });
  }
  expect(venue[0]!.frames().some(dishChange(itemId, true))).toBe(false);
  [...venue, newest, elsewhere].forEach((s) => s.close());
});

it('replays nothing, whatever Last-Event-ID says: it starts at now, and hears what comes next', async () => {
  const { itemId } = await soldOutDish();
  await staff.patch(`/api/pt/items/${itemId}`).send({ soldOut: true }).expect(200);
  await ctx.bus.idle();
  const resumed = await openStream('192.0.2.44', { 'Last-Event-ID': '0' });
  // The opening names the position now, not 0: an earlier menu event is not sent again.
  expect(Number(/^retry: 3000\nid: (\d+)/.exec(resumed.text())![1])).toBeGreaterThan(0);
  await staff.patch(`/api/pt/items/${itemId}`).send({ soldOut: false }).expect(200);
  await resumed.next(dishChange(itemId, false));
  expect(resumed.frames().filter((f) => f.event === 'menu')).toHaveLength(1);
  resumed.close();
});
