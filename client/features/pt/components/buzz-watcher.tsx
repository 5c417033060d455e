import { useEffect, useState } from 'react';
import { useStored } from '@/lib/stored-value';
import { useTrackedOrders, type TrackedOrder } from '@/features/pt/diner-store';
import { buzzIfReady, buzzStore, useFollowedOnScreen } from '@/features/pt/order-buzz';
import { useOrderStream } from '@/features/pt/order-stream';

/** Follows one asked order's stream where no confirmation shows it, and buzzes when it turns ready. */
function FollowToBuzz({ tracked }: { tracked: TrackedOrder }) {
  useOrderStream(tracked.order.id, tracked.token);
  const { order } = tracked;
  useEffect(() => {
    buzzIfReady(order);
  }, [order]);
  return null;
}

/**
 * The buzz on every food-court page, not only the order's own: a diner who asked to be buzzed and
 * went back to the menu (or the cart) for more is still told when the food is ready. Each asked order
 * not yet buzzed (a cancelled one too: the stall can bring it back), and not shown by a confirmation
 * on this page (which follows it already), is followed by its own stream until it buzzes. As a page
 * hands an order over to the watcher or back, the two streams overlap for a moment.
 */
export function BuzzWatcher() {
  // From the tick after the first paint: by then the page's confirmation has said which order it
  // follows, so a page opened on an order does not open (and at once close) a second stream for it.
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(true), 0);
    return () => clearTimeout(timer);
  }, []);
  const tracked = useTrackedOrders();
  const buzz = useStored(buzzStore);
  const onScreen = useFollowedOnScreen();
  const waiting = tracked.filter((t) => settled && buzz[t.order.id] === 'asked' && !onScreen.includes(t.order.id) && ['received', 'preparing', 'ready', 'cancelled'].includes(t.order.status));
  return (
    <>
      {waiting.map((t) => (
        <FollowToBuzz key={t.order.id} tracked={t} />
      ))}
    </>
  );
}
