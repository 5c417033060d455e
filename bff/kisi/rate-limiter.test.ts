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
      await new Promise((r) => setTimeout(r, 10));
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

  it('lets at most the limit start per window and queues the rest in order', async () => {
    const limiter = createRateLimiter({ perSecond: 2, windowMs: 200, marginMs: 0 });
    const started: number[] = [];
    const t0 = Date.now();
    await Promise.all([1, 2, 3, 4].map((n) => limiter.acquire().then(() => started.push(n))));
    expect(started).toEqual([1, 2, 3, 4]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(195);
  });
});
