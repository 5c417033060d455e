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
 * A dish's tap (one line ready, or not: `lineId`) says what it makes the line, answered as done alike.
 */
const TicketMoveSchema = v.object({ stallId: v.number(), orderId: v.number(), from: TicketStatusSchema, to: TicketStatusSchema });
const LineMoveSchema = v.object({ stallId: v.number(), orderId: v.number(), lineId: v.number(), ready: v.boolean() });
export const QueuedMoveSchema = v.union([TicketMoveSchema, LineMoveSchema]);
export type QueuedMove = v.InferOutput<typeof QueuedMoveSchema>;
export type QueuedTicketMove = v.InferOutput<typeof TicketMoveSchema>;
export type QueuedLineMove = v.InferOutput<typeof LineMoveSchema>;

export const isLineMove = (move: QueuedMove): move is QueuedLineMove => 'lineId' in move;
const sameMove = (a: QueuedMove, b: QueuedMove) =>
  a.stallId === b.stallId && a.orderId === b.orderId && (isLineMove(a) ? isLineMove(b) && a.lineId === b.lineId && a.ready === b.ready : !isLineMove(b) && a.from === b.from && a.to === b.to);

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
      const at = queue.findIndex((m) => sameMove(m, move));
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

type TicketShape = { orderId: number; status: QueuedTicketMove['to']; readyAt: string | null; lines: ReadonlyArray<{ id: number; readyAt: string | null }> };

/**
 * A ticket as it will be once its queued moves are sent (what the screen shows meanwhile): each move
 * applied in order as the server would (a whole bump to ready marks its lines, back to new unmarks
 * them; the first dish ready starts it, the last makes it ready). A line marked here but not yet sent
 * is ready since `pending`. `queued`: some move of it waits.
 */
export function queuedTicket<T extends TicketShape>(ticket: T, queue: readonly QueuedMove[], stallId: number, pending = 'pending'): T & { queued: boolean } {
  const mine = queue.filter((m) => m.stallId === stallId && m.orderId === ticket.orderId);
  let shown: T = ticket;
  for (const move of mine) {
    if (isLineMove(move)) {
      const lines = shown.lines.map((l) => (l.id === move.lineId ? { ...l, readyAt: move.ready ? (l.readyAt ?? pending) : null } : l));
      const status = lines.every((l) => l.readyAt !== null) ? 'ready' : 'preparing';
      shown = { ...shown, lines, status, readyAt: status === 'ready' ? (shown.readyAt ?? pending) : null };
    } else {
      const lines = move.to === 'ready' ? shown.lines.map((l) => ({ ...l, readyAt: l.readyAt ?? pending })) : move.from === 'ready' ? shown.lines.map((l) => (l.readyAt === shown.readyAt || l.readyAt === pending ? { ...l, readyAt: null } : l)) : move.to === 'received' ? shown.lines.map((l) => ({ ...l, readyAt: null })) : shown.lines;
      shown = { ...shown, lines, status: move.to, readyAt: move.to === 'ready' ? (shown.readyAt ?? pending) : null };
    }
  }
  return { ...shown, queued: mine.length > 0 };
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
