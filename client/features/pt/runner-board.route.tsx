import { useState } from 'react';
import { useLoaderData } from 'react-router';
import type { Page } from '@contracts/common.contract';
import type { Order, OrderStatus } from '@contracts/pt.contract';
import { openOrdersRead, recentOrdersRead, runnerBoardReads } from '@pages/pt.reads';
import { LiveConnectionBadge, LiveConnectionError } from '@/components/live-connection';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { useModal } from '@/components/modal-host';
import { PageHeader } from '@/components/page-header';
import { useToast } from '@/components/toast-host';
import { errorMessage, isApiError } from '@/lib/api-client';
import { byInstant } from '@/lib/format';
import { useLiveList } from '@/lib/live-list';
import { useNotify } from '@/lib/notify';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { useNow } from '@/lib/use-now';
import { ConfirmCancelOrder, OrderTicket, RecentOrders } from './components/order-ticket';
import { AGE_TICK_MS, isOpen, orderOf, useFreshMarks } from './live-orders';
import { moveOrder } from './pt.api';
import { STATUS_LABELS } from './pt-format';

/** `/pt/runner`: the open orders, and the last served and cancelled ones within reach of an undo. */
const reads = routeReads(runnerBoardReads);
export const { loader } = reads;
export const handle = { title: 'Runner board', ...reads.handle };

const oldestFirst = (a: Order, b: Order) => byInstant(a.createdAt, b.createdAt) || a.id - b.id;

/**
 * The open list with one order's news in it: added, moved, or gone (served, cancelled). Older news
 * than the list has is ignored. A board that shows every open order stays exact this way; one that
 * shows only the oldest page (partial) keeps a new order beyond its page out of it, and is read
 * again after any news: counting locally could not tell a replayed event from a new one, and an
 * order that leaves must make room for the next oldest.
 */
function mergeOpenOrder(page: Page<Order>, order: Order): { list: Page<Order>; readAgain: boolean } {
  const partial = page.total > page.items.length;
  const existing = page.items.find((o) => o.id === order.id);
  if (existing && existing.updatedAt > order.updatedAt) return { list: page, readAgain: false };
  const others = page.items.filter((o) => o.id !== order.id);
  if (!isOpen(order.status)) return { list: existing ? { ...page, items: others, total: Math.max(0, page.total - 1) } : page, readAgain: partial };
  if (existing) return { list: { ...page, items: [...others, order].sort(oldestFirst) }, readAgain: false };
  const last = page.items.at(-1);
  const full = partial || page.items.length >= page.pageSize;
  // Newer than the last ticket of a full page: it waits beyond the page until older ones leave.
  if (full && last && oldestFirst(order, last) > 0) return { list: { ...page, total: page.total + 1 }, readAgain: true };
  const items = [...others, order].sort(oldestFirst);
  return { list: { ...page, items: items.slice(0, page.pageSize), total: page.total + 1 }, readAgain: full };
}

/** A recent list changes when an order reaches its status, or leaves it (an undo). */
const recent = (status: 'served' | 'cancelled') => ({
  events: ['order'] as const,
  news: orderOf,
  concerns: (order: Order, list: Page<Order>) => order.status === status || list.items.some((o) => o.id === order.id),
});

const COLUMNS = [
  { status: 'received', title: 'Received', empty: 'No new orders.' },
  { status: 'preparing', title: 'Preparing', empty: 'Nothing being prepared.' },
  { status: 'ready', title: 'Ready', empty: 'Nothing waiting to be run.' },
] as const;

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const now = useNow(AGE_TICK_MS);
  const fresh = useFreshMarks(now);
  const [announcement, setAnnouncement] = useState('');
  const notify = useNotify();
  const toast = useToast();
  const modal = useModal();

  /** A new order (not one the board has, which a resume can replay): marked New, said, and notified while the tab is hidden. */
  const announce = (order: Order, board: Page<Order>) => {
    if (order.status !== 'received' || board.items.some((o) => o.id === order.id)) return;
    fresh.mark(order.id);
    setAnnouncement(`New order ${order.id} for table ${order.table}.`);
    notify({ title: `New order ${order.id}`, body: `Table ${order.table}`, tag: `order-${order.id}`, url: paths.ptRunner });
  };
  const openList = useLiveList(openOrdersRead, loaded.open, { events: ['order'], news: orderOf, merge: mergeOpenOrder, onNews: announce });
  const servedList = useLiveList(recentOrdersRead('served'), loaded.served, recent('served'));
  const cancelledList = useLiveList(recentOrdersRead('cancelled'), loaded.cancelled, recent('cancelled'));
  const lists = [openList, servedList, cancelledList];
  const open = openList.data;
  /** A move's own answer is shown at once (its event follows when the stream is up). */
  const take = (order: Order) => lists.forEach((list) => list.take(order));

  const move = async (order: Order, to: OrderStatus) => {
    try {
      const moved = await moveOrder({ params: { id: order.id }, body: { status: to } });
      take(moved);
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
            take(await moveOrder({ params: { id: order.id }, body: { status: 'cancelled' } }));
            toast.show({ tone: 'success', message: `Order ${order.id} (table ${order.table}) was cancelled.` });
          }}
        />
      ),
    });

  const error = lists.find((list) => list.error)?.error;

  return (
    <div className="stack-lg runner-board">
      <PageHeader eyebrow="Food court" title="Runner board" actions={<LiveConnectionBadge label="Live orders" />}>
        <p>Open orders, oldest first. New orders appear as diners place them; bump a ticket when it moves on.</p>
      </PageHeader>

      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>

      {error ? (
        <LoadError onRetry={() => lists.forEach((list) => list.readAgain())} retrying={lists.some((list) => list.isValidating)}>
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

      <RecentOrders orders={[...servedList.data.items, ...cancelledList.data.items]} move={move} />
    </div>
  );
}
