import * as v from 'valibot';
import { OrderSchema, ptApi } from '@contracts/pt.contract';
import { call } from '@/lib/api-client';
import type { LiveState } from '@/lib/live-events';
import { useResourceStream } from '@/lib/resource-stream';
import { orderStreamUrl } from './pt.api';
import { updateTrackedOrder } from './diner-store';

/**
 * Follows one order the diner placed through its own Server-Sent Events stream
 * (`/api/pt/orders/:id/stream?token=`: the order now, then at every change). Each `order` message
 * carries the whole order, which replaces the remembered one. A diner has no account, so this is
 * a resource stream of its own (`useResourceStream`), not the staff's `/api/events`.
 *
 * A refused stream is asked about once through `GET /api/pt/orders/:id`: its answer is the order
 * now; a 404 means the order is gone (or the token is wrong).
 */
export function useOrderStream(id: number, token: string): { state: LiveState; gone: boolean } {
  return useResourceStream({
    url: orderStreamUrl(id, token),
    eventName: 'order',
    onMessage: (data) => {
      const parsed = v.safeParse(OrderSchema, data);
      if (parsed.success && parsed.output.id === id) updateTrackedOrder(parsed.output);
    },
    whenRefused: async (signal) => {
      const order = await call(ptApi.getOrder, { params: { id }, query: { token } });
      if (!signal.aborted) updateTrackedOrder(order);
    },
  });
}
