import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { TicketStatusSchema } from '@contracts/pt.contract';
import { isApiError } from '@/lib/api-client';
import { storedValue } from '@/lib/stored-value';

/**
 * A kitchen screen's bumps waiting to be sent, oldest first, kept on the device (a tablet that loses
 * its network, or is reloaded meanwhile, still sends them). Every bump goes through here, online or
 * not, so they always reach the server in the order they were made. Each carries the step it was
 * made from, so one that did arrive before the connection dropped is answered as done when sent again.
 */
export const QueuedMoveSchema = v.object({ stallId: v.number(), orderId: v.number(), from: TicketStatusSchema, to: TicketStatusSchema });
export type QueuedMove = v.InferOutput<typeof QueuedMoveSchema>;

export const kitchenQueue = storedValue('pt.kitchen-queue', v.array(QueuedMoveSchema), []);

export const queueMove = (move: QueuedMove) => kitchenQueue.write([...kitchenQueue.read(), move]);

const isNetworkFailure = (error: unknown) => error instanceof Error && error.name === 'NetworkError';

export type SendOutcome = 'sent' | 'offline';

let sending: Promise<SendOutcome> | undefined;

/**
 * Sends this stall's queued moves one at a time, in order. A network failure stops it (the rest wait
 * for the connection); a refusal (409: another screen moved it; 404: gone) drops that move, reported
 * through `refused`, and goes on. One run at a time: a second call waits for the first and runs again.
 */
export function sendQueued(stallId: number, send: (move: QueuedMove) => Promise<unknown>, refused: (move: QueuedMove, error: unknown) => void): Promise<SendOutcome> {
  const run = async (): Promise<SendOutcome> => {
    for (;;) {
      const move = kitchenQueue.read().find((m) => m.stallId === stallId);
      if (!move) return 'sent';
      try {
        await send(move);
      } catch (error) {
        if (isNetworkFailure(error) || !isApiError(error)) return 'offline';
        refused(move, error);
      }
      // Taken off only once answered (the stored list may have grown meanwhile: only this one goes).
      const queue = kitchenQueue.read();
      const at = queue.findIndex((m) => m.stallId === move.stallId && m.orderId === move.orderId && m.from === move.from && m.to === move.to);
      kitchenQueue.write(at < 0 ? queue : [...queue.slice(0, at), ...queue.slice(at + 1)]);
    }
  };
  const next = (sending ?? Promise.resolve<SendOutcome>('sent')).then(run, run);
  sending = next;
  void next.finally(() => {
    if (sending === next) sending = undefined;
  });
  return next;
}

/** The step a ticket is at once its queued moves are sent (what the screen shows meanwhile). */
export function queuedStatus<T extends { orderId: number; status: QueuedMove['to'] }>(ticket: T, queue: readonly QueuedMove[], stallId: number): QueuedMove['to'] {
  const mine = queue.filter((m) => m.stallId === stallId && m.orderId === ticket.orderId);
  return mine.at(-1)?.to ?? ticket.status;
}

/** Whether the device is online, for the queue: the browser's word for it, and our own when a send found no network (`lost`). */
export function useOnline(): [online: boolean, lost: (isLost: boolean) => void] {
  const [browserOnline, setBrowserOnline] = useState(() => navigator.onLine);
  const [lostConnection, setLost] = useState(false);
  useEffect(() => {
    const on = () => {
      setBrowserOnline(true);
      setLost(false);
    };
    const off = () => setBrowserOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return [browserOnline && !lostConnection, setLost];
}
