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
  const dinerStreams = new Set<Response>();
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
      // Checked before the stream opens, so a wrong token is a plain 404.
      const order = await pt.orderForDiner(params.id, query.token);
      openEventStream(res);
      dinerStreams.add(res);
      // The order as it is now, then each change: a reconnect needs no replay to be up to date.
      res.write(sseFrame({ type: 'order', data: order }));
      const unsubscribe = options.subscribe((event) => {
        if (event.type === 'order' && (event.data as Order).id === order.id) res.write(sseFrame({ type: 'order', data: event.data }));
      });
      const heartbeat = setInterval(() => res.write(sseHeartbeat()), options.heartbeatMs ?? 15_000);
      res.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        dinerStreams.delete(res);
      });
    }),
    route(ptApi.listOrders, ({ query }) => pt.listOrders(query)),
    route(ptApi.updateOrder, ({ params, body }) => pt.moveOrder(params.id, body.status)),
  ];
  return { routes, endStreams: () => dinerStreams.forEach((res) => res.end()) };
}
