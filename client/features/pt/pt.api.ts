import * as v from 'valibot';
import { ptApi, ptReads } from '@contracts/pt.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { fetcherFor, keyFor, keyOf } from '@/lib/api-client';
import { invalidate } from '@/lib/cache';
import { write } from '@/lib/endpoint-write';
import { pageParam, parseSearch, toApiPage } from '@pages/search-params';
import { paths } from '@/lib/paths';

/**
 * The food court's data layer: keys and fetchers of its reads (keys name the endpoint and its input), and the
 * writes with what each one changes.
 */
export const PAGE_SIZE = 10;

// ---- search params (every key falls back silently) ------------------------------------------

const queryParam = v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), '');

export const StallsSearchSchema = v.object({ page: pageParam, query: queryParam });
export type StallsSearch = v.InferOutput<typeof StallsSearchSchema>;
export const parseStallsSearch = (url: URL | URLSearchParams) => parseSearch(StallsSearchSchema, url);

/** `?table=` as the QR code writes it: a whole number, or nothing (checked against the venue's tables on the page). */
const tableParam = v.fallback(v.pipe(v.string(), v.regex(/^\d{1,6}$/), v.toNumber()), 0);
/** `?stall=` on the diner menu: one stall's section, or 0 for all. */
const stallParam = v.fallback(v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.toNumber()), 0);
export const DinerSearchSchema = v.object({ table: tableParam, stall: stallParam });
export type DinerSearch = v.InferOutput<typeof DinerSearchSchema>;
/** Whether the URL names a table at all (`?table=abc` does, badly; no `table` does not). */
export const parseDinerSearch = (url: URL | URLSearchParams) => {
  const params = url instanceof URL ? url.searchParams : url;
  return { ...parseSearch(DinerSearchSchema, params), tableGiven: params.has('table') };
};

/** The URL of the stall list with some params changed (page 1 and an empty query are left out). */
export function stallsHref(search: StallsSearch): string {
  const params = new URLSearchParams();
  if (search.query) params.set('query', search.query);
  if (search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query ? `${paths.ptStalls}?${query}` : paths.ptStalls;
}

// ---- keys and fetchers ------------------------------------------------------------------------

/** `GET /api/pt/stalls?page=<0-based>…` for a 1-based URL page. */
export const stallsKey = (search: { page: number; query?: string }) =>
  keyFor(ptApi.listStalls, { query: { page: toApiPage(search.page), pageSize: PAGE_SIZE, query: search.query } });
export const stallKey = (id: number | string) => keyFor(ptApi.getStall, { params: { id } });
export const MENU_KEY = keyOf(ptReads.menu);

// The board's reads are the runner board's first reads, preloaded from its HTML (bff/contracts/first-reads.contract.ts).
export const OPEN_ORDERS_KEY = keyOf(ptReads.openOrders);
export const recentOrdersKey = (status: 'served' | 'cancelled') => keyOf(status === 'served' ? ptReads.servedOrders : ptReads.cancelledOrders);

/** The diner's own order as Server-Sent Events (EventSource takes the URL; the token proves it is theirs). */
export const orderStreamUrl = (id: number, token: string) => urlOf(ptApi.orderStream, { params: { id }, query: { token } });

export const fetchStallPage = fetcherFor(ptApi.listStalls);
export const fetchStall = fetcherFor(ptApi.getStall);
export const fetchMenu = fetcherFor(ptApi.menu);
export const fetchOrderPage = fetcherFor(ptApi.listOrders);

/** A stall's kitchen screen: its open tickets. */
export const kitchenKey = (stallId: number | string) => keyFor(ptApi.kitchen, { params: { id: stallId } });
export const fetchKitchen = fetcherFor(ptApi.kitchen);
/** The kitchen picker: every stall on one screen (the API's largest page). */
export const KITCHEN_STALLS_KEY = keyFor(ptApi.listStalls, { query: { page: 0, pageSize: 100 } });

// ---- writes (docs/decisions/0001-one-way-to-write.md) -------------------------------------------

/** A stall's page, the list (item counts, status) and the diners' menu (paused stalls leave it). */
const stallChanged = (id: number | string) => [[ptApi.getStall, { params: { id } }], ptApi.listStalls, ptApi.menu] as const;

export const createStall = write(ptApi.createStall, { stale: [ptApi.listStalls, ptApi.menu] });
export const updateStall = write(ptApi.updateStall, { stale: ({ params }) => stallChanged(params.id) });
/** Gone: its own page would only answer 404 now. */
export const deleteStall = write(ptApi.deleteStall, { gone: ({ params }) => [[ptApi.getStall, { params }]], stale: [ptApi.listStalls, ptApi.menu] });

/** `params.id` is the stall's. Resolves once the stall's page shows the change (the button stays pending until then). */
export const createItem = write(ptApi.createItem, { stale: ({ params }) => stallChanged(params.id) });
export const updateItem = write(ptApi.updateItem, { stale: (_input, item) => stallChanged(item.stallId) });
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

/** Every list of the board reads again (after a refused move, or a reconnect that may have missed changes). */
export const refreshBoard = () => invalidate(ptApi.listOrders);
