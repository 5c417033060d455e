import { useEffect, useState } from 'react';
import type { Order } from '@contracts/pt.contract';
import { Icon } from '@/components/icon';
import { useStored } from '@/lib/stored-value';
import { askToBuzz, buzzAbilities, buzzIfReady, buzzStore, followedOnScreen, stopBuzz } from '@/features/pt/order-buzz';

/** How the device will tell the diner: a browser without vibration for web pages (an iPhone's) can only chime. */
const buzzWays = () => (buzzAbilities().vibrates ? 'This device vibrates and chimes' : 'This browser cannot vibrate for a web page, so you will hear a chime');

/** What the diner can count on, in their browser's terms: a promise the page cannot keep is worse than none. */
function buzzHint(): string {
  const { notifies } = buzzAbilities();
  const how = buzzWays();
  const away =
    notifies === 'granted'
      ? 'with the page in the background you get a notification too.'
      : 'keep a food-court page open, the menu or this one (notifications are off, so the browser may hold the buzz while it is in the background).';
  return `${how}; ${away}`;
}

/**
 * The order page's offer to buzz this device when the order is ready (vibration and sound, asked for
 * with a tap, as the browser requires), and the buzz itself when the order's live status turns ready.
 */
export function BuzzWhenReady({ order }: { order: Pick<Order, 'id' | 'status' | 'table'> }) {
  const asked = useStored(buzzStore)[order.id] === 'asked';
  // Re-rendered after the permission answer, so the hint says what the browser now allows.
  const [, setAnswered] = useState(0);
  useEffect(() => {
    buzzIfReady(order);
  }, [order]);
  // This confirmation's stream follows the order: the food court's watcher leaves it alone meanwhile.
  useEffect(() => followedOnScreen(order.id), [order.id]);

  if (order.status !== 'received' && order.status !== 'preparing') return null;
  if (!asked) {
    return (
      <div className="order-buzz">
        <button type="button" className="btn" onClick={() => void askToBuzz(order.id).then(() => setAnswered((n) => n + 1))}>
          <Icon name="bell" /> Buzz me when it’s ready
        </button>
        <p className="muted small">{buzzWays()} when the food is ready, on this page or the menu.</p>
      </div>
    );
  }
  return (
    <div className="order-buzz order-buzz-on" role="status">
      <Icon name="bell" />
      <p>
        <strong>We will buzz you when it is ready.</strong> <span className="muted small">{buzzHint()}</span>
      </p>
      <button type="button" className="btn btn-small" onClick={() => stopBuzz(order.id)}>
        Don’t buzz me
      </button>
    </div>
  );
}
