import { useEffect, useRef } from 'react';
import { linesReady, type Order, type OrderStatus } from '@contracts/pt.contract';
import { Icon } from '@/components/icon';
import { LiveStatusBadge } from '@/components/live-status';
import { formatTime, formatWhen } from '@/lib/format';
import { forgetOrder, type TrackedOrder } from '@/features/pt/diner-store';
import { useOrderStream } from '@/features/pt/order-stream';
import { BuzzWhenReady } from './buzz-when-ready';
import { STATUS_LABELS, formatMoney, formatWait, waitClock } from '@/features/pt/pt-format';

const STEPS = ['received', 'preparing', 'ready', 'served'] as const satisfies readonly OrderStatus[];

const STEP_HINTS: Record<OrderStatus, string> = {
  received: 'The stalls have your order.',
  preparing: 'Your food is being made.',
  ready: 'A runner is bringing it over.',
  served: 'Enjoy your meal!',
  cancelled: 'This order was cancelled. Please ask at the counter if that is a surprise.',
};

/**
 * received → preparing → ready → served as steps, the current one marked for sight and for screen
 * readers. A served order has no step left: every one is done.
 */
export function OrderSteps({ status }: { status: OrderStatus }) {
  const at = status === 'served' ? STEPS.length : STEPS.indexOf(status as (typeof STEPS)[number]);
  return (
    <ol className="order-steps">
      {STEPS.map((step, i) => {
        const state = i < at ? 'done' : i === at ? 'current' : 'todo';
        return (
          <li key={step} className={`order-step step-${state}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className="order-step-dot" aria-hidden="true">
              {state === 'done' ? <Icon name="check" size={14} /> : i + 1}
            </span>
            <span className="order-step-label">
              {STATUS_LABELS[step]}
              {state === 'done' ? <span className="visually-hidden"> (done)</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The wait told when the order was placed, as minutes and as times of day (the minutes alone would go
 * stale as the diner waits). Shown until the order is ready; then the status says so.
 */
function OrderWait({ wait, createdAt }: { wait: Order['wait']; createdAt: string }) {
  return wait ? (
    <p className="order-wait">
      <Icon name="clock" size={16} /> Ready in {formatWait(wait)} from placing, around {waitClock(createdAt, wait, formatTime)}.
    </p>
  ) : (
    <p className="order-wait muted">
      <Icon name="clock" size={16} /> We cannot estimate the wait: not enough recent orders.
    </p>
  );
}

/**
 * An order the diner placed: number, table, lines, total, and its status following the order's
 * live stream. `placedNow` moves focus to it, so a screen reader hears the confirmation.
 */
export function OrderConfirmation({ tracked, currency, placedNow = false }: { tracked: TrackedOrder; currency: string; placedNow?: boolean }) {
  const { order, token } = tracked;
  const live = useOrderStream(order.id, token);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (placedNow) headingRef.current?.focus();
  }, [placedNow]);
  const headingId = `order-${order.id}`;
  const cancelled = order.status === 'cancelled';

  return (
    <section className="card stack order-confirmation" aria-labelledby={headingId}>
      <div className="card-head">
        <h2 id={headingId} className="card-heading" tabIndex={-1} ref={headingRef}>
          {/* A tick says "this went through"; a cancelled order does not get one, nor the words of one just placed. */}
          <Icon name={cancelled ? 'cross' : 'check'} /> {cancelled ? `Order ${order.id} is cancelled` : placedNow ? `Order ${order.id} is placed` : `Order ${order.id}`}
        </h2>
        {/* A green "Live" reads as an order under way. A cancelled one is still followed (the stall can bring it back), without saying so. */}
        {cancelled ? null : <LiveStatusBadge state={live.state} label="Order updates" />}
      </div>
      <p className="muted">
        Table {order.table} · placed {formatWhen(order.createdAt)}
      </p>

      {/* Announced as it changes: the status is the one thing a diner waits for. */}
      <p className="order-status-line" aria-live="polite">
        <span className={`badge ${cancelled ? 'badge-bad' : order.status === 'ready' || order.status === 'served' ? 'badge-ok' : 'badge-accent'}`}>{STATUS_LABELS[order.status]}</span>{' '}
        {STEP_HINTS[order.status]}
        {order.status === 'preparing' && order.lines.length > 1 ? <span className="order-ready-count tabular"> {linesReady(order.lines).ready} of {order.lines.length} dishes ready.</span> : null}
      </p>
      {cancelled ? null : <OrderSteps status={order.status} />}
      {order.status === 'received' || order.status === 'preparing' ? <OrderWait wait={order.wait} createdAt={order.createdAt} /> : null}
      <BuzzWhenReady order={order} />

      {live.gone ? (
        <div className="banner banner-warning" role="alert">
          <p>We cannot find this order any more. Please ask at the counter.</p>
        </div>
      ) : null}

      <ul className="order-lines" aria-label={`Order ${order.id}`}>
        {order.lines.map((line) => (
          <li key={line.id}>
            <span className="tabular">{line.quantity} ×</span>
            <span>
              {line.name} <span className="muted small">({line.stallName})</span>
              {line.note ? <span className="order-line-note">“{line.note}”</span> : null}
            </span>
            <span className="tabular">{formatMoney(line.quantity * line.unitPriceCents, currency)}</span>
          </li>
        ))}
      </ul>
      <p className="order-total">
        <span>Total</span> <strong className="tabular">{formatMoney(order.totalCents, currency)}</strong>
      </p>
      {order.status === 'served' || cancelled || live.gone ? (
        <div>
          <button type="button" className="btn btn-small" onClick={() => forgetOrder(order.id)}>
            Hide this order
          </button>
        </div>
      ) : null}
    </section>
  );
}

/** The diner's other orders on this device, one chip each: a press shows that one in place of the one shown. */
export function OtherOrders({ orders, onShow }: { orders: readonly TrackedOrder[]; onShow: (orderId: number) => void }) {
  if (orders.length === 0) return null;
  return (
    <nav className="chips" aria-label="Your other orders">
      {orders.map((t) => (
        <button key={t.order.id} type="button" className="chip" onClick={() => onShow(t.order.id)}>
          Order {t.order.id}
        </button>
      ))}
    </nav>
  );
}
