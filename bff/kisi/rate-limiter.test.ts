import { createRateLimiter } from './rate-limiter';

describe('the Kisi rate limiter', () => {
  it('survives a window that fails while its only caller has already left, and serves the next caller', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let fail: (err: Error) => void = () => {};
      let calls = 0;
      const limiter = createRateLimiter({
        reserve: () => (++calls === 1 ? new Promise<number>((_, reject) => (fail = reject)) : Promise.resolve(0)),
      });
      const gone = new AbortController();
      const first = limiter.acquire(gone.signal);
      gone.abort(new Error('the browser closed the tab'));
      await expect(first).rejects.toThrow('the browser closed the tab');
      fail(new Error('the database is down'));
      // Node reports a rejection nobody handled once the turn that made it is over: one turn later it would be here.
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
      await expect(limiter.acquire()).resolves.toBeUndefined();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('gives a failed window to the caller at the head of the queue only', async () => {
    let calls = 0;
    const limiter = createRateLimiter({ reserve: async () => (++calls === 1 ? Promise.reject(new Error('the database is down')) : 0) });
    const [head, next] = [limiter.acquire(), limiter.acquire()];
    await expect(head).rejects.toThrow('the database is down');
    await expect(next).resolves.toBeUndefined();
  });

  describe('on a fake clock', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('lets at most the limit start per window and queues the rest in order', async () => {
      const limiter = createRateLimiter({ perSecond: 2, windowMs: 200, marginMs: 0 });
      const started: number[] = [];
      const all = Promise.all([1, 2, 3, 4].map((n) => limiter.acquire().then(() => started.push(n))));
      await jest.advanceTimersByTimeAsync(0);
      expect([started, limiter.queued]).toEqual([[1, 2], 2]);
      // The window is 200 ms from the first start: a moment before it ends, the others still wait.
      await jest.advanceTimersByTimeAsync(199);
      expect([started, limiter.queued]).toEqual([[1, 2], 2]);
      await jest.advanceTimersByTimeAsync(1);
      await all;
      expect([started, limiter.queued]).toEqual([[1, 2, 3, 4], 0]);
    });

    it('counts the margin into the window', async () => {
      const limiter = createRateLimiter({ perSecond: 1, windowMs: 1000, marginMs: 50 });
      let second = false;
      await limiter.acquire();
      const next = limiter.acquire().then(() => (second = true));
      await jest.advanceTimersByTimeAsync(1049);
      expect(second).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await next;
      expect(second).toBe(true);
    });
  });
});
