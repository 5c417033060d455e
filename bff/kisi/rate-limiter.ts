/**
 * Keeps outgoing Kisi calls under Kisi's limit (5 requests/s per user): at most `perSecond` calls
 * start in any window of `windowMs` (+ a small margin for clock and network jitter). Callers over
 * the limit wait in a FIFO queue — nothing is dropped; a caller that gives up (its client went
 * away) leaves the queue.
 */
export interface RateLimiter {
  acquire: (signal?: AbortSignal) => Promise<void>;
  readonly queued: number;
  /** True when no limit applies (benchmarks only). */
  readonly unlimited: boolean;
}

export const KISI_RATE_LIMIT_PER_SECOND = 5;

export function createRateLimiter({ perSecond = KISI_RATE_LIMIT_PER_SECOND, windowMs = 1000, marginMs = 50 } = {}): RateLimiter {
  const span = windowMs + marginMs;
  const starts: number[] = [];
  const waiting: Array<{ resolve: () => void; reject: (err: unknown) => void; signal?: AbortSignal; onAbort?: () => void }> = [];
  let timer: NodeJS.Timeout | undefined;

  function pump() {
    const now = Date.now();
    while (starts.length && now - starts[0]! >= span) starts.shift();
    while (waiting.length && starts.length < perSecond) {
      const next = waiting.shift()!;
      if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort);
      starts.push(now);
      next.resolve();
    }
    if (waiting.length && !timer) {
      timer = setTimeout(() => {
        timer = undefined;
        pump();
      }, Math.max(1, starts[0]! + span - now));
    }
  }

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (perSecond === Infinity) return Promise.resolve(); // unthrottled (benchmarks only)
      return new Promise<void>((resolve, reject) => {
        const entry: (typeof waiting)[number] = { resolve, reject, signal };
        if (signal) {
          entry.onAbort = () => {
            const i = waiting.indexOf(entry);
            if (i >= 0) waiting.splice(i, 1);
            reject(signal.reason);
          };
          signal.addEventListener('abort', entry.onAbort, { once: true });
        }
        waiting.push(entry);
        if (!timer) pump();
      });
    },
    get queued() {
      return waiting.length;
    },
    unlimited: perSecond === Infinity,
  };
}
