import type { OrderStatus } from '../../contracts/pt.contract';
import type { Db } from '../../db/database';

/** One line of an order placed in a report's span, with what the figures need of its order. */
export interface ReportLine {
  orderId: number;
  status: OrderStatus;
  createdAt: string;
  stallId: number | null;
  stallName: string;
  unitPriceCents: number;
  quantity: number;
}

/** What the food court's reports read: the lines of the orders placed in a span of time. */
export function reportsRepository(db: Db) {
  return {
    /**
     * Every line of the orders placed in [since, before) (UTC ISO instants), oldest order first.
     * The span is at most a month (the contract says so), so this is a bounded read. The stall's
     * name is its name now, or the one the line kept when the stall has been deleted since.
     */
    linesPlacedBetween: (since: string, before: string): Promise<ReportLine[]> =>
      db
        .selectFrom('orders')
        .innerJoin('order_lines', 'order_lines.order_id', 'orders.id')
        .leftJoin('stalls', 'stalls.id', 'order_lines.stall_id')
        .select((eb) => [
          'orders.id as orderId',
          'orders.status as status',
          'orders.created_at as createdAt',
          'order_lines.stall_id as stallId',
          eb.fn.coalesce('stalls.name', 'order_lines.stall_name').as('stallName'),
          'order_lines.unit_price_cents as unitPriceCents',
          'order_lines.quantity as quantity',
        ])
        .where('orders.created_at', '>=', since)
        .where('orders.created_at', '<', before)
        .orderBy('orders.created_at')
        .orderBy('orders.id')
        .orderBy('order_lines.id')
        .execute(),
  };
}
export type ReportsRepository = ReturnType<typeof reportsRepository>;
