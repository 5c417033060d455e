/**
 * Keeps outgoing Kisi calls under Kisi's limit (5 requests/s per user): at most `perSecond` calls
 * start in any window of `windowMs` (+ a small margin for clock and network jitter). Callers over
 * the limit wait in a FIFO queue — nothing is dropped; a caller that gives up (its client went
 * away) leaves the queue.
 *
 * Where the window is kept is `reserve`'s business: by default this process's memory; with several
 * instances, the shared database window (`sharedRateWindow`), so all of them together stay under
 * Kisi's limit. The queue itself stays local: it only decides which of this instance's callers
 * asks for the next slot.
 */
export interface RateLimiter {
  acquire: (signal?: AbortSignal) => Promise<void>;
  readonly queued: number;
}

/** Takes a start in the window and answers 0, or answers how many ms to wait before asking again. */
export type ReserveStart = () => Promise<number>;

export const KISI_RATE_LIMIT_PER_SECOND = 5;
export const KISI_RATE_WINDOW_MS = 1000;
export const KISI_RATE_MARGIN_MS = 50;

/** The window in this process's memory: right for one instance, and for tests of the queue. */
export function localWindow(perSecond: number, spanMs: number): ReserveStart {
  const starts: number[] = [];
  return async () => {
    const now = Date.now();
    while (starts.length && now - starts[0]! >= spanMs) starts.shift();
    if (starts.length < perSecond) {
      starts.push(now);
      return 0;
    }
    return Math.max(1, starts[0]! + spanMs - now);
  };
}

export function createRateLimiter({
  perSecond = KISI_RATE_LIMIT_PER_SECOND,
  windowMs = KISI_RATE_WINDOW_MS,
  marginMs = KISI_RATE_MARGIN_MS,
  reserve,
}: { perSecond?: number; windowMs?: number; marginMs?: number; reserve?: ReserveStart } = {}): RateLimiter {
  // Every caller takes a start in the window, whatever the rate: there is no unthrottled path.
  if (!Number.isSafeInteger(perSecond) || perSecond < 1) throw new RangeError(`A rate limit is a whole number of calls a second, at least 1 (not ${perSecond}).`);
  const reserveStart = reserve ?? localWindow(perSecond, windowMs + marginMs);
  type Waiter = { resolve: () => void; reject: (err: unknown) => void; signal?: AbortSignal; onAbort?: () => void };
  const waiting: Waiter[] = [];
  let timer: NodeJS.Timeout | undefined;
  let pumping = false;

  const leave = (waiter: Waiter) => {
    if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
  };

  // One reservation at a time, for the caller at the head of the queue.
  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      while (waiting.length) {
        let wait: number;
        try {
          wait = await reserveStart();
        } catch (err) {
          // The window could not be read (the database is down): the head caller fails, the rest try again.
          const failed = waiting.shift();
          if (failed) {
            leave(failed);
            failed.reject(err);
          }
          continue;
        }
        if (wait > 0) {
          timer ??= setTimeout(() => {
            timer = undefined;
            void pump().catch(() => {});
          }, wait);
          return;
        }
        const next = waiting.shift();
        if (!next) return; // everyone left while we reserved; the slot goes unused
        leave(next);
        next.resolve();
      }
    } finally {
      pumping = false;
    }
  }

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<void>((resolve, reject) => {
        const entry: Waiter = { resolve, reject, signal };
        if (signal) {
          entry.onAbort = () => {
            const i = waiting.indexOf(entry);
            if (i >= 0) waiting.splice(i, 1);
            reject(signal.reason);
          };
          signal.addEventListener('abort', entry.onAbort, { once: true });
        }
        waiting.push(entry);
        // pump handles its own failures (each reaches a caller); nothing may escape as an unhandled rejection.
        if (!timer) void pump().catch(() => {});
      });
    },
    get queued() {
      return waiting.length;
    },
  };
}
