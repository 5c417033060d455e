import * as v from 'valibot';
import { CURSOR_PAGE_ENTRIES, IdParamSchema, NoContentSchema, PageQuerySchema, idNumber, idText, optionalText, pageOf, requiredText } from './common.contract';
import { endpoint } from './endpoint.contract';
import { StallAvailabilitySchema, WeeklyHoursSchema } from './stall-hours.contract';

/**
 * The food court (`/api/pt`): stalls and their menus (kept by staff), diners ordering from their
 * table without an account, and the runners' board. Money is always integer cents.
 */

const optionalQuery = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'Search is at most 200 characters')));
const atLeastOne = (names: string) => v.check((patch: Record<string, unknown>) => Object.values(patch).some((value) => value !== undefined), `Send at least one of ${names}`);

export const MAX_PRICE_CENTS = 100_000;
export const MAX_QUANTITY = 20;
export const MAX_CART_LINES = 50;

// ---- stalls and menu items ----------------------------------------------------------------

export const STALL_STATUSES = ['open', 'paused'] as const;
export const StallStatusSchema = v.picklist(STALL_STATUSES, 'Expected open or paused');

export const MenuItemSchema = v.object({
  id: v.number(),
  stallId: v.number(),
  name: v.string(),
  description: v.nullable(v.string()),
  category: v.string(),
  priceCents: v.number(),
  soldOut: v.boolean(),
  allergens: v.array(v.string()),
});
export type MenuItem = v.InferOutput<typeof MenuItemSchema>;

export const StallSchema = v.object({
  id: v.number(),
  name: v.string(),
  description: v.nullable(v.string()),
  cuisine: v.nullable(v.string()),
  status: StallStatusSchema,
  /** Weekly opening hours in the venue's zone; null: open whenever not paused (stall-hours.contract.ts). */
  hours: v.nullable(WeeklyHoursSchema),
  itemCount: v.number(),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Stall = v.InferOutput<typeof StallSchema>;
export const StallPageSchema = pageOf(StallSchema);

export const StallWithItemsSchema = v.object({ ...StallSchema.entries, items: v.array(MenuItemSchema) });
export type StallWithItems = v.InferOutput<typeof StallWithItemsSchema>;

export const StallListQuerySchema = v.object({ ...PageQuerySchema.entries, query: optionalQuery });
export type StallListQuery = v.InferOutput<typeof StallListQuerySchema>;

export const CreateStallSchema = v.object({
  name: requiredText('Enter the stall’s name', 80),
  description: optionalText(500),
  cuisine: optionalText(40),
});
export type CreateStall = v.InferOutput<typeof CreateStallSchema>;

export const UpdateStallSchema = v.pipe(
  v.object({
    name: v.optional(requiredText('Enter the stall’s name', 80)),
    description: optionalText(500),
    cuisine: optionalText(40),
    status: v.optional(StallStatusSchema),
    /** null: no hours (open whenever not paused). */
    hours: v.optional(v.nullable(WeeklyHoursSchema)),
  }),
  atLeastOne('name, description, cuisine, status, hours'),
);
export type UpdateStall = v.InferOutput<typeof UpdateStallSchema>;

/** Cents in the API; a person types the price in the currency ("7.50"), so the words say it that way. */
const PriceCentsSchema = v.pipe(
  v.number('Enter a price such as 7.50'),
  v.integer('Enter a price with at most two decimals'),
  v.minValue(0, 'A price cannot be negative'),
  v.maxValue(MAX_PRICE_CENTS, `A price can be at most ${(MAX_PRICE_CENTS / 100).toFixed(2)}`),
);
const AllergensSchema = v.pipe(
  v.array(v.pipe(v.string('Enter allergens as text'), v.trim(), v.nonEmpty('An allergen cannot be empty'), v.maxLength(30, 'Use at most 30 characters for each allergen')), 'Enter allergens as a list'),
  v.maxLength(14, 'List at most 14 allergens'),
);

const DishNameSchema = requiredText('Enter the dish’s name', 80);
const CategorySchema = requiredText('Enter a category, such as Mains', 40);

export const CreateMenuItemSchema = v.object({
  name: DishNameSchema,
  priceCents: PriceCentsSchema,
  category: v.optional(CategorySchema, 'Mains'),
  description: optionalText(300),
  allergens: v.optional(AllergensSchema, []),
});
export type CreateMenuItem = v.InferOutput<typeof CreateMenuItemSchema>;

export const UpdateMenuItemSchema = v.pipe(
  v.object({
    name: v.optional(DishNameSchema),
    priceCents: v.optional(PriceCentsSchema),
    category: v.optional(CategorySchema),
    description: optionalText(300),
    allergens: v.optional(AllergensSchema),
    soldOut: v.optional(v.boolean('Expected true or false')),
  }),
  atLeastOne('name, priceCents, category, description, allergens, soldOut'),
);
export type UpdateMenuItem = v.InferOutput<typeof UpdateMenuItemSchema>;

export const CreatedSchema = v.object({ id: v.number() });

/** A wait in whole minutes from when the order is placed, as a range in steps of 5 ("about 10–15 min"). */
export const WaitRangeSchema = v.object({ low: v.number(), high: v.number() });
export type WaitRange = v.InferOutput<typeof WaitRangeSchema>;

/**
 * A stall's wait for an order placed now, from its tickets made ready in the last hour and the queue
 * ahead. `minutes` is null when too few tickets were ready lately to say (`recentTickets` is how many).
 */
export const StallWaitSchema = v.object({
  minutes: v.nullable(WaitRangeSchema),
  recentTickets: v.number(),
  ticketsAhead: v.number(),
});
export type StallWait = v.InferOutput<typeof StallWaitSchema>;

export const MenuStallSchema = v.object({ ...StallWithItemsSchema.entries, wait: StallWaitSchema, availability: StallAvailabilitySchema });
export type MenuStall = v.InferOutput<typeof MenuStallSchema>;

/**
 * What a diner's menu shows: every stall with every item (sold-out ones flagged), its wait and whether
 * it takes orders now (open first, then closed by its hours, then paused), and the venue's terms
 * (`timeZone`: the zone its hours are in).
 */
export const MenuSchema = v.object({
  currency: v.string(),
  tables: v.number(),
  timeZone: v.string(),
  stalls: v.array(MenuStallSchema),
});
export type Menu = v.InferOutput<typeof MenuSchema>;

/**
 * A change to what diners can order, as the menu's stream (`GET /api/pt/menu/stream`) and `/api/events`
 * carry it (a `menu` live event, written with the change): an item added or changed (sold out, back),
 * one removed, a stall changed (paused, opened, its hours) or removed.
 */
export const MenuChangeSchema = v.variant('kind', [
  v.object({ kind: v.literal('item'), item: MenuItemSchema }),
  v.object({ kind: v.literal('item-removed'), id: v.number(), stallId: v.number() }),
  v.object({ kind: v.literal('stall'), stall: StallSchema }),
  v.object({ kind: v.literal('stall-removed'), id: v.number() }),
]);
export type MenuChange = v.InferOutput<typeof MenuChangeSchema>;

export const KitchenDishParamsSchema = v.object({ id: idText(), itemId: idText() });
export const KitchenDishSchema = v.object({ soldOut: v.boolean('Expected true or false') });

// ---- orders -------------------------------------------------------------------------------

/** received → preparing → ready → served; cancelled from any step before served. */
export const ORDER_STATUSES = ['received', 'preparing', 'ready', 'served', 'cancelled'] as const;
export const OrderStatusSchema = v.picklist(ORDER_STATUSES, 'Expected one of received, preparing, ready, served, cancelled');
export type OrderStatus = v.InferOutput<typeof OrderStatusSchema>;
/** Statuses of an order that is still to be served (the runner board's "open"). */
export const OPEN_ORDER_STATUSES = ['received', 'preparing', 'ready'] as const satisfies readonly OrderStatus[];

export const OrderLineSchema = v.object({
  id: v.number(),
  itemId: v.nullable(v.number()),
  stallId: v.nullable(v.number()),
  stallName: v.string(),
  name: v.string(),
  unitPriceCents: v.number(),
  quantity: v.number(),
  note: v.nullable(v.string()),
  /**
   * The dish's allergens as it had them when it was ordered; when its stall's kitchen marked this
   * line ready (null: not yet). Optional in: orders a device stored before these existed still read.
   */
  allergens: v.optional(v.array(v.string()), []),
  readyAt: v.optional(v.nullable(v.string()), null),
});
export type OrderLine = v.InferOutput<typeof OrderLineSchema>;

/** How many of these lines (an order's, or a ticket's) are ready, of how many: "2 of 3 ready". */
export const linesReady = (lines: ReadonlyArray<Pick<OrderLine, 'readyAt'>>) => ({ ready: lines.filter((line) => line.readyAt !== null).length, of: lines.length });

// ---- kitchen tickets ------------------------------------------------------------------------

/**
 * A ticket is one stall's part of an order (its lines). Each stall's kitchen moves its own ticket
 * received → preparing → ready, one step on or back; there is no served or cancelled ticket, that is
 * the order's (the runner's) business. A kitchen can also mark its lines ready one by one
 * (decision 0108): the first one starts the ticket, the last one makes it ready.
 */
export const TICKET_STATUSES = ['received', 'preparing', 'ready'] as const;
export const TicketStatusSchema = v.picklist(TICKET_STATUSES, 'Expected one of received, preparing, ready');
export type TicketStatus = v.InferOutput<typeof TicketStatusSchema>;
export const NEXT_TICKET_STATUS: Record<TicketStatus, TicketStatus | null> = { received: 'preparing', preparing: 'ready', ready: null };
export const PREVIOUS_TICKET_STATUS: Record<TicketStatus, TicketStatus | null> = { received: null, preparing: 'received', ready: 'preparing' };
export const canMoveTicket = (from: TicketStatus, to: TicketStatus): boolean => NEXT_TICKET_STATUS[from] === to || PREVIOUS_TICKET_STATUS[from] === to;

/** A stall's part of an order as the order carries it: where it is and when it got to each step (a step undone has no time). */
export const OrderTicketSchema = v.object({
  stallId: v.number(),
  stallName: v.string(),
  status: TicketStatusSchema,
  receivedAt: v.string(),
  preparingAt: v.nullable(v.string()),
  readyAt: v.nullable(v.string()),
});
export type OrderTicket = v.InferOutput<typeof OrderTicketSchema>;

/**
 * Where an open order stands by its tickets: ready once every stall's part is ready, preparing once
 * any kitchen started, else received. A ticket's move sets the order to this (served and cancelled
 * stay the runner's).
 */
export function orderStatusOfTickets(tickets: ReadonlyArray<Pick<OrderTicket, 'status'>>): 'received' | 'preparing' | 'ready' {
  if (tickets.length > 0 && tickets.every((t) => t.status === 'ready')) return 'ready';
  return tickets.some((t) => t.status !== 'received') ? 'preparing' : 'received';
}

export const OrderSchema = v.object({
  id: v.number(),
  table: v.number(),
  status: OrderStatusSchema,
  totalCents: v.number(),
  lines: v.array(OrderLineSchema),
  /** One per stall the order has lines from, in the order the stalls first appear in the cart. */
  tickets: v.array(OrderTicketSchema),
  /**
   * The wait told when it was placed (the slowest of its stalls), kept so the confirmation does not
   * change under the diner; null when a stall had too little recent data. Optional in: orders a
   * device stored before estimates existed still read.
   */
  wait: v.optional(v.nullable(WaitRangeSchema), null),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Order = v.InferOutput<typeof OrderSchema>;
export const OrderPageSchema = pageOf(OrderSchema);

/** What a stall's kitchen screen shows of one order: its ticket with only that stall's lines. */
export const KitchenTicketSchema = v.object({
  ...OrderTicketSchema.entries,
  orderId: v.number(),
  table: v.number(),
  orderStatus: OrderStatusSchema,
  orderCreatedAt: v.string(),
  lines: v.array(OrderLineSchema),
});
export type KitchenTicket = v.InferOutput<typeof KitchenTicketSchema>;

/** One stall's ticket of an order (the server's list and the screens' live updates both cut it this way), none when the order has nothing from that stall. */
export function kitchenTicketOf(order: Order, stallId: number): KitchenTicket | undefined {
  const ticket = order.tickets.find((t) => t.stallId === stallId);
  if (!ticket) return undefined;
  return { ...ticket, orderId: order.id, table: order.table, orderStatus: order.status, orderCreatedAt: order.createdAt, lines: order.lines.filter((line) => line.stallId === stallId) };
}

/** A stall's kitchen: its open tickets (orders not yet served or cancelled), oldest order first. */
export const KitchenSchema = v.object({
  stall: v.object({ id: v.number(), name: v.string() }),
  tickets: v.array(KitchenTicketSchema),
});
export type Kitchen = v.InferOutput<typeof KitchenSchema>;

export const KitchenTicketParamsSchema = v.object({ id: idText(), orderId: idText() });
export const KitchenLineParamsSchema = v.object({ ...KitchenTicketParamsSchema.entries, lineId: idText() });

/**
 * A kitchen marks one line of its ticket ready (or not ready after all, while the order is not
 * served). Sent again once done it is answered as it is: a queued tap replayed is not a second one.
 */
export const MoveLineSchema = v.object({ ready: v.boolean('Expected ready: true or false') });
export type MoveLine = v.InferOutput<typeof MoveLineSchema>;

/**
 * A kitchen's bump or undo names the step it saw (`from`), so a bump sent twice (a queued one replayed
 * after the network came back) is answered as done, and one from a stale screen is a 409.
 */
export const MoveTicketSchema = v.pipe(
  v.object({ from: TicketStatusSchema, to: TicketStatusSchema }),
  v.check((move) => canMoveTicket(move.from, move.to), 'A ticket moves one step on (received → preparing → ready) or one step back'),
);
export type MoveTicket = v.InferOutput<typeof MoveTicketSchema>;

/** The next step of an order (the runner's "bump"), none once served or cancelled. */
export const NEXT_ORDER_STATUS: Record<OrderStatus, OrderStatus | null> = { received: 'preparing', preparing: 'ready', ready: 'served', served: null, cancelled: null };
/** The step an undo goes back to (a cancelled order comes back as received). */
export const PREVIOUS_ORDER_STATUS: Record<OrderStatus, OrderStatus | null> = { received: null, preparing: 'received', ready: 'preparing', served: 'ready', cancelled: 'received' };
/** One step on, one step back, or a cancel before it is served: nothing else. */
export const canMoveOrder = (from: OrderStatus, to: OrderStatus): boolean =>
  NEXT_ORDER_STATUS[from] === to || PREVIOUS_ORDER_STATUS[from] === to || (to === 'cancelled' && (OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(from));

/** The new order, with the token that lets this diner follow it (`GET /api/pt/orders/:id?token=`). */
export const PlacedOrderSchema = v.object({
  ...OrderSchema.entries,
  token: v.string(),
  /**
   * True when this answer is the order an earlier request with the same `Idempotency-Key` placed
   * (its answer was lost); false when this very request placed it. A diner's retry is told which.
   */
  replayed: v.boolean(),
});
export type PlacedOrder = v.InferOutput<typeof PlacedOrderSchema>;

const QUANTITY_WORDS = `Choose a quantity from 1 to ${MAX_QUANTITY}`;

export const CartLineSchema = v.object({
  itemId: idNumber('Expected a menu item id'),
  quantity: v.pipe(v.number(QUANTITY_WORDS), v.integer(QUANTITY_WORDS), v.minValue(1, QUANTITY_WORDS), v.maxValue(MAX_QUANTITY, QUANTITY_WORDS)),
  note: optionalText(140),
});
export type CartLine = v.InferOutput<typeof CartLineSchema>;

const TABLE_WORDS = 'Choose your table first, so we know where to bring the food';

/** Prices are not part of a cart: the server prices the order from the menu. */
export const PlaceOrderSchema = v.object({
  table: v.pipe(v.number(TABLE_WORDS), v.integer(TABLE_WORDS), v.minValue(1, 'Tables are numbered from 1')),
  cart: v.pipe(v.array(CartLineSchema, 'Expected the cart as a list'), v.minLength(1, 'Your cart is empty'), v.maxLength(MAX_CART_LINES, `An order can have at most ${MAX_CART_LINES} lines`)),
});
export type PlaceOrder = v.InferOutput<typeof PlaceOrderSchema>;

/** `Idempotency-Key` header: the same key again answers the same order instead of a second one. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

export const OrderTokenQuerySchema = v.object({ token: v.optional(v.pipe(v.string(), v.maxLength(100))) });

/**
 * `open`: the board's orders, a page by number with their exact count (they leave as they are
 * served). One status: by its Next/Previous cursors (`next`/`previous`) with a count that stops at
 * 1,000 past the page (`totalIsLowerBound`); served and cancelled orders grow with the years.
 */
export const OrderListQuerySchema = v.object({
  ...CURSOR_PAGE_ENTRIES,
  status: v.optional(v.picklist([...ORDER_STATUSES, 'open'], 'Expected open or one of received, preparing, ready, served, cancelled'), 'open'),
});
export type OrderListQuery = v.InferOutput<typeof OrderListQuerySchema>;

export const UpdateOrderSchema = v.object({ status: OrderStatusSchema });

// ---- endpoints ------------------------------------------------------------------------------

const keepers = ['staff'] as const;
const board = ['runner', 'staff'] as const;

export const ptApi = {
  listStalls: endpoint({ method: 'GET', path: '/api/pt/stalls', summary: 'Stalls by name; `query` searches name, cuisine and description', access: 'public', query: StallListQuerySchema, response: StallPageSchema }),
  getStall: endpoint({ method: 'GET', path: '/api/pt/stalls/:id', summary: 'One stall with its whole menu, in the order it was written (categories as first used, items as added)', access: 'public', params: IdParamSchema, response: StallWithItemsSchema, errors: [404] }),
  createStall: endpoint({ method: 'POST', path: '/api/pt/stalls', summary: 'Add a stall (open, with an empty menu)', access: keepers, body: CreateStallSchema, response: CreatedSchema, status: 201 }),
  updateStall: endpoint({ method: 'PATCH', path: '/api/pt/stalls/:id', summary: "Change a stall: its fields, or open/pause it", access: keepers, params: IdParamSchema, body: UpdateStallSchema, response: StallSchema, errors: [404] }),
  deleteStall: endpoint({
    method: 'DELETE',
    path: '/api/pt/stalls/:id',
    summary: 'Delete a stall and its menu; refused (409) while it has orders not yet served',
    access: keepers,
    params: IdParamSchema,
    response: NoContentSchema,
    status: 204,
    errors: [404, 409],
  }),
  createItem: endpoint({ method: 'POST', path: '/api/pt/stalls/:id/items', summary: "Add an item to a stall's menu", access: keepers, params: IdParamSchema, body: CreateMenuItemSchema, response: CreatedSchema, status: 201, errors: [404] }),
  updateItem: endpoint({ method: 'PATCH', path: '/api/pt/items/:id', summary: 'Change a menu item: price, sold out, fields', access: keepers, params: IdParamSchema, body: UpdateMenuItemSchema, response: MenuItemSchema, errors: [404] }),
  deleteItem: endpoint({ method: 'DELETE', path: '/api/pt/items/:id', summary: 'Remove a menu item (orders keep its name and price)', access: keepers, params: IdParamSchema, response: NoContentSchema, status: 204, errors: [404] }),
  menu: endpoint({
    method: 'GET',
    path: '/api/pt/menu',
    summary:
      "The diners' menu: every stall with its items (sold-out ones flagged), whether it takes orders now (open; closed by its hours, with when it opens; paused) and its wait (a range from the last hour's tickets and the queue, null with too few), the currency, the number of tables and the venue's time zone",
    access: 'public',
    response: MenuSchema,
  }),
  menuStream: endpoint({
    method: 'GET',
    path: '/api/pt/menu/stream',
    summary: "Changes to the diners' menu as Server-Sent Events (`menu`): a dish sold out or back, a stall paused, opened or given hours. From now: no Last-Event-ID replay (read the menu when it opens); at most MENU_STREAMS_PER_ADDRESS per address, the oldest closed",
    access: 'public',
    response: MenuChangeSchema,
    stream: 'sse',
  }),
  placeOrder: endpoint({
    method: 'POST',
    path: '/api/pt/order',
    summary:
      'A diner orders from their table, across stalls; priced from the menu. An `Idempotency-Key` header makes a retry answer the same order. 409 names each line that cannot be ordered (sold out, paused stall, stall closed by its hours)',
    access: 'public',
    body: PlaceOrderSchema,
    response: PlacedOrderSchema,
    status: 201,
    errors: [409, 422, 429],
  }),
  getOrder: endpoint({ method: 'GET', path: '/api/pt/orders/:id', summary: "A diner's own order, by the token it was placed with (404 without it)", access: 'public', params: IdParamSchema, query: OrderTokenQuerySchema, response: OrderSchema, errors: [404] }),
  orderStream: endpoint({
    method: 'GET',
    path: '/api/pt/orders/:id/stream',
    summary: "A diner's own order as Server-Sent Events: now, then at every change",
    access: 'public',
    params: IdParamSchema,
    query: OrderTokenQuerySchema,
    response: OrderSchema,
    stream: 'sse',
    errors: [404],
  }),
  listOrders: endpoint({ method: 'GET', path: '/api/pt/orders', summary: 'Orders for the runner board: `open` (not yet served) oldest first; one status by last change, newest first', access: board, query: OrderListQuerySchema, response: OrderPageSchema }),
  kitchen: endpoint({
    method: 'GET',
    path: '/api/pt/kitchen/:id/tickets',
    summary: "A stall's kitchen screen: its part (ticket) of every order not yet served or cancelled, with only its own lines, oldest order first",
    access: board,
    params: IdParamSchema,
    response: KitchenSchema,
    errors: [404],
  }),
  moveTicket: endpoint({
    method: 'PATCH',
    path: '/api/pt/kitchen/:id/tickets/:orderId',
    summary:
      "Move a stall's ticket one step on or back from the step the screen saw (`from`). Sent again once done it answers the ticket as it is; from a step it is no longer at, 409. The order becomes preparing when a kitchen starts and ready when every stall's ticket is ready",
    access: board,
    params: KitchenTicketParamsSchema,
    body: MoveTicketSchema,
    response: KitchenTicketSchema,
    errors: [404, 409],
  }),
  moveLine: endpoint({
    method: 'PATCH',
    path: '/api/pt/kitchen/:id/tickets/:orderId/lines/:lineId',
    summary:
      "Mark one line of a stall's ticket ready (`ready: true`) or not ready after all (`false`, until the order is served). Sent again once done it answers the ticket as it is. The first line ready starts the ticket (preparing), the last one makes it ready, and the order follows its tickets; 409 once the order is served or cancelled",
    access: board,
    params: KitchenLineParamsSchema,
    body: MoveLineSchema,
    response: KitchenTicketSchema,
    errors: [404, 409],
  }),
  kitchenDish: endpoint({
    method: 'PATCH',
    path: '/api/pt/kitchen/:id/items/:itemId',
    summary: "A stall's kitchen marks one of its own dishes sold out or back in stock (404 for another stall's dish); diners' menus and carts hear it live",
    access: board,
    params: KitchenDishParamsSchema,
    body: KitchenDishSchema,
    response: MenuItemSchema,
    errors: [404],
  }),
  updateOrder: endpoint({
    method: 'PATCH',
    path: '/api/pt/orders/:id',
    summary: 'Move an order one step (received → preparing → ready → served, or cancelled) or one step back to undo; any other jump is 409',
    access: board,
    params: IdParamSchema,
    body: UpdateOrderSchema,
    response: OrderSchema,
    errors: [404, 409],
  }),
};
