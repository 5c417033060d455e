import { useSyncExternalStore } from 'react';
import * as v from 'valibot';
import type { Order } from '@contracts/pt.contract';
import { playChime, wakeAudio } from '@/lib/chime-sound';
import { askAlertPermission, alertPermission, showBrowserNotification, type AlertPermission } from '@/lib/notify';
import { storedValue } from '@/lib/stored-value';

/**
 * "Buzz me when it's ready": a diner asks, with a tap, for this device to vibrate and chime when an
 * order turns ready. The tap is where the browser allows it: sound only plays in a page that has been
 * tapped, and the notification shown while the page is in the background needs a permission asked
 * for from a tap. Each order buzzes once, whichever of the device's tabs sees it turn ready first:
 * the choice and the buzz are remembered on the device (`asked`, then `buzzed`).
 */
const BuzzStateSchema = v.picklist(['asked', 'buzzed']);
type BuzzState = v.InferOutput<typeof BuzzStateSchema>;

export const buzzStore = storedValue<Record<string, BuzzState>>('frontdesk.pt.buzz', v.record(v.string(), BuzzStateSchema), {});

/** Long enough to feel in a pocket, in a rhythm no notification of the phone's own uses. */
export const BUZZ_PATTERN = [300, 150, 300, 150, 600];
const CHIMES = 3;
const CHIME_GAP_MS = 700;
const KEPT_CHOICES = 9;

/** What this device can do when the order is ready: vibrate, and notify while the page is in the background. */
export type BuzzAbilities = { vibrates: boolean; notifies: AlertPermission };

export const buzzAbilities = (): BuzzAbilities => ({
  vibrates: typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function',
  notifies: alertPermission(),
});

/** The diner's tap: wakes the sound and a first short vibration (so they know it works), asks to notify, remembers the choice. */
export async function askToBuzz(orderId: number): Promise<BuzzAbilities> {
  wakeAudio();
  if (buzzAbilities().vibrates) navigator.vibrate(80);
  // The newest few are kept: a device follows a handful of orders (TRACKED_ORDERS), and old choices would only pile up.
  const kept = Object.entries(buzzStore.read()).filter(([id]) => Number(id) !== orderId).slice(-KEPT_CHOICES);
  buzzStore.write({ ...Object.fromEntries(kept), [orderId]: 'asked' });
  await askAlertPermission();
  return buzzAbilities();
}

export function stopBuzz(orderId: number): void {
  const { [orderId]: _dropped, ...rest } = buzzStore.read();
  buzzStore.write(rest);
}

/**
 * Buzzes for `order` if the diner asked and it is ready: the vibration, the chime a few times, and a
 * notification when the page is not on screen. Once only; an order already served (the page was
 * closed while it was ready) does not buzz, as the food is at the table.
 */
export function buzzIfReady(order: Pick<Order, 'id' | 'status' | 'table'>): boolean {
  if (order.status !== 'ready') return false;
  if (buzzStore.read()[order.id] !== 'asked') return false;
  buzzStore.write({ ...buzzStore.read(), [order.id]: 'buzzed' });
  if (buzzAbilities().vibrates) navigator.vibrate(BUZZ_PATTERN);
  for (let n = 0; n < CHIMES; n++) setTimeout(playChime, n * CHIME_GAP_MS);
  if (document.hidden) showBrowserNotification({ title: `Order ${order.id} is ready`, body: `A runner is bringing it to table ${order.table}.`, tag: `order-ready-${order.id}` });
  return true;
}

/**
 * The orders a page on screen follows already (their confirmation is shown, with its own stream):
 * the food court's watcher (`BuzzWatcher`) opens a stream only for the other asked ones, so an order
 * is never followed twice in a tab. In memory: it is this tab's, and only while the page is up.
 */
const followedHere = new Map<number, number>();
const followedListeners = new Set<() => void>();
let followedSnapshot: readonly number[] = [];
const followedChanged = () => {
  followedSnapshot = [...followedHere.keys()];
  followedListeners.forEach((listener) => listener());
};

/** Marks `orderId` as followed by a mounted confirmation; the returned function (an effect's clean-up) lets it go. */
export function followedOnScreen(orderId: number): () => void {
  followedHere.set(orderId, (followedHere.get(orderId) ?? 0) + 1);
  followedChanged();
  return () => {
    const left = (followedHere.get(orderId) ?? 1) - 1;
    if (left > 0) followedHere.set(orderId, left);
    else followedHere.delete(orderId);
    followedChanged();
  };
}

export const useFollowedOnScreen = (): readonly number[] =>
  useSyncExternalStore(
    (listener) => {
      followedListeners.add(listener);
      return () => followedListeners.delete(listener);
    },
    () => followedSnapshot,
    () => followedSnapshot,
  );
