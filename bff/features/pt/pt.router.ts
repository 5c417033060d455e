import type { Request, Response } from 'express';
import type { LiveEvent } from '../../contracts/events.contract';
import { IDEMPOTENCY_KEY, ptApi, type Order } from '../../contracts/pt.contract';
import { route } from '../../lib/endpoint-router';
import { badRequest } from '../../lib/http-error';
import { limitRequests, type CounterStoreFor } from '../../lib/rate-limit';
import { openEventStream, sseFrame, sseHeartbeat } from '../../lib/sse';
import type { PtService } from './pt.service';

export interface PtRouteOptions {
  counterStore: CounterStoreFor;
  /** Orders one client may place per minute: generous, a table that retries must never be refused. */
  ordersPerMinute: number;
  /** Hears every live event (the diner's stream picks out their order). */
  subscribe: (listener: (event: LiveEvent) => void) => () => void;
  heartbeatMs?: number;
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
  /** Each order's open streams, oldest first. */
  const dinerStreams = new Map<number, Set<Response>>();
  const streamsOfOrder = (id: number) => {
    let streams = dinerStreams.get(id);
    if (!streams) dinerStreams.set(id, (streams = new Set()));
    return streams;
  };
  const orderLimiter = limitRequests({
    limit: options.ordersPerMinute,
    windowMs: 60_000,
    store: options.counterStore('order-ip:'),
    message: (seconds) => `Too many orders from this device at once. Wait ${seconds} seconds and send it again; nothing was ordered twice.`,
  });

  const routes = [
    route(ptApi.listStalls, ({ query }) => pt.listStalls(query)),
    route(ptApi.getStall, ({ params }) => pt.getStall(params.id)),
    route(ptApi.createStall, ({ body }) => pt.createStall(body)),
    route(ptApi.updateStall, ({ params, body }) => pt.updateStall(params.id, body)),
    route(ptApi.deleteStall, ({ params }) => pt.deleteStall(params.id)),
    route(ptApi.createItem, ({ params, body }) => pt.createItem(params.id, body)),
    route(ptApi.updateItem, ({ params, body }) => pt.updateItem(params.id, body)),
    route(ptApi.deleteItem, ({ params }) => pt.deleteItem(params.id)),
    route(ptApi.menu, () => pt.menu()),
    route(ptApi.placeOrder, ({ body }, { req }) => pt.placeOrder(body, idempotencyKeyOf(req)), { before: [orderLimiter] }),
    route(ptApi.getOrder, ({ params, query }) => pt.orderForDiner(params.id, query.token)),
    route(ptApi.orderStream, async ({ params, query }, { res }) => {
      // Listen before reading, so a change made meanwhile is not lost: it follows the order as read.
      const heard: Order[] = [];
      let live: ((order: Order) => void) | null = null;
      const unsubscribe = options.subscribe((event) => {
        if (event.type !== 'order' || (event.data as Order).id !== params.id) return;
        if (live) live(event.data as Order);
        else heard.push(event.data as Order);
      });
      let order: Order;
      try {
        // Checked before the stream opens, so a wrong token is a plain 404.
        order = await pt.orderForDiner(params.id, query.token);
      } catch (err) {
        unsubscribe();
        throw err;
      }
      // The phone went away while the order was read: its 'close' has fired already and would never free this stream.
      if (res.closed || res.destroyed) return unsubscribe();

      openEventStream(res);
      const streams = streamsOfOrder(order.id);
      streams.add(res);
      // A few devices per order; the oldest gives way (an order's token is no licence to hold many connections).
      if (streams.size > MAX_STREAMS_PER_ORDER) streams.values().next().value?.end();
      const send = (current: Order) => {
        res.write(sseFrame({ type: 'order', data: current }));
        if (res.writableLength > MAX_BACKLOG_BYTES) res.end();
      };
      // The order as it is now, then each change: a reconnect needs no replay to be up to date.
      send(order);
      heard.filter((later) => later.updatedAt >= order.updatedAt).forEach(send);
      live = send;
      const heartbeat = setInterval(() => res.write(sseHeartbeat()), options.heartbeatMs ?? 15_000);
      res.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(res);
        if (streams.size === 0) dinerStreams.delete(order.id);
      });
    }),
    route(ptApi.listOrders, ({ query }) => pt.listOrders(query)),
    route(ptApi.updateOrder, ({ params, body }) => pt.moveOrder(params.id, body.status)),
  ];
  return { routes, endStreams: () => dinerStreams.forEach((streams) => streams.forEach((res) => res.end())) };
}
