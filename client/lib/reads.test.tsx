import { act, render, screen } from '@testing-library/react';
import type { QueryKey } from './api-client';
import { CacheProvider, PRELOAD_FRESH_MS, cachedData, invalidate, load, preloadRead, resetCache, setQueryData, useRead, type Query } from './reads';

/** The cache glue on SWR: how many requests a page's reads cost, and what each shows. */
const ENDPOINT = { method: 'GET', path: '/api/things' } as const;
let answers: string[];
let asked: number;

function thingsRead(id = 1): Query<string> {
  return {
    key: [`GET ${ENDPOINT.path}`, { params: {}, query: { id: String(id) } }] as QueryKey,
    fetcher: async () => {
      asked++;
      return answers.shift() ?? 'no more answers';
    },
  };
}

function Shown({ read, loaded }: { read: Query<string>; loaded?: string }) {
  const { data } = useRead(read, loaded);
  return <p>{data ?? 'nothing yet'}</p>;
}
const show = (read: Query<string>, loaded?: string) =>
  render(
    <CacheProvider>
      <Shown read={read} loaded={loaded} />
    </CacheProvider>,
  );

beforeEach(() => {
  resetCache();
  answers = [];
  asked = 0;
});
afterEach(() => jest.useRealTimers());

describe('the reads of a page', () => {
  it("a loader's read is the hook's: one request for the navigation", async () => {
    answers = ['first'];
    const read = thingsRead();
    const loaded = await load(read);
    show(read, loaded);
    expect(await screen.findByText('first')).toBeInTheDocument();
    await act(() => Promise.resolve());
    expect(asked).toBe(1);
  });

  it('a hover warms the read: the navigation that follows asks nothing more', async () => {
    answers = ['warmed'];
    const read = thingsRead();
    preloadRead(read);
    expect(await load(read)).toBe('warmed');
    show(read, 'warmed');
    await screen.findByText('warmed');
    expect(asked).toBe(1);
  });

  it('a hover older than 30 s is not what the page shows: the page asks again', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    answers = ['from the hover', 'fresh'];
    const read = thingsRead();
    preloadRead(read);
    await act(() => Promise.resolve());
    jest.advanceTimersByTime(PRELOAD_FRESH_MS + 1);
    show(read, await load(read));
    expect(await screen.findByText('fresh')).toBeInTheDocument();
  });

  it('news for a read is kept, and the preload fetched before it is not shown over it', async () => {
    answers = ['before the news', 'after the news'];
    const read = thingsRead();
    await load(read);
    setQueryData<string>(read.key, 'the news');
    expect(cachedData(read.key)).toBe('the news');
    show(read, 'before the news');
    expect(await screen.findByText('after the news')).toBeInTheDocument();
  });

  it('invalidate reads the shown reads of the endpoint again, and leaves other endpoints alone', async () => {
    answers = ['one', 'two'];
    const read = thingsRead();
    show(read, await load(read));
    await screen.findByText('one');
    await act(() => invalidate(ENDPOINT as never));
    expect(await screen.findByText('two')).toBeInTheDocument();
    await act(() => invalidate({ method: 'GET', path: '/api/other' } as never));
    expect(asked).toBe(2);
  });

  it('a failed read is asked again by the next navigation, not answered from the failure', async () => {
    const read = thingsRead(2);
    let fail = true;
    const flaky: Query<string> = { key: read.key, fetcher: async () => (fail ? Promise.reject(new Error('down')) : 'back') };
    await expect(load({ ...flaky, outage: 'in-page' })).resolves.toEqual({ error: new Error('down') });
    fail = false;
    await expect(load({ ...flaky, outage: 'in-page' })).resolves.toEqual({ data: 'back' });
  });
});
