import { act, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { gymApi } from '@contracts/gym.contract';
import { keyFor, type QueryKey } from './api-client';
import { CacheProvider, loadQuery, useQuery } from './cache';

/**
 * The first page's paint and the reads on it: only a read that asked to wait for the paint renders
 * again when it is done (a second render of every screen right after its first paint was main-thread
 * work a phone's first seconds are short of). The module notes the paint once: these run in order.
 */
const frames = () => act(() => new Promise<void>((done) => setTimeout(done, 100)));

it('a page whose reads do not wait for the paint renders once, not again when the paint is done', async () => {
  const key = keyFor(gymApi.getMember, { params: { id: 1 } });
  const fetcher = async () => 'from the loader';
  // As a page's loader reads it, before the page renders.
  const loaded = await loadQuery(key, fetcher);
  let renders = 0;
  function Page() {
    renders++;
    return createElement('p', null, useQuery(key, fetcher, loaded).data);
  }
  render(createElement(CacheProvider, null, createElement(Page)));
  await frames();
  expect(screen.getByText('from the loader')).toBeInTheDocument();
  expect(renders).toBe(1);
});

it('a read that waits for the first paint is asked once the page has painted, then shows its answer', async () => {
  const asked: QueryKey[] = [];
  function Count() {
    const { data, isLoading } = useQuery(keyFor(gymApi.listOwners), async (key) => (asked.push(key), 'three owners'), undefined, { afterFirstPaint: true });
    return createElement('p', null, isLoading ? 'counting' : data);
  }
  render(createElement(CacheProvider, null, createElement(Count)));
  expect(screen.getByText('counting')).toBeInTheDocument();
  expect(asked).toHaveLength(0);
  expect(await screen.findByText('three owners')).toBeInTheDocument();
  expect(asked).toHaveLength(1);
});
