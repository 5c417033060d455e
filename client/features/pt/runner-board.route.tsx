import { useEffect, useRef, useState } from 'react';
import { useLoaderData } from 'react-router';
import * as v from 'valibot';
import type { Page } from '@contracts/common.contract';
import { OPEN_ORDER_STATUSES, OrderSchema, PREVIOUS_ORDER_STATUS, ptApi, type Order, type OrderStatus } from '@contracts/pt.contract';
import { LiveConnectionBadge, LiveConnectionError } from '@/components/live-connection';
import { AsyncButton } from '@/components/async-button';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { useModal } from '@/components/modal-host';
import { PageHeader } from '@/components/page-header';
import { useToast } from '@/components/toast-host';
import { errorMessage, isApiError } from '@/lib/api-client';
import { cachedData, invalidate, loadQuery, preloadQuery, setQueryData, useQuery } from '@/lib/cache';
import { byInstant, formatWhen } from '@/lib/format';
import { useLiveEvents, useWhenLiveOpens } from '@/lib/live-events';
import { useNotify } from '@/lib/notify';
import { paths } from '@/lib/paths';
import { useNow } from '@/lib/use-now';
import { ConfirmCancelOrder, OrderTicket } from './components/order-ticket';
import { OPEN_ORDERS_KEY, fetchOrderPage, moveOrder, recentOrdersKey, refreshBoard } from './pt.api';
import { STATUS_LABELS } from './pt-format';

type Data = { open: Page<Order>; served: Page<Order>; cancelled: Page<Order> };

/** `/pt/runner` (runners, staff, admins; the route's middleware turns everyone else away). */
export async function loader(): Promise<Data> {
  const [open, served, cancelled] = await Promise.all([
    loadQuery(OPEN_ORDERS_KEY, fetchOrderPage),
    loadQuery(recentOrdersKey('served'), fetchOrderPage),
    loadQuery(recentOrdersKey('cancelled'), fetchOrderPage),
  ]);
  return { open, served, cancelled };
}

export const handle = {
  title: 'Runner board',
  preload: () => {
    preloadQuery(OPEN_ORDERS_KEY, fetchOrderPage);
    preloadQuery(recentOrdersKey('served'), fetchOrderPage);
    preloadQuery(recentOrdersKey('cancelled'), fetchOrderPage);
  },
};

/** Ticket ages move on every 20 s without any new data. */
const AGE_TICK_MS = 20_000;
/** How long a ticket that arrived live stays marked "New". */
const FRESH_MS = 60_000;

const isOpen = (status: OrderStatus) => (OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(status);
const oldestFirst = (a: Order, b: Order) => byInstant(a.createdAt, b.createdAt) || a.id - b.id;

/**
 * The open list with one order's news in it: added, moved, or gone (served, cancelled). Older news
 * than the list has is ignored. A board that shows every open order stays exact this way; one that
 * shows only the oldest page (`partial`) keeps a new order beyond its page out of it, and is read
 * again after any news (`refill`): counting locally could not tell a replayed event from a new one,
 * and an order that leaves must make room for the next oldest.
 */
function mergeOpenOrder(page: Page<Order>, order: Order): { page: Page<Order>; refill: boolean } {
  const partial = page.total > page.items.length;
  const existing = page.items.find((o) => o.id === order.id);
  if (existing && existing.updatedAt > order.updatedAt) return { page, refill: false };
  const others = page.items.filter((o) => o.id !== order.id);
  if (!isOpen(order.status)) return { page: existing ? { ...page, items: others, total: Math.max(0, page.total - 1) } : page, refill: partial };
  if (existing) return { page: { ...page, items: [...others, order].sort(oldestFirst) }, refill: false };
  const last = page.items.at(-1);
  const full = partial || page.items.length >= page.pageSize;
  // Newer than the last ticket of a full page: it waits beyond the page until older ones leave.
  if (full && last && oldestFirst(order, last) > 0) return { page: { ...page, total: page.total + 1 }, refill: true };
  const items = [...others, order].sort(oldestFirst);
  return { page: { ...page, items: items.slice(0, page.pageSize), total: page.total + 1 }, refill: full };
}

const COLUMNS = [
  { status: 'received', title: 'Received', empty: 'No new orders.' },
  { status: 'preparing', title: 'Preparing', empty: 'Nothing being prepared.' },
  { status: 'ready', title: 'Ready', empty: 'Nothing waiting to be run.' },
] as const;

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const openQuery = useQuery(OPEN_ORDERS_KEY, fetchOrderPage, loaded.open);
  const servedQuery = useQuery(recentOrdersKey('served'), fetchOrderPage, loaded.served);
  const cancelledQuery = useQuery(recentOrdersKey('cancelled'), fetchOrderPage, loaded.cancelled);
  const open = openQuery.data ?? loaded.open;
  const served = servedQuery.data ?? loaded.served;
  const cancelled = cancelledQuery.data ?? loaded.cancelled;
  const now = useNow(AGE_TICK_MS);
  const toast = useToast();
  const modal = useModal();
  const [fresh, setFresh] = useState<ReadonlyMap<number, number>>(new Map());
  const [announcement, setAnnouncement] = useState('');
  const notify = useNotify();

  /** The open list as the cache has it now (several events can arrive between two renders). */
  const currentOpen = () => cachedData(OPEN_ORDERS_KEY) as Page<Order> | undefined;
  // A partial board is read again after news; one read at a time, and one more if news came meanwhile.
  const refilling = useRef<'idle' | 'reading' | 'again'>('idle');
  const refill = () => {
    if (refilling.current !== 'idle') return void (refilling.current = 'again');
    refilling.current = 'reading';
    void invalidate(ptApi.listOrders, { query: { status: 'open' } }).finally(() => {
      const again = refilling.current === 'again';
      refilling.current = 'idle';
      if (again) refill();
    });
  };

  const refreshRecent = () => Promise.all([invalidate(ptApi.listOrders, { query: { status: 'served' } }), invalidate(ptApi.listOrders, { query: { status: 'cancelled' } })]);

  /** An order's news, from the live stream or our own move: merged into the open list at once, the recent lists read again when they change. */
  const apply = (order: Order) => {
    const merged = mergeOpenOrder(currentOpen() ?? open, order);
    setQueryData(OPEN_ORDERS_KEY, merged.page);
    if (merged.refill) refill();
    const recent = [...served.items, ...cancelled.items].some((o) => o.id === order.id);
    if (!isOpen(order.status) || recent) void refreshRecent();
  };

  useLiveEvents(['order'], (event) => {
    const parsed = v.safeParse(OrderSchema, event.data);
    if (!parsed.success) return;
    const order = parsed.output;
    if (order.status === 'received' && !open.items.some((o) => o.id === order.id)) {
      setFresh((map) => new Map(map).set(order.id, Date.now()));
      setAnnouncement(`New order ${order.id} for table ${order.table}.`);
      notify({ title: `New order ${order.id}`, body: `Table ${order.table}`, tag: `order-${order.id}`, url: paths.ptRunner });
    }
    apply(order);
  });

  // The board was read before the stream opened, and the stream may have been lost since: whatever
  // happened in between is read again once the stream is open (a ticket must never go missing), unless
  // the stream began where the board's reads ended and brings it as events (decision 0089).
  useWhenLiveOpens(() => void refreshBoard());

  // "New" marks fade after a minute (checked with the age tick).
  useEffect(() => {
    setFresh((map) => {
      const kept = [...map].filter(([, at]) => now - at < FRESH_MS);
      return kept.length === map.size ? map : new Map(kept);
    });
  }, [now]);

  const move = async (order: Order, to: OrderStatus) => {
    try {
      const moved = await moveOrder({ params: { id: order.id }, body: { status: to } });
      apply(moved);
      toast.show({ tone: 'success', message: `Order ${moved.id} (table ${moved.table}) is ${STATUS_LABELS[moved.status].toLowerCase()}.` });
    } catch (error) {
      // A refused move (409) has read the board again already.
      if (isApiError(error, 409)) {
        toast.show({ tone: 'error', title: `Order ${order.id} was not moved`, message: `${errorMessage(error)} The board has been refreshed.` });
      } else {
        toast.show({ tone: 'error', title: `Could not move order ${order.id}`, message: errorMessage(error) });
      }
    }
  };

  const openCancel = (order: Order) =>
    modal.open({
      title: `Cancel order ${order.id}?`,
      content: (close) => (
        <ConfirmCancelOrder
          order={order}
          onClose={close}
          cancel={async () => {
            const cancelledOrder = await moveOrder({ params: { id: order.id }, body: { status: 'cancelled' } });
            apply(cancelledOrder);
            toast.show({ tone: 'success', message: `Order ${order.id} (table ${order.table}) was cancelled.` });
          }}
        />
      ),
    });

  const error = openQuery.error ?? servedQuery.error ?? cancelledQuery.error;
  const retrying = openQuery.isValidating || servedQuery.isValidating || cancelledQuery.isValidating;
  const recent = [...served.items, ...cancelled.items].sort((a, b) => byInstant(b.updatedAt, a.updatedAt));

  return (
    <div className="stack-lg runner-board">
      <PageHeader eyebrow="Food court" title="Runner board" actions={<LiveConnectionBadge label="Live orders" />}>
        <p>Open orders, oldest first. New orders appear as diners place them; bump a ticket when it moves on.</p>
      </PageHeader>

      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>

      {error ? (
        <LoadError onRetry={() => void refreshBoard()} retrying={retrying}>
          Could not refresh the board: {errorMessage(error)}
        </LoadError>
      ) : null}
      <LiveConnectionError />
      {open.total > open.items.length ? (
        <p className="banner banner-info">
          Showing the oldest {open.items.length} of {open.total} open orders; the next ones come in as these are served.
        </p>
      ) : null}

      {/* An empty board says so once, without three empty columns below. */}
      {open.items.length === 0 ? (
        <section className="card">
          <EmptyState icon="food" title="No open orders">
            New orders appear here as diners place them; keep this page open.
          </EmptyState>
        </section>
      ) : (
        <div className="board-columns">
          {COLUMNS.map((column) => {
            const tickets = open.items.filter((o) => o.status === column.status);
            const headingId = `column-${column.status}`;
            return (
              <section key={column.status} className={`board-column column-${column.status}`} aria-labelledby={headingId}>
                <h2 id={headingId} className="board-column-title">
                  {column.title} <span className="board-count tabular">{tickets.length}</span>
                </h2>
                {tickets.length ? (
                  <ul className="board-tickets" aria-label={`${column.title} orders`}>
                    {tickets.map((order) => (
                      <li key={order.id}>
                        <OrderTicket order={order} now={now} fresh={fresh.has(order.id)} move={move} onCancel={openCancel} />
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="muted board-empty">{column.empty}</p>
                )}
              </section>
            );
          })}
        </div>
      )}

      <section className="card stack" aria-labelledby="recent-title">
        <h2 id="recent-title" className="card-heading">
          <Icon name="undo" /> Served and cancelled recently
        </h2>
        {recent.length === 0 ? (
          <p className="muted">Orders you mark served or cancel appear here for a while, to undo a slip.</p>
        ) : (
          <ul className="recent-orders" aria-label="Served and cancelled recently">
            {recent.map((order) => {
              const back = PREVIOUS_ORDER_STATUS[order.status];
              return (
                <li key={order.id} className="recent-order">
                  <span>
                    <strong>Table {order.table}</strong> · Order {order.id}{' '}
                    <span className={`badge ${order.status === 'served' ? 'badge-ok' : 'badge-bad'}`}>{STATUS_LABELS[order.status]}</span>
                  </span>
                  <span className="muted small">{formatWhen(order.updatedAt)}</span>
                  {back ? (
                    <AsyncButton run={() => move(order, back)} pendingLabel="Moving…">
                      <Icon name="undo" size={16} /> Undo<span className="visually-hidden"> (order {order.id}, back to {STATUS_LABELS[back]})</span>
                    </AsyncButton>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
