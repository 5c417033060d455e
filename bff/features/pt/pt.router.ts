import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { IDEMPOTENCY_KEY, ptApi, type Order } from '../../contracts/pt.contract';
import { route } from '../../lib/endpoint-router';
import { badRequest } from '../../lib/http-error';
import { limitRequests, type CounterStoreFor } from '../../lib/rate-limit';
import type { EventStreams } from '../../lib/event-stream';
import type { PtService } from './pt.service';

export interface PtRouteOptions {
  counterStore: CounterStoreFor;
  /** Orders one client may place per minute: generous, a table that retries must never be refused. */
  ordersPerMinute: number;
  /** The app's event streams (the diner's stream picks out their order). */
  streams: EventStreams;
  /** Menu streams one client address may hold open here; the oldest gives way (MENU_STREAMS_PER_ADDRESS). */
  menuStreamsPerAddress: number;
}

const MAX_STREAMS_PER_ORDER = 5;
/** A diner's phone that stops reading is let go (it reconnects and gets the order as it is then). */
const MAX_BACKLOG_BYTES = 64_000;

function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('Idempotency-Key');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw badRequest('The Idempotency-Key header is not valid.', [{ path: 'headers.idempotency-key', message: 'Expected 8 to 100 letters, digits, - or _' }]);
  }
  return key;
}

/** `/api/pt`: stalls and menus (staff keep them), the diners' menu and orders, the runner board. */
export function ptRoutes(pt: PtService, options: PtRouteOptions) {
  const orderLimiter = limitRequests({
    limit: options.ordersPerMinute,
    windowMs: 60_000,
    store: options.counterStore('order-ip:'),
    message: (seconds) => `Too many orders from this device at once. Wait ${seconds} seconds and send it again; nothing was ordered twice.`,
  });

  return [
    route(ptApi.listStalls, ({ query }) => pt.listStalls(query)),
    route(ptApi.getStall, ({ params }) => pt.getStall(params.id)),
    route(ptApi.createStall, ({ body }, { req }) => pt.createStall(req.user!, body)),
    route(ptApi.updateStall, ({ params, body }, { req }) => pt.updateStall(req.user!, params.id, body)),
    route(ptApi.deleteStall, ({ params }, { req }) => pt.deleteStall(req.user!, params.id)),
    route(ptApi.createItem, ({ params, body }, { req }) => pt.createItem(req.user!, params.id, body)),
    route(ptApi.updateItem, ({ params, body }, { req }) => pt.updateItem(req.user!, params.id, body)),
    route(ptApi.deleteItem, ({ params }, { req }) => pt.deleteItem(req.user!, params.id)),
    route(ptApi.menu, () => pt.menu()),
    // What diners can order, as it changes: the `menu` events themselves (their text made once for every stream).
    route(ptApi.menuStream, (_input, { req, res }) =>
      options.streams.stream(req, res, {
        pick: (event) => (event.type === 'menu' ? event : undefined),
        // No first frame and no replay: the page reads the menu again whenever the stream opens, so what
        // it missed is in that read, and a reconnect loop (Last-Event-ID: 0) reads nothing from the log.
        resume: false,
        // Public, so capped per address; generously, as a venue's diners share its Wi-Fi's one address (decision 0107).
        group: { key: `menu:${ipKeyGenerator(req.ip ?? '')}`, max: options.menuStreamsPerAddress },
        maxBacklogBytes: MAX_BACKLOG_BYTES,
      }),
    ),
    route(ptApi.placeOrder, ({ body }, { req }) => pt.placeOrder(body, idempotencyKeyOf(req)), { before: [orderLimiter] }),
    route(ptApi.getOrder, ({ params, query }) => pt.orderForDiner(params.id, query.token)),
    route(ptApi.orderStream, ({ params, query }, { req, res }) => {
      let order: Order;
      return options.streams.stream(req, res, {
        // The order as it is now, then each change: a reconnect needs no replay to be up to date, so none
        // is made (a public stream's reconnect loop with Last-Event-ID: 0 would read the log at each connect).
        // Read before the stream opens, so a wrong token is a plain 404.
        resume: false,
        first: async () => [{ type: 'order', data: (order = await pt.orderForDiner(params.id, query.token)) }],
        pick: (event) => {
          const changed = event.data as Order;
          // A change heard while the order was read and older than what was read is in it already.
          return event.type === 'order' && changed.id === params.id && changed.updatedAt >= order.updatedAt ? { type: 'order', data: changed } : undefined;
        },
        // A few devices per order; the oldest gives way (an order's token is no licence to hold many connections).
        group: { key: `order:${params.id}`, max: MAX_STREAMS_PER_ORDER },
        maxBacklogBytes: MAX_BACKLOG_BYTES,
      });
    }),
    route(ptApi.listOrders, ({ query }) => pt.listOrders(query)),
    route(ptApi.kitchen, ({ params }) => pt.kitchen(params.id)),
    route(ptApi.moveTicket, ({ params, body }) => pt.moveTicket(params.id, params.orderId, body)),
    route(ptApi.moveLine, ({ params, body }) => pt.moveLine(params.id, params.orderId, params.lineId, body)),
    route(ptApi.kitchenDish, ({ params, body }, { req }) => pt.updateItem(req.user!, params.itemId, { soldOut: body.soldOut }, params.id)),
    route(ptApi.updateOrder, ({ params, body }) => pt.moveOrder(params.id, body.status)),
  ];
}
