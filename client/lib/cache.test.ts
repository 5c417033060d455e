import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { createMemoryRouter, useLoaderData, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { gymApi } from '@contracts/gym.contract';
import { ApiError, keyFor, type QueryKey } from './api-client';
import { AppLink, registerPreloadRoutes } from './app-link';
import { CacheProvider, GC_AFTER_MS, PRELOAD_FRESH_MS, cachedData, invalidate, loadQuery, preloadQuery, resetCache, setQueryData, useQuery, type Fetcher } from './cache';

const memberKey = (id: number) => keyFor(gymApi.getMember, { params: { id } });
const pageKey = (page: number) => keyFor(gymApi.listMembers, { query: { page } });

/** A fetcher answering what `server` says now, counting its calls; `hold()` keeps the next answers until `release()`. */
function fakeServer<T>(first: T) {
  const server = { now: first, calls: 0, gate: undefined as Promise<void> | undefined, open: () => {} };
  const fetcher = jest.fn(async (_key: QueryKey): Promise<T> => {
    server.calls++;
    const answer = server.now; // what the server had when the request reached it
    await server.gate;
    return answer;
  });
  const hold = () => void (server.gate = new Promise((resolve) => (server.open = () => ((server.gate = undefined), resolve()))));
  return { server, fetcher, hold, release: () => act(async () => server.open()) };
}

const wrapper = ({ children }: { children: ReactNode }) => createElement(CacheProvider, null, children);

/** The app's one provider, mounted for the whole test as in the app; `show(page)` puts a page under it (null: none). */
function app() {
  const view = render(createElement(CacheProvider, null, null));
  return (page: ReactNode) => view.rerender(createElement(CacheProvider, null, page));
}

function MemberPage({ fetcher, loaded }: { fetcher: Fetcher<string>; loaded?: string }) {
  return createElement('p', null, useQuery(memberKey(1), fetcher, loaded).data ?? 'Loading…');
}
const memberPage = (fetcher: Fetcher<string>, loaded?: string) => createElement(MemberPage, { fetcher, loaded });

/** `useQuery` for `renderHook`: SWR re-renders only for the fields a render read, so this one reads them. */
function useRead<T>(key: QueryKey, fetcher: Fetcher<T>, loaderData: T | undefined) {
  const { data, error } = useQuery(key, fetcher, loaderData);
  return { data, error };
}
const failing = (status: number) => jest.fn(async (): Promise<string> => Promise.reject(new ApiError(status, '', '/api/x')));

beforeEach(() => resetCache());
afterEach(() => jest.useRealTimers());

describe('stale time 0', () => {
  it('a first visit fetches once: the page shows the loader’s answer without fetching it again', async () => {
    jest.useFakeTimers();
    const { fetcher } = fakeServer('Ada');
    const show = app();
    show(memberPage(fetcher, await loadQuery(memberKey(1), fetcher)));
    expect(screen.getByText('Ada')).toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(5000));
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('a revisit renders from the cache at once and reads it again in the background', async () => {
    jest.useFakeTimers();
    const { server, fetcher } = fakeServer('Ada');
    const show = app();
    show(memberPage(fetcher, await loadQuery(memberKey(1), fetcher)));
    show(null); // elsewhere for a while
    await act(() => jest.advanceTimersByTimeAsync(3000));

    server.now = 'Ada Lovelace';
    const loaded = await loadQuery(memberKey(1), fetcher); // the revisit's loader: no request
    expect(loaded).toBe('Ada');
    expect(fetcher).toHaveBeenCalledTimes(1);
    show(memberPage(fetcher, loaded));
    expect(screen.getByText('Ada')).toBeInTheDocument(); // the first render already has it
    await act(() => jest.advanceTimersByTimeAsync(100));
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('like SWR’s own requests, an answer fetched in the last 2 s is not fetched again for another page', async () => {
    jest.useFakeTimers();
    const { fetcher } = fakeServer('Ada');
    const show = app();
    show(memberPage(fetcher, await loadQuery(memberKey(1), fetcher)));
    show(null);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    show(memberPage(fetcher, await loadQuery(memberKey(1), fetcher)));
    await act(() => jest.advanceTimersByTimeAsync(100));
    expect(fetcher).toHaveBeenCalledTimes(1);
  });
});

describe('unused data is gone after 5 minutes', () => {
  it('drops a key nothing showed for 5 minutes since its last use', async () => {
    jest.useFakeTimers();
    const { fetcher } = fakeServer('Ada');
    await loadQuery(memberKey(1), fetcher);
    await act(() => jest.advanceTimersByTimeAsync(GC_AFTER_MS - 1000));
    await loadQuery(memberKey(1), fetcher); // a use: the 5 minutes start again
    await act(() => jest.advanceTimersByTimeAsync(GC_AFTER_MS - 1));
    expect(cachedData(memberKey(1))).toBe('Ada');
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(cachedData(memberKey(1))).toBeUndefined();
    await loadQuery(memberKey(1), fetcher);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('never drops what a page shows, and counts the 5 minutes from when it stops', async () => {
    jest.useFakeTimers();
    const { fetcher } = fakeServer('Ada');
    const loaded = await loadQuery(memberKey(1), fetcher);
    const page = renderHook(() => useRead(memberKey(1), fetcher, loaded), { wrapper });
    await act(() => jest.advanceTimersByTimeAsync(2 * GC_AFTER_MS));
    expect(cachedData(memberKey(1))).toBe('Ada');
    page.unmount();
    await act(() => jest.advanceTimersByTimeAsync(GC_AFTER_MS - 1));
    expect(cachedData(memberKey(1))).toBe('Ada');
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(cachedData(memberKey(1))).toBeUndefined();
  });
});

describe('3 retries with backoff from 1 s, doubling', () => {
  it('a loader read retries a 500 after 1 s, 2 s and 4 s, then throws', async () => {
    jest.useFakeTimers();
    const fetcher = failing(500);
    const outcome = loadQuery(memberKey(1), fetcher).catch((e: unknown) => e);
    await act(() => jest.advanceTimersByTimeAsync(0));
    expect(fetcher).toHaveBeenCalledTimes(1);
    await act(() => jest.advanceTimersByTimeAsync(999));
    expect(fetcher).toHaveBeenCalledTimes(1);
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(fetcher).toHaveBeenCalledTimes(2);
    await act(() => jest.advanceTimersByTimeAsync(2000));
    expect(fetcher).toHaveBeenCalledTimes(3);
    await act(() => jest.advanceTimersByTimeAsync(4000));
    expect(fetcher).toHaveBeenCalledTimes(4);
    await act(() => jest.advanceTimersByTimeAsync(60_000));
    expect(fetcher).toHaveBeenCalledTimes(4);
    expect(await outcome).toMatchObject({ status: 500 });
  });

  it('a loader read that a retry answers returns that answer', async () => {
    jest.useFakeTimers();
    const fetcher = jest.fn<Promise<string>, [QueryKey]>().mockRejectedValueOnce(new TypeError('network')).mockResolvedValue('Ada');
    const outcome = loadQuery(memberKey(1), fetcher);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    await expect(outcome).resolves.toBe('Ada');
    expect(cachedData(memberKey(1))).toBe('Ada');
  });

  it.each([400, 401, 403, 404, 409])('does not retry a %d (a 404 shows the not-found screen at once)', async (status) => {
    const fetcher = failing(status);
    await expect(loadQuery(memberKey(1), fetcher)).rejects.toMatchObject({ status });
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('a page’s own read retries with the same backoff', async () => {
    jest.useFakeTimers();
    const fetcher = failing(502);
    renderHook(() => useRead(memberKey(1), fetcher, undefined), { wrapper });
    await act(() => jest.advanceTimersByTimeAsync(0));
    expect(fetcher).toHaveBeenCalledTimes(1);
    for (const [wait, calls] of [[999, 1], [1, 2], [1999, 2], [1, 3], [3999, 3], [1, 4], [60_000, 4]] as const) {
      await act(() => jest.advanceTimersByTimeAsync(wait));
      expect(fetcher).toHaveBeenCalledTimes(calls);
    }
  });
});

describe('a 503 (the service briefly unavailable, with Retry-After)', () => {
  const unavailableFor = (times: number, retryAfterMs: number) => {
    const fetcher = jest.fn<Promise<string>, [QueryKey]>();
    for (let i = 0; i < times; i++) fetcher.mockRejectedValueOnce(new ApiError(503, '', '/api/x', undefined, retryAfterMs));
    return fetcher.mockResolvedValue('Ada');
  };

  it('a loader read is not retried inside the navigation: the page says so at once (and tries again itself)', async () => {
    const fetcher = unavailableFor(1, 5000);
    await expect(loadQuery(memberKey(1), fetcher)).rejects.toMatchObject({ status: 503, retryAfterMs: 5000 });
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('a page’s own read asks again after each Retry-After, past the 3 retries, until the service answers', async () => {
    jest.useFakeTimers();
    const fetcher = unavailableFor(5, 2000);
    const { result } = renderHook(() => useRead(memberKey(1), fetcher, undefined), { wrapper });
    await act(() => jest.advanceTimersByTimeAsync(0));
    expect(fetcher).toHaveBeenCalledTimes(1);
    for (const [wait, calls] of [[1999, 1], [1, 2], [2000, 3], [2000, 4], [2000, 5], [1999, 5], [1, 6]] as const) {
      await act(() => jest.advanceTimersByTimeAsync(wait));
      expect(fetcher).toHaveBeenCalledTimes(calls);
    }
    expect(result.current.data).toBe('Ada');
    expect(result.current.error).toBeUndefined();
  });
});

describe('an outside service’s outage shows inside the page ({ outage: "in-page" })', () => {
  it('comes back at once as the error, one try, instead of holding the navigation through the backoff', async () => {
    const fetcher = failing(502);
    await expect(loadQuery(memberKey(1), fetcher, { outage: 'in-page' })).resolves.toEqual({ error: expect.objectContaining({ status: 502 }) });
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('still sends a 401, 403 or 404 to the router', async () => {
    for (const status of [401, 403, 404]) await expect(loadQuery(memberKey(status), failing(status), { outage: 'in-page' })).rejects.toMatchObject({ status });
  });

  it('gives the cached data or the answer as data', async () => {
    const { fetcher } = fakeServer('Ada');
    await expect(loadQuery(memberKey(1), fetcher, { outage: 'in-page' })).resolves.toEqual({ data: 'Ada' });
    await expect(loadQuery(memberKey(1), fetcher, { outage: 'in-page' })).resolves.toEqual({ data: 'Ada' });
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('the page shows the loader’s error until its own read answers', async () => {
    const { server, fetcher, hold, release } = fakeServer('Ada');
    hold();
    const loaded = { error: new ApiError(502, '', '/api/x') };
    const { result } = renderHook(
      () => {
        const { data, error } = useQuery(memberKey(1), fetcher, loaded, { outage: 'in-page' });
        return { data, error };
      },
      { wrapper },
    );
    expect(result.current.error).toBe(loaded.error);
    server.now = 'Ada';
    await release();
    expect(result.current).toMatchObject({ data: 'Ada', error: undefined });
  });
});

describe('preloads on intent, good for 30 s', () => {
  /** A list linking to a member page whose loader and component read the member through the cache. */
  function app(fetcher: Fetcher<string>) {
    const loader = () => loadQuery(memberKey(1), fetcher);
    function Member() {
      const loaded = useLoaderData<typeof loader>();
      return createElement('h1', null, useQuery(memberKey(1), fetcher, loaded).data);
    }
    const routes: RouteObject[] = [
      { path: '/', Component: () => createElement(AppLink, { to: '/members/1' }, 'Ada') },
      { path: '/members/:id', loader, Component: Member, handle: { preload: () => preloadQuery(memberKey(1), fetcher) } },
    ];
    registerPreloadRoutes(routes);
    render(createElement(CacheProvider, null, createElement(RouterProvider, { router: createMemoryRouter(routes) })));
    return screen.getByRole('link', { name: 'Ada' });
  }

  it('hovering a link fetches its page’s data after 50 ms; a click within 30 s shows it without fetching again', async () => {
    jest.useFakeTimers();
    const { fetcher } = fakeServer('Ada Lovelace');
    const link = app(fetcher);
    fireEvent.mouseEnter(link);
    await act(() => jest.advanceTimersByTimeAsync(49));
    expect(fetcher).not.toHaveBeenCalled();
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(fetcher).toHaveBeenCalledTimes(1);
    await act(() => jest.advanceTimersByTimeAsync(PRELOAD_FRESH_MS - 1000));
    fireEvent.click(link);
    await act(() => jest.advanceTimersByTimeAsync(100));
    await act(() => jest.advanceTimersByTimeAsync(100)); // and the frame after the page mounted
    expect(screen.getByRole('heading')).toHaveTextContent('Ada Lovelace');
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('after 30 s the page shows the preloaded answer and reads it again', async () => {
    jest.useFakeTimers();
    const { server, fetcher } = fakeServer('Ada');
    const link = app(fetcher);
    fireEvent.mouseEnter(link);
    await act(() => jest.advanceTimersByTimeAsync(50));
    server.now = 'Ada Lovelace';
    await act(() => jest.advanceTimersByTimeAsync(PRELOAD_FRESH_MS + 1));
    fireEvent.click(link);
    await act(() => jest.advanceTimersByTimeAsync(100));
    expect(screen.getByRole('heading')).toHaveTextContent(/^Ada$/); // at once, from the cache
    await act(() => jest.advanceTimersByTimeAsync(100));
    expect(screen.getByRole('heading')).toHaveTextContent('Ada Lovelace');
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('a preload tries once; the loader that joins a failed one tries again, with its retries', async () => {
    jest.useFakeTimers();
    const fetcher = jest.fn<Promise<string>, [QueryKey]>().mockRejectedValueOnce(new ApiError(502, '', '/api/x')).mockResolvedValue('Ada');
    preloadQuery(memberKey(1), fetcher);
    const loaded = loadQuery(memberKey(1), fetcher);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    await expect(loaded).resolves.toBe('Ada');
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('an outage read joining a failed preload shows it at once, not after the backoff', async () => {
    const fetcher = failing(502);
    preloadQuery(memberKey(1), fetcher);
    await expect(loadQuery(memberKey(1), fetcher, { outage: 'in-page' })).resolves.toMatchObject({ error: { status: 502 } });
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('preloads nothing that is cached or on its way', async () => {
    const { fetcher } = fakeServer('Ada');
    preloadQuery(memberKey(1), fetcher);
    preloadQuery(memberKey(1), fetcher);
    await loadQuery(memberKey(1), fetcher);
    preloadQuery(memberKey(1), fetcher);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });
});

describe('a live update is never undone', () => {
  it('by a revalidation that was on its way when it came', async () => {
    const { server, fetcher, hold, release } = fakeServer('access off');
    const loaded = await loadQuery(memberKey(1), fetcher);
    const page = renderHook(() => useRead(memberKey(1), fetcher, loaded), { wrapper });
    hold();
    let refreshed: Promise<void> = Promise.resolve();
    act(() => void (refreshed = invalidate(gymApi.getMember))); // a refresh (a reconnect, say) leaves with "access off"
    expect(fetcher).toHaveBeenCalledTimes(2);
    server.now = 'access on';
    act(() => setQueryData(memberKey(1), 'access on')); // the live event
    expect(page.result.current.data).toBe('access on');
    await release();
    await act(() => refreshed);
    expect(page.result.current.data).toBe('access on');
  });

  it('by a loader’s or preload’s answer that was on its way', async () => {
    const { server, fetcher, hold, release } = fakeServer('access off');
    hold();
    preloadQuery(memberKey(1), fetcher);
    const loaded = loadQuery(memberKey(1), fetcher);
    server.now = 'access on';
    setQueryData(memberKey(1), 'access on');
    await release();
    expect(await loaded).toBe('access off'); // the loader's own answer, but the cache keeps the news
    expect(cachedData(memberKey(1))).toBe('access on');
    const { result } = renderHook(() => useRead(memberKey(1), fetcher, 'access off'), { wrapper });
    expect(result.current.data).toBe('access on');
  });

  it('by the page’s first revalidation, which comes a frame after it mounts', async () => {
    jest.useFakeTimers();
    const { server, fetcher } = fakeServer('access off');
    const show = app();
    show(memberPage(fetcher, await loadQuery(memberKey(1), fetcher)));
    show(null);
    await act(() => jest.advanceTimersByTimeAsync(3000));
    show(memberPage(fetcher, await loadQuery(memberKey(1), fetcher))); // a revisit: it revalidates on the next frame
    server.now = 'access on';
    act(() => setQueryData(memberKey(1), 'access on')); // the live event, before that frame
    expect(screen.getByText('access on')).toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(100));
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(screen.getByText('access on')).toBeInTheDocument();
  });

  it('folds news into what is cached, and writes nothing when nothing is', () => {
    setQueryData(pageKey(0), (page: string[] | undefined) => page && [...page, 'Grace']);
    expect(cachedData(pageKey(0))).toBeUndefined();
    setQueryData(pageKey(0), ['Ada']);
    setQueryData(pageKey(0), (page: string[] | undefined) => page && [...page, 'Grace']);
    expect(cachedData(pageKey(0))).toEqual(['Ada', 'Grace']);
  });
});

describe('invalidate: this endpoint’s data changed', () => {
  it('reads the reads on screen again and drops the others; other endpoints and params stay', async () => {
    const members = fakeServer(['Ada']);
    const member = fakeServer('Ada');
    await loadQuery(pageKey(0), members.fetcher);
    await loadQuery(pageKey(1), members.fetcher);
    await loadQuery(memberKey(1), member.fetcher);
    const shown = renderHook(() => useRead(pageKey(0), members.fetcher, ['Ada']), { wrapper });
    members.server.now = ['Ada', 'Grace'];
    await act(() => invalidate(gymApi.listMembers));
    expect(shown.result.current.data).toEqual(['Ada', 'Grace']);
    expect(cachedData(pageKey(1))).toBeUndefined(); // the next loader fetches it
    expect(cachedData(memberKey(1))).toBe('Ada');
  });

  it('can name some of the reads by their params or query', async () => {
    const { fetcher } = fakeServer('x');
    await Promise.all([loadQuery(memberKey(1), fetcher), loadQuery(memberKey(2), fetcher), loadQuery(pageKey(0), fetcher), loadQuery(pageKey(1), fetcher)]);
    await invalidate(gymApi.getMember, { params: { id: 2 } });
    await invalidate(gymApi.listMembers, { query: { page: 1 } });
    expect([memberKey(1), memberKey(2), pageKey(0), pageKey(1)].map(cachedData)).toEqual(['x', undefined, 'x', undefined]);
  });

  it('after a delete (`gone`), the page still showing it does not read it again', async () => {
    const { fetcher } = fakeServer('Ada');
    const loaded = await loadQuery(memberKey(1), fetcher);
    jest.useFakeTimers();
    renderHook(() => useRead(memberKey(1), fetcher, loaded), { wrapper });
    await act(() => invalidate(gymApi.getMember, { params: { id: 1 } }, { gone: true }));
    await act(() => jest.advanceTimersByTimeAsync(5000)); // past SWR's dedupe and the first revalidation's frame
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(cachedData(memberKey(1))).toBeUndefined();
  });

  it('keeps an answer that left before the change out of the cache', async () => {
    const { server, fetcher, hold, release } = fakeServer(['Ada']);
    hold();
    const loaded = loadQuery(pageKey(0), fetcher);
    server.now = ['Ada', 'Grace'];
    await invalidate(gymApi.listMembers);
    await release();
    await loaded;
    expect(cachedData(pageKey(0))).toBeUndefined();
    await expect(loadQuery(pageKey(0), fetcher)).resolves.toEqual(['Ada', 'Grace']);
  });
});
