import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { OrderSchema, ptApi } from '@contracts/pt.contract';
import { call, isApiError } from '@/lib/api-client';
import { RETRY_DELAYS_MS, type LiveState } from '@/lib/live-events';
import { orderStreamUrl } from './pt.api';
import { updateTrackedOrder } from './diner-store';

/**
 * Follows one order the diner placed through its own Server-Sent Events stream
 * (`/api/pt/orders/:id/stream?token=`: the order now, then at every change). Each `order` message
 * carries the whole order, which replaces the remembered one. The shared `/api/events` stream is
 * for signed-in staff; a diner has no account, so this stream is separate.
 *
 * A dropped connection is retried by the browser; a refused one (an HTTP error) is asked about
 * once through `GET /api/pt/orders/:id`: a 404 means the order is gone (or the token is wrong),
 * anything else is tried again a little later.
 */
export function useOrderStream(id: number, token: string): { state: LiveState; gone: boolean } {
  const [state, setState] = useState<LiveState>('connecting');
  const [gone, setGone] = useState(false);

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      setState('closed');
      return;
    }
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;

    const open = () => {
      const current = new EventSource(orderStreamUrl(id, token));
      source = current;
      current.onopen = () => {
        failures = 0;
        setState('open');
      };
      current.addEventListener('order', (message) => {
        try {
          const parsed = v.safeParse(OrderSchema, JSON.parse((message as MessageEvent<string>).data));
          if (parsed.success && parsed.output.id === id) updateTrackedOrder(parsed.output);
        } catch {
          // not JSON: nothing to show
        }
      });
      current.onerror = () => {
        if (current.readyState !== EventSource.CLOSED) return setState('reconnecting');
        current.close();
        void refused();
      };
    };

    const refused = async () => {
      try {
        const order = await call(ptApi.getOrder, { params: { id }, query: { token } });
        if (stopped) return;
        updateTrackedOrder(order);
      } catch (error) {
        if (stopped) return;
        if (isApiError(error, 404)) {
          setGone(true);
          setState('closed');
          return;
        }
      }
      if (failures >= RETRY_DELAYS_MS.length) return setState('closed');
      setState('reconnecting');
      timer = setTimeout(open, RETRY_DELAYS_MS[failures++]);
    };

    setGone(false);
    setState('connecting');
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [id, token]);

  return { state, gone };
}
