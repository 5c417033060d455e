import { ApiError } from './api-client';
import { GC_AFTER_MS, collectGarbage, loadQuery, loadQueryOnce, prefetch, resetCache, swrCache, warm, withRetry } from './cache';

afterEach(() => {
  resetCache();
  jest.useRealTimers();
});

describe('withRetry (3 retries, 1 s doubling, none for 4xx)', () => {
  it('retries a 500 three times after 1 s, 2 s and 4 s, then gives up', async () => {
    jest.useFakeTimers();
    const fn = jest.fn().mockRejectedValue(new ApiError(500, '', '/api/x'));
    const result = withRetry(fn).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(0);
    expect(fn).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(999);
    expect(fn).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(fn).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(2000);
    expect(fn).toHaveBeenCalledTimes(3);
    await jest.advanceTimersByTimeAsync(4000);
    expect(fn).toHaveBeenCalledTimes(4);
    expect(await result).toBeInstanceOf(ApiError);
  });

  it('succeeds when a retry does', async () => {
    jest.useFakeTimers();
    const fn = jest.fn().mockRejectedValueOnce(new TypeError('network')).mockResolvedValue('ok');
    const result = withRetry(fn);
    await jest.advanceTimersByTimeAsync(1000);
    await expect(result).resolves.toBe('ok');
  });

  it.each([400, 401, 403, 404, 409])('does not retry a %d', async (status) => {
    const fn = jest.fn().mockRejectedValue(new ApiError(status, '', '/api/x'));
    await expect(withRetry(fn)).rejects.toMatchObject({ status });
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe('loader reads through the cache', () => {
  it('fetches a cold key once and returns a cached key at once', async () => {
    const fetcher = jest.fn(async (key: string) => ({ key }));
    await expect(loadQuery('/api/things', fetcher)).resolves.toEqual({ key: '/api/things' });
    expect(fetcher).toHaveBeenCalledTimes(1);
    swrCache.set('/api/things', { data: { key: 'cached' } });
    expect(loadQuery('/api/things', fetcher)).toEqual({ key: 'cached' }); // synchronous: no waiting on a revisit
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('reuses a preload for 30 s, then fetches again', async () => {
    const fetcher = jest.fn(async () => 'v');
    const t0 = 1_000_000;
    await prefetch('/api/p', fetcher, t0);
    await prefetch('/api/p', fetcher, t0 + 29_000);
    expect(fetcher).toHaveBeenCalledTimes(1);
    await prefetch('/api/p', fetcher, t0 + 31_000);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failed preload', async () => {
    const fetcher = jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue('up');
    await expect(prefetch('/api/f', fetcher)).rejects.toThrow('down');
    await expect(prefetch('/api/f', fetcher)).resolves.toBe('up');
  });
});

describe('hover preloads', () => {
  it('try once: a page that joins one for a service that is down fails at once, not after the backoff', async () => {
    jest.useFakeTimers();
    const fetcher = jest.fn().mockRejectedValue(new ApiError(502, '', '/api/samples/rick'));
    warm('/api/samples/rick', fetcher);
    const outcome = (loadQueryOnce('/api/samples/rick', fetcher) as Promise<unknown>).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(0);
    expect(await outcome).toMatchObject({ status: 502 });
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('leave the retries to the loader: one that joins a failing preload tries again, each time anew', async () => {
    jest.useFakeTimers();
    const fetcher = jest.fn().mockRejectedValueOnce(new ApiError(503, '', '/api/x')).mockResolvedValue('up');
    warm('/api/x', fetcher);
    const loaded = loadQuery('/api/x', fetcher) as Promise<unknown>;
    await jest.advanceTimersByTimeAsync(1000);
    await expect(loaded).resolves.toBe('up');
    expect(fetcher).toHaveBeenCalledTimes(2);
  });
});

describe('garbage collection', () => {
  it('drops entries nobody used for 5 minutes', () => {
    const now = Date.now();
    swrCache.set('/api/old', { data: 1 });
    collectGarbage(now); // first sweep notes it as unused
    expect(collectGarbage(now + GC_AFTER_MS - 1)).toEqual([]);
    expect(collectGarbage(now + GC_AFTER_MS)).toEqual(['/api/old']);
    expect(swrCache.has('/api/old')).toBe(false);
  });
});
