import type { RequestHandler } from 'msw';
import {
  OPEN_ORDER_STATUSES,
  canMoveOrder,
  kitchenTicketOf,
  orderStatusOfTickets,
  ptApi,
  type MenuItem,
  type Order,
  type OrderStatus,
  type OrderTicket,
  type Stall,
  type StallWait,
  type TicketStatus,
  type WaitRange,
} from '@contracts/pt.contract';
import type { StallAvailability } from '@contracts/stall-hours.contract';
import { fieldProblem, handle, offline, problem } from './test-server';

/**
 * Test support: an in-memory food court behaving like `bff/features/pt` as its contract describes
 * it (paging and search, 400 field problems, 409s naming each cart line, Idempotency-Key replays,
 * one-step status moves, kitchen tickets moved from the step the screen saw), as msw handlers for route tests to drive through the real screens. The
 * contract's schemas already refuse what they describe (a blank name, a quantity over the maximum).
 *
 * `failNextOrder`: `'lost'` stores the order and then drops the connection (the answer never
 * arrives), `'down'` drops it before anything is stored, a number answers that status instead.
 * `kitchenDown`: every kitchen call drops its connection (a tablet whose network is gone).
 * `waits`: each stall's wait on the menu by stall id (unknown for a stall not given); a placed order
 * keeps the slowest of its stalls', or none when one of them is unknown, as the server does.
 */
const AT = '2025-03-01T09:30:00.000Z';

export type FakeOrder = Order & { token: string; key?: string };
export type FakePt = {
  stalls: Stall[];
  items: MenuItem[];
  orders: FakeOrder[];
  currency: string;
  tables: number;
  failNextOrder?: 'lost' | 'down' | number;
  kitchenDown?: boolean;
  waits: Record<number, StallWait>;
  /** Stalls closed by their hours now, by id: when each opens (an instant), as the server computes it. */
  closed: Record<number, string | null>;
  timeZone: string;
  handlers: RequestHandler[];
};

/** A stall's wait as the menu carries it: `[low, high]` minutes from enough recent tickets, or unknown (`null`) from too few. */
export function stallWait(minutes: [number, number] | null, ticketsAhead = 0): StallWait {
  return { minutes: minutes && { low: minutes[0], high: minutes[1] }, recentTickets: minutes ? 12 : 2, ticketsAhead };
}

export function stall(id: number, overrides: Partial<Stall> = {}): Stall {
  return { id, name: `Stall ${id}`, description: null, cuisine: null, status: 'open', hours: null, itemCount: 0, createdAt: AT, updatedAt: AT, ...overrides };
}

export function menuItem(id: number, stallId: number, overrides: Partial<MenuItem> = {}): MenuItem {
  return { id, stallId, name: `Dish ${id}`, description: null, category: 'Mains', priceCents: 850, soldOut: false, allergens: [], ...overrides };
}

/** One ticket per stall of the lines, in the order the stalls first appear, at `status` (the order's, as far as a ticket goes). */
export function ticketsOf(lines: Order['lines'], status: OrderStatus, at: string): OrderTicket[] {
  const stalls = new Map(lines.flatMap((l) => (l.stallId === null ? [] : [[l.stallId, l.stallName] as const])));
  const ticketStatus: TicketStatus = status === 'ready' || status === 'served' ? 'ready' : status === 'preparing' ? 'preparing' : 'received';
  return [...stalls].map(([stallId, stallName]) => ({
    stallId,
    stallName,
    status: ticketStatus,
    receivedAt: at,
    preparingAt: ticketStatus === 'received' ? null : at,
    readyAt: ticketStatus === 'ready' ? at : null,
  }));
}

/** An order placed `minutesAgo` (so the board's ages are known), one line per item given. */
export function order(id: number, overrides: Partial<Order> & { minutesAgo?: number } = {}): FakeOrder {
  const { minutesAgo = 1, ...rest } = overrides;
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const lines = rest.lines ?? [{ id: id * 10, itemId: 1, stallId: 1, stallName: 'Stall 1', name: 'Dish 1', unitPriceCents: 850, quantity: 1, note: null, allergens: [], readyAt: null }];
  return {
    id,
    table: 4,
    status: 'received',
    totalCents: lines.reduce((sum, l) => sum + l.quantity * l.unitPriceCents, 0),
    lines,
    tickets: ticketsOf(lines, rest.status ?? 'received', at),
    wait: null,
    createdAt: at,
    updatedAt: at,
    token: `token-${id}`,
    ...rest,
  };
}

const pageOf = <T>(items: T[], { page: p, pageSize: size }: { page: number; pageSize: number }) => ({ items: items.slice(p * size, p * size + size), page: p, pageSize: size, total: items.length });

const publicOrder = ({ token: _token, key: _key, ...o }: FakeOrder): Order => o;

export function fakePt(
  init: { stalls?: Stall[]; items?: MenuItem[]; orders?: FakeOrder[]; tables?: number; currency?: string; waits?: Record<number, StallWait>; closed?: Record<number, string | null>; timeZone?: string } = {},
): FakePt {
  // Copies: a test changing the fake's state (sold out, a status) must not change the fixtures of the next test.
  const pt: FakePt = { stalls: (init.stalls ?? []).map((s) => ({ ...s })), items: (init.items ?? []).map((i) => ({ ...i })), orders: (init.orders ?? []).map((o) => ({ ...o })), currency: init.currency ?? 'EUR', tables: init.tables ?? 20, waits: { ...init.waits }, closed: { ...init.closed }, timeZone: init.timeZone ?? 'Europe/Lisbon', handlers: [] };
  const waitOf = (stallId: number): StallWait => pt.waits[stallId] ?? stallWait(null);
  const orderWait = (stallIds: number[]): WaitRange | null => {
    const known = stallIds.map((id) => waitOf(id).minutes);
    if (known.length === 0 || known.some((m) => m === null)) return null;
    return { low: Math.max(...known.map((m) => m!.low)), high: Math.max(...known.map((m) => m!.high)) };
  };
  const counted = (s: Stall): Stall => ({ ...s, itemCount: pt.items.filter((i) => i.stallId === s.id).length });
  const withItems = (s: Stall) => ({ ...counted(s), items: pt.items.filter((i) => i.stallId === s.id) });
  const nextId = (list: { id: number }[]) => Math.max(0, ...list.map((x) => x.id)) + 1;
  let clock = Date.now();
  const now = () => new Date((clock += 1000)).toISOString();

  const findStall = (id: number) => pt.stalls.find((s) => s.id === id);
  const noStall = (id: number) => problem(404, 'Not Found', `No stall with id ${id}.`);
  const findItem = (id: number) => pt.items.find((i) => i.id === id);
  const noItem = (id: number) => problem(404, 'Not Found', `No menu item with id ${id}.`);
  const availabilityOf = (s: Stall): StallAvailability =>
    s.status === 'paused' ? { state: 'paused', opensAt: null, closesAt: null } : s.id in pt.closed ? { state: 'closed', opensAt: pt.closed[s.id] ?? null, closesAt: null } : { state: 'open', opensAt: null, closesAt: null };
  const isOpen = (o: Order) => (OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(o.status);

  pt.handlers = [
    handle(ptApi.listStalls, ({ query }) => {
      const text = (query.query ?? '').toLowerCase();
      return pageOf(pt.stalls.filter((s) => !text || `${s.name} ${s.cuisine ?? ''} ${s.description ?? ''}`.toLowerCase().includes(text)).map(counted), query);
    }),
    handle(ptApi.createStall, ({ body }) => {
      if (pt.stalls.some((s) => s.name.toLowerCase() === body.name.toLowerCase())) return fieldProblem([{ path: 'body.name', message: `A stall named ${body.name} already exists` }]);
      const created = stall(nextId(pt.stalls), { name: body.name, cuisine: body.cuisine, description: body.description });
      pt.stalls.push(created);
      return { id: created.id };
    }),
    handle(ptApi.getStall, ({ params }) => {
      const found = findStall(params.id);
      return found ? withItems(found) : noStall(params.id);
    }),
    handle(ptApi.updateStall, ({ params, body }) => {
      const found = findStall(params.id);
      if (!found) return noStall(params.id);
      Object.assign(found, Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)), { updatedAt: now() });
      return counted(found);
    }),
    handle(ptApi.deleteStall, ({ params }) => {
      const found = findStall(params.id);
      if (!found) return noStall(params.id);
      const open = pt.orders.filter((o) => isOpen(o) && o.lines.some((l) => l.stallId === found.id)).length;
      if (open) return problem(409, 'Conflict', `${found.name} still has ${open} open order${open === 1 ? '' : 's'}`);
      pt.stalls = pt.stalls.filter((s) => s !== found);
      pt.items = pt.items.filter((i) => i.stallId !== found.id);
    }),
    handle(ptApi.createItem, ({ params, body }) => {
      const found = findStall(params.id);
      if (!found) return noStall(params.id);
      const created = menuItem(nextId(pt.items), found.id, { name: body.name, priceCents: body.priceCents, category: body.category, description: body.description ?? null, allergens: body.allergens });
      pt.items.push(created);
      return { id: created.id };
    }),
    handle(ptApi.updateItem, ({ params, body }) => {
      const found = findItem(params.id);
      if (!found) return noItem(params.id);
      Object.assign(found, Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)));
      return found;
    }),
    handle(ptApi.kitchenDish, ({ params, body }) => {
      const found = findItem(params.itemId);
      if (!found || found.stallId !== params.id) return problem(404, 'Not Found', `No dish with id ${params.itemId} at this stall.`);
      found.soldOut = body.soldOut;
      return found;
    }),
    handle(ptApi.deleteItem, ({ params }) => {
      if (!findItem(params.id)) return noItem(params.id);
      pt.items = pt.items.filter((i) => i.id !== params.id);
    }),

    handle(ptApi.menu, () => ({ currency: pt.currency, tables: pt.tables, timeZone: pt.timeZone, stalls: pt.stalls.map((s) => ({ ...withItems(s), wait: waitOf(s.id), availability: availabilityOf(s) })) })),

    handle(ptApi.placeOrder, ({ body, request }) => {
      const key = request.headers.get('Idempotency-Key') ?? undefined;
      const replay = key ? pt.orders.find((o) => o.key === key) : undefined;
      if (replay) return { ...publicOrder(replay), token: replay.token, replayed: true };
      const failure = pt.failNextOrder;
      pt.failNextOrder = undefined;
      if (failure === 'down') return offline();
      if (typeof failure === 'number') return problem(failure, failure === 429 ? 'Too Many Requests' : 'Error', failure === 429 ? 'Too many orders from this address; try again in a minute.' : 'Something failed.');
      // The venue's own range (the schema knows only that tables start at 1).
      if (body.table > pt.tables) return fieldProblem([{ path: 'body.table', message: `Tables are numbered 1 to ${pt.tables}` }]);
      const refused = body.cart.flatMap((line, i) => {
        const item = findItem(line.itemId);
        const owner = item && findStall(item.stallId);
        if (!item || !owner) return [{ path: `body.cart.${i}`, message: `Item ${line.itemId} is not on the menu` }];
        if (item.soldOut) return [{ path: `body.cart.${i}`, message: `${item.name} is sold out` }];
        if (owner.status === 'paused') return [{ path: `body.cart.${i}`, message: `${owner.name} is not taking orders right now` }];
        if (owner.id in pt.closed) return [{ path: `body.cart.${i}`, message: `${owner.name} is closed now` }];
        return [];
      });
      if (refused.length) return fieldProblem(refused, 'Some items cannot be ordered.', 409);
      const at = now();
      const lines = body.cart.map((line, i) => {
        const item = findItem(line.itemId)!;
        const owner = findStall(item.stallId)!;
        return { id: 1000 + pt.orders.length * 50 + i, itemId: item.id, stallId: owner.id, stallName: owner.name, name: item.name, unitPriceCents: item.priceCents, quantity: line.quantity, note: line.note ?? null, allergens: item.allergens, readyAt: null };
      });
      const id = nextId(pt.orders);
      const created: FakeOrder = { id, table: body.table, status: 'received', totalCents: lines.reduce((s, l) => s + l.quantity * l.unitPriceCents, 0), lines, tickets: ticketsOf(lines, 'received', at), wait: orderWait([...new Set(lines.map((l) => l.stallId))]), createdAt: at, updatedAt: at, token: `token-${id}`, key };
      pt.orders.push(created);
      if (failure === 'lost') return offline();
      return { ...publicOrder(created), token: created.token, replayed: false };
    }),

    handle(ptApi.listOrders, ({ query }) => {
      const open = query.status === 'open';
      const list = pt.orders
        .filter((o) => (open ? isOpen(o) : o.status === query.status))
        .sort((a, b) => (open ? a.createdAt.localeCompare(b.createdAt) : b.updatedAt.localeCompare(a.updatedAt)))
        .map(publicOrder);
      return pageOf(list, query);
    }),
    handle(ptApi.kitchen, ({ params }) => {
      if (pt.kitchenDown) return offline();
      const found = findStall(params.id);
      if (!found) return noStall(params.id);
      const tickets = pt.orders
        .filter(isOpen)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .flatMap((o) => kitchenTicketOf(publicOrder(o), found.id) ?? []);
      return { stall: { id: found.id, name: found.name }, tickets };
    }),
    handle(ptApi.moveTicket, ({ params, body }) => {
      if (pt.kitchenDown) return offline();
      const found = findStall(params.id);
      if (!found) return noStall(params.id);
      const o = pt.orders.find((x) => x.id === params.orderId);
      const ticket = o?.tickets.find((t) => t.stallId === found.id);
      if (!o || !ticket) return problem(404, 'Not Found', `No order with id ${params.orderId}.`);
      if (ticket.status !== body.to) {
        if (ticket.status !== body.from) return problem(409, 'Conflict', `${found.name}'s ticket of order ${o.id} is ${ticket.status} now, not ${body.from}: another screen moved it.`);
        const at = now();
        o.tickets = o.tickets.map((t) =>
          t !== ticket ? t : { ...t, status: body.to, preparingAt: body.to === 'received' ? null : body.to === 'preparing' && body.from === 'received' ? at : t.preparingAt, readyAt: body.to === 'ready' ? at : null },
        );
        // The ticket's lines follow it: all ready with it, none back from it (as the server's, decision 0108).
        const mine = (l: Order['lines'][number]) => l.stallId === found.id;
        if (body.to === 'ready') o.lines = o.lines.map((l) => (mine(l) && !l.readyAt ? { ...l, readyAt: at } : l));
        else if (body.from === 'ready' || body.to === 'received') o.lines = o.lines.map((l) => (mine(l) && (body.to === 'received' || l.readyAt === ticket.readyAt) ? { ...l, readyAt: null } : l));
        Object.assign(o, { status: orderStatusOfTickets(o.tickets), updatedAt: at });
      }
      return kitchenTicketOf(publicOrder(o), found.id)!;
    }),
    handle(ptApi.moveLine, ({ params, body }) => {
      if (pt.kitchenDown) return offline();
      const found = findStall(params.id);
      if (!found) return noStall(params.id);
      const o = pt.orders.find((x) => x.id === params.orderId);
      const ticket = o?.tickets.find((t) => t.stallId === found.id);
      const line = o?.lines.find((l) => l.id === params.lineId && l.stallId === found.id);
      if (!o || !ticket || !line) return problem(404, 'Not Found', `No line ${params.lineId} in order ${params.orderId}.`);
      if ((line.readyAt !== null) !== body.ready) {
        if (o.status === 'served' || o.status === 'cancelled') return problem(409, 'Conflict', `Order ${o.id} is ${o.status}; its dishes no longer change.`);
        const at = now();
        o.lines = o.lines.map((l) => (l === line ? { ...l, readyAt: body.ready ? at : null } : l));
        const mine = o.lines.filter((l) => l.stallId === found.id);
        const to = mine.every((l) => l.readyAt) ? 'ready' : 'preparing';
        o.tickets = o.tickets.map((t) => (t !== ticket ? t : { ...t, status: to, preparingAt: t.preparingAt ?? at, readyAt: to === 'ready' ? at : null }));
        Object.assign(o, { status: orderStatusOfTickets(o.tickets), updatedAt: at });
      }
      return kitchenTicketOf(publicOrder(o), found.id)!;
    }),
    handle(ptApi.getOrder, ({ params, query }) => {
      const found = pt.orders.find((o) => o.id === params.id);
      if (!found || query.token !== found.token) return problem(404, 'Not Found', 'No such order.');
      return publicOrder(found);
    }),
    handle(ptApi.updateOrder, ({ params, body }) => {
      const found = pt.orders.find((o) => o.id === params.id);
      if (!found) return problem(404, 'Not Found', `No order with id ${params.id}.`);
      if (!canMoveOrder(found.status, body.status)) return problem(409, 'Conflict', `Order ${found.id} is ${found.status}; it cannot move to ${body.status}.`);
      Object.assign(found, { status: body.status, updatedAt: now() });
      return publicOrder(found);
    }),
  ];
  return pt;
}
