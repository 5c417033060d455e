import { act, render, screen, waitFor } from '@testing-library/react';
import { read } from '@contracts/endpoint.contract';
import { ptApi, type Stall } from '@contracts/pt.contract';
import { handle, recordRequests, server } from '@/test-support/test-server';
import { FakeEventSource, fakeEventSourceEachTest, holdRequests } from '@/test-support/test-utils';
import { call } from './api-client';
import { useLiveList, type LiveListOptions } from './live-list';
import { CacheProvider, resetCache } from './reads';

fakeEventSourceEachTest();

const AT = '2025-03-01T09:30:00.000Z';
const stall = (id: number, name = `Stall ${id}`): Stall => ({ id, name, description: null, cuisine: null, status: 'open', hours: null, itemCount: 0, createdAt: AT, updatedAt: AT });
const stallsRead = read(ptApi.listStalls, { query: { page: 0, pageSize: 100 } });
type Stalls = { items: Stall[]; total: number; page: number; pageSize: number };

/** A list of stalls on the fake server, and the page showing it, following `order` events (their data: a stall). */
function setup(options: Omit<LiveListOptions<Stalls, Stall, 'order'>, 'events'> = {}) {
  resetCache();
  const stalls = [stall(1)];
  server.use(handle(ptApi.listStalls, () => ({ items: stalls, total: stalls.length, page: 0, pageSize: 100 })));
  const calls = recordRequests();
  const reads = () => calls.filter((c) => c.path.startsWith('/api/pt/stalls')).length;
  const taken: { take?: (news: Stall) => void } = {};
  function Stalls({ loaded }: { loaded: Stalls }) {
    const list = useLiveList(stallsRead, loaded, { events: ['order'], news: (event) => event.data as Stall, ...options });
    taken.take = list.take;
    return <ul aria-label="Stalls">{list.data.items.map((s) => <li key={s.id}>{s.name}</li>)}</ul>;
  }
  return {
    stalls,
    reads,
    take: (news: Stall) => act(() => taken.take!(news)),
    render: async () => {
      const loaded = await call(ptApi.listStalls, stallsRead.input);
      calls.length = 0;
      render(
        <CacheProvider>
          <Stalls loaded={loaded} />
        </CacheProvider>,
      );
      const stream = FakeEventSource.current();
      act(() => stream.open());
      // The hook's own first read has answered.
      await waitFor(() => expect(reads()).toBe(1));
      await act(async () => {});
      return stream;
    },
  };
}

const names = () => screen.getAllByRole('listitem').map((li) => li.textContent);

describe('useLiveList', () => {
  it('reads the list again for news of a kind it follows, and not for another kind nor news that does not concern it', async () => {
    const page = setup({ concerns: (news) => news.id !== 99 });
    const stream = await page.render();
    page.stalls.push(stall(2));
    act(() => stream.emit('order', stall(2), '1'));
    expect(await screen.findByText('Stall 2')).toBeInTheDocument();
    expect(page.reads()).toBe(2);

    act(() => stream.emit('webhook', stall(3), '2'));
    act(() => stream.emit('order', stall(99), '3'));
    await act(async () => {});
    expect(page.reads()).toBe(2);
  });

  it('reads one at a time: news during a read asks for one more read after it, with everything in it', async () => {
    const page = setup();
    const stream = await page.render();
    const held = holdRequests((method, path) => path === '/api/pt/stalls');
    page.stalls.push(stall(2));
    act(() => stream.emit('order', stall(2), '1'));
    page.stalls.push(stall(3));
    act(() => stream.emit('order', stall(3), '2'));
    act(() => stream.emit('order', stall(3), '3'));
    expect(page.reads()).toBe(2);
    await held.release();
    await waitFor(() => expect(names()).toEqual(['Stall 1', 'Stall 2', 'Stall 3']));
    expect(page.reads()).toBe(3);
  });

  it('with a merge, shows news at once without a read, unless the merge asks for one; a write’s answer is taken the same way', async () => {
    const merge = (list: Stalls, news: Stall) => ({ list: { ...list, items: [...list.items.filter((s) => s.id !== news.id), news] }, readAgain: news.id === 4 });
    const onNews = jest.fn();
    const page = setup({ merge, onNews });
    const stream = await page.render();

    act(() => stream.emit('order', stall(2, 'Noodle Bar'), '1'));
    expect(names()).toEqual(['Stall 1', 'Noodle Bar']);
    expect(onNews).toHaveBeenCalledWith(stall(2, 'Noodle Bar'), expect.objectContaining({ items: [stall(1)] }));
    page.take(stall(1, 'Grill'));
    expect(names()).toEqual(['Noodle Bar', 'Grill']);
    expect(onNews).toHaveBeenCalledTimes(1); // a write's answer is not news from the stream
    await act(async () => {});
    expect(page.reads()).toBe(1);

    page.stalls.push(stall(4), stall(5));
    act(() => stream.emit('order', stall(4), '2'));
    await waitFor(() => expect(names()).toEqual(['Stall 1', 'Stall 4', 'Stall 5']));
    expect(page.reads()).toBe(2);
  });

  it('reads the list again each time the stream opens again: what happened while it was down is not lost', async () => {
    const page = setup({ merge: (list, news) => ({ list: { ...list, items: [...list.items, news] } }) });
    const stream = await page.render();
    act(() => stream.drop());
    page.stalls.push(stall(2)); // its event is never heard
    act(() => stream.open());
    expect(await screen.findByText('Stall 2')).toBeInTheDocument();
    expect(page.reads()).toBe(2);
  });
});
