import { ptApi } from '@contracts/pt.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { menuRead, type StallsSearch } from '@pages/pt.reads';
import { write } from '@/lib/endpoint-write';
import { paths } from '@/lib/paths';
import { queryOf } from '@/lib/route-reads';

/**
 * The food court's client side of its data: the links its pages build, the menu as the cache holds
 * it (its reads are declared in pages/pt.reads.ts), and the writes with what each one changes.
 */

/** The URL of the stall list with some params changed (page 1 and an empty query are left out). */
export function stallsHref(search: StallsSearch): string {
  const params = new URLSearchParams();
  if (search.query) params.set('query', search.query);
  if (search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query ? `${paths.ptStalls}?${query}` : paths.ptStalls;
}

/** The diners' menu, which the add-to-cart form reads again before adding a dish. */
export const menuQuery = queryOf(menuRead);

/** The diner's own order as Server-Sent Events (EventSource takes the URL; the token proves it is theirs). */
export const orderStreamUrl = (id: number, token: string) => urlOf(ptApi.orderStream, { params: { id }, query: { token } });

// ---- writes (docs/decisions/0001-one-way-to-write.md) -------------------------------------------

/** A stall's page, the list (item counts, status) and the diners' menu (where a paused or closed stall says so). */
const stallChanged = (id: number | string) => [[ptApi.getStall, { params: { id } }], ptApi.listStalls, ptApi.menu] as const;

export const createStall = write(ptApi.createStall, { stale: [ptApi.listStalls, ptApi.menu] });
export const updateStall = write(ptApi.updateStall, { stale: ({ params }) => stallChanged(params.id) });
/** Gone: its own page would only answer 404 now. */
export const deleteStall = write(ptApi.deleteStall, { gone: ({ params }) => [[ptApi.getStall, { params }]], stale: [ptApi.listStalls, ptApi.menu] });

/** `params.id` is the stall's. Resolves once the stall's page shows the change (the button stays pending until then). */
export const createItem = write(ptApi.createItem, { stale: ({ params }) => stallChanged(params.id) });
export const updateItem = write(ptApi.updateItem, { stale: (_input, item) => stallChanged(item.stallId) });
/** A kitchen marks one of its own dishes sold out or back: its stall's page, the list and the menu read again (diners hear it live). */
export const setDishSoldOut = write(ptApi.kitchenDish, { stale: (_input, item) => stallChanged(item.stallId) });
/** A 204 does not say whose item it was: every stall page cached reads again (one is on screen). */
export const deleteItem = write(ptApi.deleteItem, { stale: [ptApi.getStall, ptApi.listStalls, ptApi.menu] });

/**
 * The diner's order; its `Idempotency-Key` header makes a retried submission answer the same
 * order. A refusal (sold out, a paused stall) reads the menu again, so the cart's warnings match it.
 */
export const placeOrder = write(ptApi.placeOrder, { staleWhenRefused: [ptApi.menu] });

/** A runner moves an order on (bump), back (undo) or cancels it; a refused move (409: moved elsewhere meanwhile) reads the board again. */
export const moveOrder = write(ptApi.updateOrder, { staleWhenRefused: [ptApi.listOrders] });

/**
 * A kitchen bumps or undoes its ticket from the step its screen saw (replayed from the offline queue
 * too: a move already done answers as done). A refusal (409: moved on another screen) reads the screen again.
 */
export const moveTicket = write(ptApi.moveTicket, { staleWhenRefused: [ptApi.kitchen] });

/** A kitchen marks one dish of its ticket ready, or not ready after all (queued like a bump; a tap already done answers as done). */
export const moveLine = write(ptApi.moveLine, { staleWhenRefused: [ptApi.kitchen] });
