import { useState } from 'react';
import * as v from 'valibot';
import { OPEN_ORDER_STATUSES, OrderSchema, type Order, type OrderStatus } from '@contracts/pt.contract';
import type { LiveEventOf } from '@/lib/live-events';

/** What the runner board and the kitchen screens share about the orders they follow live. */

/** Ticket ages move on every 20 s without any new data. */
export const AGE_TICK_MS = 20_000;
/** How long a ticket that arrived live stays marked new. */
const FRESH_MS = 60_000;

export const isOpen = (status: OrderStatus) => (OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(status);

/** The order an `order` event carries, checked (undefined: not one). */
export function orderOf(event: LiveEventOf<'order'>): Order | undefined {
  const parsed = v.safeParse(OrderSchema, event.data);
  return parsed.success ? parsed.output : undefined;
}

/** Orders that arrived live, marked for a minute (`now`: the page's age tick, so a mark fades without new data). */
export function useFreshMarks(now: number) {
  const [marked, setMarked] = useState<ReadonlyMap<number, number>>(new Map());
  return {
    has: (orderId: number) => now - (marked.get(orderId) ?? -Infinity) < FRESH_MS,
    mark: (orderId: number) => setMarked((map) => new Map([...map].filter(([, at]) => Date.now() - at < FRESH_MS)).set(orderId, Date.now())),
  };
}
