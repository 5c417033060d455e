import * as v from 'valibot';
import { MAX_QUANTITY, OrderSchema, type MenuItem, type Order, type PlacedOrder, type Stall } from '@contracts/pt.contract';
import { parseDinerSearch } from '@pages/pt.reads';
import { storedValue, useStored } from '@/lib/stored-value';

/**
 * What a diner's browser remembers between pages and reloads (localStorage, through
 * `storedValue`: read back through a schema, shared with other tabs): the table the QR code
 * named, the cart across stalls, the submission in flight (its Idempotency-Key) and the orders
 * placed from here.
 */

// ---- the table ----------------------------------------------------------------------------------

const tableStore = storedValue<number | null>('frontdesk.pt.table', v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))), null);

export const useRememberedTable = () => useStored(tableStore);
export const rememberTable = (table: number | null) => {
  if (tableStore.read() !== table) tableStore.write(table);
};

/** A table the venue has: numbered 1 to `tables` (any from 1 while the menu, which says how many, is unread: the order is checked when placed). */
export const isTable = (n: number | null, tables: number | undefined): n is number => n !== null && n >= 1 && (tables === undefined || n <= tables);

/**
 * For a diner page's loader: the table its address names (`?table=`, from a table's QR code or a
 * link that carries it) is remembered when the venue has it, before the page renders, so that page
 * and the next ones are that table's (and the page is not drawn a second time when it is).
 */
export function rememberTableOfAddress(url: string, tables: number | undefined) {
  const { tableGiven, table } = parseDinerSearch(new URL(url).searchParams);
  if (tableGiven && isTable(table, tables)) rememberTable(table);
}

// ---- the cart -----------------------------------------------------------------------------------

const CartLineSchema = v.object({
  itemId: v.number(),
  stallId: v.number(),
  stallName: v.string(),
  name: v.string(),
  /** The price the menu showed when it was added: for display; the server prices the order. */
  unitPriceCents: v.number(),
  quantity: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_QUANTITY)),
  note: v.nullable(v.string()),
});
export type CartLine = v.InferOutput<typeof CartLineSchema>;

const cartStore = storedValue<CartLine[]>('frontdesk.pt.cart', v.array(CartLineSchema), []);

export const useCart = () => useStored(cartStore);

/** A line is one item with one note: the same dish "no chilli" and "extra chilli" are two lines. */
export const lineKey = (line: Pick<CartLine, 'itemId' | 'note'>) => `${line.itemId}:${line.note ?? ''}`;

/** A count a line can hold: whole, 1 to MAX_QUANTITY. */
export const clampQuantity = (n: number) => Math.min(MAX_QUANTITY, Math.max(1, Math.round(n)));

/** Adds an item; the same item with the same note adds to that line (never past the maximum). */
export function addToCart(stall: Pick<Stall, 'id' | 'name'>, item: MenuItem, quantity: number, note: string | null): CartLine {
  const cart = cartStore.read();
  const line: CartLine = { itemId: item.id, stallId: stall.id, stallName: stall.name, name: item.name, unitPriceCents: item.priceCents, quantity: clampQuantity(quantity), note: note?.trim() || null };
  const existing = cart.find((l) => lineKey(l) === lineKey(line));
  if (existing) {
    const merged = { ...existing, name: line.name, unitPriceCents: line.unitPriceCents, quantity: clampQuantity(existing.quantity + line.quantity) };
    cartStore.write(cart.map((l) => (l === existing ? merged : l)));
    return merged;
  }
  cartStore.write([...cart, line]);
  return line;
}

export function setQuantity(key: string, quantity: number) {
  cartStore.write(cartStore.read().map((l) => (lineKey(l) === key ? { ...l, quantity: clampQuantity(quantity) } : l)));
}

export function removeLine(key: string) {
  cartStore.write(cartStore.read().filter((l) => lineKey(l) !== key));
}

export const clearCart = () => cartStore.write([]);

// ---- the submission in flight ---------------------------------------------------------------

const submissionStore = storedValue<{ key: string; payload: string } | null>('frontdesk.pt.submission', v.nullable(v.object({ key: v.string(), payload: v.string() })), null);

/** 32 hex digits. getRandomValues, not randomUUID: a venue's plain-http LAN address is not a secure context. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The Idempotency-Key of a submission: the one already used for exactly this order (a retry after
 * the answer was lost, even after a reload), or a fresh one for anything else.
 */
export function idempotencyKeyFor(payload: string): string {
  const pending = submissionStore.read();
  if (pending?.payload === payload) return pending.key;
  const key = newKey();
  submissionStore.write({ key, payload });
  return key;
}

/** The server answered this submission for good (placed, or refused): the next one gets a new key. */
export const settleSubmission = () => submissionStore.write(null);

/**
 * A submission whose answer never came (it may have been placed), when it is not what the cart
 * would send now: it must be sent again, as it was, to learn its fate before anything else is.
 */
export function unsettledOtherThan(payload: string): { key: string; payload: string } | null {
  const pending = submissionStore.read();
  return pending && pending.payload !== payload ? pending : null;
}

/** Takes what an order placed out of the cart (by item and note), leaving what was added since. */
export function takeOrderedFromCart(ordered: Array<{ itemId: number; quantity: number; note?: string | null }>) {
  const left = new Map(ordered.map((line) => [lineKey({ itemId: line.itemId, note: line.note ?? null }), line.quantity]));
  cartStore.write(
    cartStore.read().flatMap((line) => {
      const taken = left.get(lineKey(line)) ?? 0;
      return line.quantity > taken ? [{ ...line, quantity: line.quantity - taken }] : [];
    }),
  );
}

// ---- orders placed from this browser --------------------------------------------------------

const TrackedOrderSchema = v.object({ token: v.string(), order: OrderSchema });
export type TrackedOrder = v.InferOutput<typeof TrackedOrderSchema>;
/** Enough for a table's meal; older ones drop off. */
export const TRACKED_ORDERS = 5;

const ordersStore = storedValue<TrackedOrder[]>('frontdesk.pt.orders', v.array(TrackedOrderSchema), []);

export const useTrackedOrders = () => useStored(ordersStore);

export function trackOrder(placed: PlacedOrder) {
  const { token, ...order } = placed;
  ordersStore.write([{ token, order }, ...ordersStore.read().filter((t) => t.order.id !== order.id)].slice(0, TRACKED_ORDERS));
}

/** The latest state of an order the diner follows (from its live stream). */
export function updateTrackedOrder(order: Order) {
  const list = ordersStore.read();
  const found = list.find((t) => t.order.id === order.id);
  if (!found || found.order.updatedAt > order.updatedAt) return;
  if (found.order.updatedAt === order.updatedAt && found.order.status === order.status) return;
  ordersStore.write(list.map((t) => (t === found ? { ...t, order } : t)));
}

export const forgetOrder = (id: number) => ordersStore.write(ordersStore.read().filter((t) => t.order.id !== id));
