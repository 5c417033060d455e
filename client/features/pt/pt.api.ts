import * as v from 'valibot';
import {
  ptApi,
  type CreateMenuItemSchema,
  type CreateStall,
  type MenuItem,
  type Order,
  type OrderStatus,
  type PlaceOrder,
  type PlacedOrder,
  type Stall,
  type UpdateMenuItem,
  type UpdateStall,
} from '@contracts/pt.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { call, fetcherFor, keyFor } from '@/lib/api-client';
import { invalidate } from '@/lib/cache';
import { pageParam, parseSearch, toApiPage } from '@/lib/search-params';
import { paths } from '@/lib/paths';

/**
 * The food court's data layer: keys and fetchers of its reads (keys name the endpoint and its input), and the
 * writes with the endpoints each one invalidates.
 */
export const PAGE_SIZE = 10;
/** The runner board shows every open order on one screen (the API's largest page). */
export const BOARD_PAGE_SIZE = 100;
/** How many served (and cancelled) orders the board keeps within reach of an undo. */
export const RECENT_SIZE = 6;

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
export const MENU_KEY = keyFor(ptApi.menu);

export const OPEN_ORDERS_KEY = keyFor(ptApi.listOrders, { query: { status: 'open', page: 0, pageSize: BOARD_PAGE_SIZE } });
export const recentOrdersKey = (status: 'served' | 'cancelled') => keyFor(ptApi.listOrders, { query: { status, page: 0, pageSize: RECENT_SIZE } });

/** The diner's own order as Server-Sent Events (EventSource takes the URL; the token proves it is theirs). */
export const orderStreamUrl = (id: number, token: string) => urlOf(ptApi.orderStream, { params: { id }, query: { token } });

export const fetchStallPage = fetcherFor(ptApi.listStalls);
export const fetchStall = fetcherFor(ptApi.getStall);
export const fetchMenu = fetcherFor(ptApi.menu);
export const fetchOrderPage = fetcherFor(ptApi.listOrders);

// ---- invalidation -----------------------------------------------------------------------------

/** A stall's page, the list (item counts, status) and the diners' menu (paused stalls leave it). */
const invalidateStall = (id: number) =>
  Promise.all([invalidate(ptApi.getStall, { params: { id } }), invalidate(ptApi.listStalls), invalidate(ptApi.menu)]);

// ---- writes: stalls and menus -----------------------------------------------------------------

export async function createStall(input: CreateStall): Promise<number> {
  const { id } = await call(ptApi.createStall, { body: input });
  await Promise.all([invalidate(ptApi.listStalls), invalidate(ptApi.menu)]);
  return id;
}

export async function updateStall(id: number, patch: UpdateStall): Promise<Stall> {
  const stall = await call(ptApi.updateStall, { params: { id }, body: patch });
  await invalidateStall(id);
  return stall;
}

export async function deleteStall(id: number): Promise<void> {
  await call(ptApi.deleteStall, { params: { id } });
  // Its own page is not read again: that would only answer 404 now.
  await Promise.all([invalidate(ptApi.getStall, { params: { id } }, { gone: true }), invalidate(ptApi.listStalls), invalidate(ptApi.menu)]);
}

/** The item as typed: category and allergens may be left out (the server fills in Mains and none). */
export async function createItem(stallId: number, input: v.InferInput<typeof CreateMenuItemSchema>): Promise<number> {
  const { id } = await call(ptApi.createItem, { params: { id: stallId }, body: input });
  await invalidateStall(stallId);
  return id;
}

/** Resolves once the stall's page shows the change (the button stays pending until then). */
export async function updateItem(item: MenuItem, patch: UpdateMenuItem): Promise<MenuItem> {
  const updated = await call(ptApi.updateItem, { params: { id: item.id }, body: patch });
  await invalidateStall(item.stallId);
  return updated;
}

export async function deleteItem(item: MenuItem): Promise<void> {
  await call(ptApi.deleteItem, { params: { id: item.id } });
  await invalidateStall(item.stallId);
}

// ---- writes: orders ---------------------------------------------------------------------------

/** The diner's order; `idempotencyKey` makes a retried submission answer the same order. */
export function placeOrder(order: PlaceOrder, idempotencyKey: string): Promise<PlacedOrder> {
  return call(ptApi.placeOrder, { body: order, headers: { 'Idempotency-Key': idempotencyKey } });
}

/** A runner moves an order on (bump), back (undo) or cancels it. */
export function moveOrder(id: number, status: OrderStatus): Promise<Order> {
  return call(ptApi.updateOrder, { params: { id }, body: { status } });
}

/** Every list of the board reads again (after a refused move, or a reconnect that may have missed changes). */
export const refreshBoard = () => invalidate(ptApi.listOrders);
