import { MAX_QUANTITY, OPEN_ORDER_STATUSES, canMoveOrder, type MenuItem, type Order, type OrderStatus, type Stall } from '@contracts/pt.contract';
import { problem } from '@/test-utils';
import type { FakeHandler, FakeReply } from '@/test-utils';

/**
 * Test support: an in-memory food court behaving like `bff/features/pt` as its contract describes
 * it (paging and search, 400 field problems, 409s naming each cart line, Idempotency-Key replays,
 * one-step status moves), for route tests to drive through the real screens.
 *
 * `failNextOrder`: `'lost'` stores the order and then drops the connection (the answer never
 * arrives), `'down'` drops it before anything is stored, a number answers that status instead.
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
  handler: FakeHandler;
};

export function stall(id: number, overrides: Partial<Stall> = {}): Stall {
  return { id, name: `Stall ${id}`, description: null, cuisine: null, status: 'open', itemCount: 0, createdAt: AT, updatedAt: AT, ...overrides };
}

export function menuItem(id: number, stallId: number, overrides: Partial<MenuItem> = {}): MenuItem {
  return { id, stallId, name: `Dish ${id}`, description: null, category: 'Mains', priceCents: 850, soldOut: false, allergens: [], ...overrides };
}

/** An order placed `minutesAgo` (so the board's ages are known), one line per item given. */
export function order(id: number, overrides: Partial<Order> & { minutesAgo?: number } = {}): FakeOrder {
  const { minutesAgo = 1, ...rest } = overrides;
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const lines = rest.lines ?? [{ id: id * 10, itemId: 1, stallId: 1, stallName: 'Stall 1', name: 'Dish 1', unitPriceCents: 850, quantity: 1, note: null }];
  return {
    id,
    table: 4,
    status: 'received',
    totalCents: lines.reduce((sum, l) => sum + l.quantity * l.unitPriceCents, 0),
    lines,
    createdAt: at,
    updatedAt: at,
    token: `token-${id}`,
    ...rest,
  };
}

const fieldProblem = (status: number, errors: { path: string; message: string }[], detail: string): FakeReply => ({
  status,
  contentType: 'application/problem+json',
  json: { type: 'about:blank', title: status === 409 ? 'Conflict' : 'Bad Request', status, detail, errors },
});

const page = <T>(items: T[], url: URL) => {
  const p = Number(url.searchParams.get('page') ?? '0');
  const size = Number(url.searchParams.get('pageSize') ?? '10');
  return { json: { items: items.slice(p * size, p * size + size), page: p, pageSize: size, total: items.length } };
};

const publicOrder = ({ token: _token, key: _key, ...o }: FakeOrder): Order => o;

export function fakePt(init: { stalls?: Stall[]; items?: MenuItem[]; orders?: FakeOrder[]; tables?: number; currency?: string } = {}): FakePt {
  // Copies: a test changing the fake's state (sold out, a status) must not change the fixtures of the next test.
  const pt: FakePt = { stalls: (init.stalls ?? []).map((s) => ({ ...s })), items: (init.items ?? []).map((i) => ({ ...i })), orders: (init.orders ?? []).map((o) => ({ ...o })), currency: init.currency ?? 'EUR', tables: init.tables ?? 20, handler: () => undefined };
  const counted = (s: Stall): Stall => ({ ...s, itemCount: pt.items.filter((i) => i.stallId === s.id).length });
  const withItems = (s: Stall) => ({ ...counted(s), items: pt.items.filter((i) => i.stallId === s.id) });
  const nextId = (list: { id: number }[]) => Math.max(0, ...list.map((x) => x.id)) + 1;
  let clock = Date.now();
  const now = () => new Date((clock += 1000)).toISOString();

  pt.handler = ({ method, url, body, headers }) => {
    const path = url.pathname;
    if (!path.startsWith('/api/pt/')) return undefined;

    if (path === '/api/pt/stalls' && method === 'GET') {
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      const found = pt.stalls.filter((s) => !query || `${s.name} ${s.cuisine ?? ''} ${s.description ?? ''}`.toLowerCase().includes(query)).map(counted);
      return page(found, url);
    }
    if (path === '/api/pt/stalls' && method === 'POST') {
      const b = body as { name: string; cuisine: string | null; description: string | null };
      if (!b.name.trim()) return fieldProblem(400, [{ path: 'body.name', message: 'Required' }], 'The request is not valid.');
      if (pt.stalls.some((s) => s.name.toLowerCase() === b.name.trim().toLowerCase())) return fieldProblem(400, [{ path: 'body.name', message: `A stall named ${b.name} already exists` }], 'The request is not valid.');
      const created = stall(nextId(pt.stalls), { name: b.name.trim(), cuisine: b.cuisine, description: b.description });
      pt.stalls.push(created);
      return { status: 201, json: { id: created.id } };
    }
    const stallMatch = /^\/api\/pt\/stalls\/(\d+)(\/items)?$/.exec(path);
    if (stallMatch) {
      const found = pt.stalls.find((s) => s.id === Number(stallMatch[1]));
      if (!found) return problem(404, 'Not Found', `No stall with id ${stallMatch[1]}.`);
      if (stallMatch[2] && method === 'POST') {
        const b = body as { name: string; priceCents: number; category?: string; description?: string | null; allergens?: string[] };
        const created = menuItem(nextId(pt.items), found.id, { name: b.name, priceCents: b.priceCents, category: b.category ?? 'Mains', description: b.description ?? null, allergens: b.allergens ?? [] });
        pt.items.push(created);
        return { status: 201, json: { id: created.id } };
      }
      if (method === 'GET') return { json: withItems(found) };
      if (method === 'PATCH') {
        Object.assign(found, body as Partial<Stall>, { updatedAt: now() });
        return { json: counted(found) };
      }
      if (method === 'DELETE') {
        const open = pt.orders.filter((o) => (OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(o.status) && o.lines.some((l) => l.stallId === found.id)).length;
        if (open) return problem(409, 'Conflict', `${found.name} still has ${open} open order${open === 1 ? '' : 's'}`);
        pt.stalls = pt.stalls.filter((s) => s !== found);
        pt.items = pt.items.filter((i) => i.stallId !== found.id);
        return { status: 204 };
      }
    }
    const itemMatch = /^\/api\/pt\/items\/(\d+)$/.exec(path);
    if (itemMatch) {
      const found = pt.items.find((i) => i.id === Number(itemMatch[1]));
      if (!found) return problem(404, 'Not Found', `No menu item with id ${itemMatch[1]}.`);
      if (method === 'PATCH') {
        const b = body as Partial<MenuItem>;
        if (b.priceCents !== undefined && b.priceCents > 100_000) return fieldProblem(400, [{ path: 'body.priceCents', message: 'A price is at most 100000 cents' }], 'The request is not valid.');
        Object.assign(found, b);
        return { json: found };
      }
      if (method === 'DELETE') {
        pt.items = pt.items.filter((i) => i !== found);
        return { status: 204 };
      }
    }

    if (path === '/api/pt/menu' && method === 'GET') {
      return { json: { currency: pt.currency, tables: pt.tables, stalls: pt.stalls.filter((s) => s.status === 'open').map(withItems) } };
    }

    if (path === '/api/pt/order' && method === 'POST') {
      const key = headers['Idempotency-Key'];
      const replay = key ? pt.orders.find((o) => o.key === key) : undefined;
      if (replay) return { status: 201, json: { ...publicOrder(replay), token: replay.token } };
      const failure = pt.failNextOrder;
      pt.failNextOrder = undefined;
      if (failure === 'down') throw new TypeError('Failed to fetch');
      if (typeof failure === 'number') return problem(failure, failure === 429 ? 'Too Many Requests' : 'Error', failure === 429 ? 'Too many orders from this address; try again in a minute.' : 'Something failed.');
      const b = body as { table: number; cart: { itemId: number; quantity: number; note?: string | null }[] };
      if (b.table < 1 || b.table > pt.tables) return fieldProblem(400, [{ path: 'body.table', message: `Tables are numbered 1 to ${pt.tables}` }], 'The request is not valid.');
      const invalid = b.cart.flatMap((line, i) => (line.quantity < 1 || line.quantity > MAX_QUANTITY ? [{ path: `body.cart.${i}.quantity`, message: `The quantity is at most ${MAX_QUANTITY}` }] : []));
      if (invalid.length) return fieldProblem(400, invalid, 'The request is not valid.');
      const refused = b.cart.flatMap((line, i) => {
        const item = pt.items.find((x) => x.id === line.itemId);
        const owner = item && pt.stalls.find((s) => s.id === item.stallId);
        if (!item || !owner) return [{ path: `body.cart.${i}`, message: `Item ${line.itemId} is not on the menu` }];
        if (item.soldOut) return [{ path: `body.cart.${i}`, message: `${item.name} is sold out` }];
        if (owner.status === 'paused') return [{ path: `body.cart.${i}`, message: `${owner.name} is not taking orders right now` }];
        return [];
      });
      if (refused.length) return fieldProblem(409, refused, 'Some items cannot be ordered.');
      const at = now();
      const lines = b.cart.map((line, i) => {
        const item = pt.items.find((x) => x.id === line.itemId)!;
        const owner = pt.stalls.find((s) => s.id === item.stallId)!;
        return { id: 1000 + pt.orders.length * 50 + i, itemId: item.id, stallId: owner.id, stallName: owner.name, name: item.name, unitPriceCents: item.priceCents, quantity: line.quantity, note: line.note ?? null };
      });
      const id = nextId(pt.orders);
      const created: FakeOrder = { id, table: b.table, status: 'received', totalCents: lines.reduce((s, l) => s + l.quantity * l.unitPriceCents, 0), lines, createdAt: at, updatedAt: at, token: `token-${id}`, key };
      pt.orders.push(created);
      if (failure === 'lost') throw new TypeError('Failed to fetch');
      return { status: 201, json: { ...publicOrder(created), token: created.token } };
    }

    if (path === '/api/pt/orders' && method === 'GET') {
      const status = url.searchParams.get('status') ?? 'open';
      const open = status === 'open';
      const list = pt.orders
        .filter((o) => (open ? (OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(o.status) : o.status === status))
        .sort((a, b) => (open ? a.createdAt.localeCompare(b.createdAt) : b.updatedAt.localeCompare(a.updatedAt)))
        .map(publicOrder);
      return page(list, url);
    }
    const orderMatch = /^\/api\/pt\/orders\/(\d+)$/.exec(path);
    if (orderMatch) {
      const found = pt.orders.find((o) => o.id === Number(orderMatch[1]));
      if (method === 'GET') {
        if (!found || url.searchParams.get('token') !== found.token) return problem(404, 'Not Found', 'No such order.');
        return { json: publicOrder(found) };
      }
      if (!found) return problem(404, 'Not Found', `No order with id ${orderMatch[1]}.`);
      if (method === 'PATCH') {
        const to = (body as { status: OrderStatus }).status;
        if (!canMoveOrder(found.status, to)) return problem(409, 'Conflict', `Order ${found.id} is ${found.status}; it cannot move to ${to}.`);
        Object.assign(found, { status: to, updatedAt: now() });
        return { json: publicOrder(found) };
      }
    }
    return undefined;
  };
  return pt;
}
