import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestContext, type TestContext } from '../../test-support/test-app';

/**
 * The diners' public menu stream holds no more than MENU_STREAMS_PER_ADDRESS streams per client address
 * (the oldest gives way), and replays nothing: the page reads the menu again whenever it opens.
 */

const PER_ADDRESS = 3;
let ctx: TestContext;
let staff: Awaited<ReturnType<TestContext['loginAs']>>;
let server: http.Server;

beforeAll(async () => {
  // The client's address as a balancer on this machine names it (X-Forwarded-For), so one test plays several addresses.
  ctx = await createTestContext({ MENU_STREAMS_PER_ADDRESS: String(PER_ADDRESS), TRUST_PROXY: 'loopback' });
  staff = await ctx.loginAs('staff');
  server = await new Promise<http.Server>((resolve) => {
    const s = ctx.app.listen(0, '127.0.0.1', () => resolve(s));
  });
});
afterAll(async () => {
  ctx.endStreams();
  await new Promise((r) => server.close(r));
  await ctx.close();
});

interface OpenedStream {
  text: () => string;
  ended: () => boolean;
  /** Resolves once the text matches; fails if the stream ends first. */
  waitFor: (pattern: RegExp) => Promise<void>;
  /** Resolves once the stream has ended. */
  end: () => Promise<void>;
  close: () => void;
}

function openStream(address: string, headers: Record<string, string> = {}): OpenedStream {
  let text = '';
  let ended = false;
  const arrived = new EventEmitter();
  const req = http.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/pt/menu/stream`, { headers: { 'X-Forwarded-For': address, ...headers } });
  req.on('error', () => {});
  req.on('response', (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => arrived.emit('text', (text += chunk)));
    res.on('end', () => arrived.emit('text', (ended = true)));
    res.on('close', () => arrived.emit('text', (ended = true)));
  });
  return {
    text: () => text,
    ended: () => ended,
    waitFor: async (pattern) => {
      while (!pattern.test(text) && !ended) await once(arrived, 'text');
      expect(text).toMatch(pattern);
    },
    end: async () => {
      while (!ended) await once(arrived, 'text');
    },
    close: () => req.destroy(),
  };
}

const OPENING = /^retry: 3000\nid: \d+\n\n/;

async function soldOutDish(): Promise<{ stallId: number; itemId: number }> {
  const { id: stallId } = (await staff.post('/api/pt/stalls').send({ name: `Stream stall ${Date.now()}` }).expect(201)).body as { id: number };
  const { id: itemId } = (await staff.post(`/api/pt/stalls/${stallId}/items`).send({ name: 'Bao', priceCents: 650 }).expect(201)).body as { id: number };
  return { stallId, itemId };
}

it('holds at most MENU_STREAMS_PER_ADDRESS streams per address, the oldest giving way, and the others still hear the menu', async () => {
  const venue = Array.from({ length: PER_ADDRESS }, () => openStream('203.0.113.7'));
  for (const s of venue) await s.waitFor(OPENING);
  // Another address has its own allowance.
  const elsewhere = openStream('198.51.100.9');
  await elsewhere.waitFor(OPENING);
  expect(venue.map((s) => s.ended())).toEqual(Array(PER_ADDRESS).fill(false));

  const newest = openStream('203.0.113.7');
  await newest.waitFor(OPENING);
  await venue[0]!.end();
  expect(venue.map((s) => s.ended())).toEqual([true, ...Array(PER_ADDRESS - 1).fill(false)]);
  expect(elsewhere.ended()).toBe(false);

  const { stallId, itemId } = await soldOutDish();
  await staff.patch(`/api/pt/items/${itemId}`).send({ soldOut: true }).expect(200);
  const change = new RegExp(`id: \\d+\\nevent: menu\\ndata: \\{"kind":"item","item":\\{"id":${itemId},"stallId":${stallId},`);
  for (const s of [...venue.slice(1), newest, elsewhere]) await s.waitFor(change);
  expect(venue[0]!.text()).not.toMatch(change);
  [...venue, newest, elsewhere].forEach((s) => s.close());
});

it('replays nothing, whatever Last-Event-ID says: it starts at now, and hears what comes next', async () => {
  const { itemId } = await soldOutDish();
  await staff.patch(`/api/pt/items/${itemId}`).send({ soldOut: true }).expect(200);
  await ctx.bus.idle();
  const resumed = openStream('192.0.2.44', { 'Last-Event-ID': '0' });
  await resumed.waitFor(OPENING);
  // The opening names the position now, not 0: an earlier menu event is not sent again.
  expect(Number(/^retry: 3000\nid: (\d+)/.exec(resumed.text())![1])).toBeGreaterThan(0);
  await staff.patch(`/api/pt/items/${itemId}`).send({ soldOut: false }).expect(200);
  await resumed.waitFor(new RegExp(`"item":\\{"id":${itemId},[^\\n]*"soldOut":false`));
  expect(resumed.text().match(/event: menu/g)).toHaveLength(1);
  resumed.close();
});
