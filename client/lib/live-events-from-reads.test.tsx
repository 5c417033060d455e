import { act, render, screen } from '@testing-library/react';
import { LIVE_POSITION_HEADER } from '@contracts/endpoint.contract';
import type { LiveEvent } from '@contracts/events.contract';
import { statusApi } from '@contracts/status.contract';
import { handle, reply, server } from '@/test-support/test-server';
import { FakeEventSource, SERVICE_STATUS, fakeEventSourceEachTest, fakePaintTiming, holdRequests } from '@/test-support/test-utils';
import { call } from './api-client';
import { useLiveEvents, useLiveStatus, useWhenLiveOpens } from './live-events';

// Its own file: the positions the fetch helper has noted are the tab's, from its first read on.
fakeEventSourceEachTest();

function LiveView({ name, heard, onOpen }: { name: string; heard: LiveEvent[]; onOpen: () => void }) {
  useLiveEvents(['order'], (event) => heard.push(event));
  useWhenLiveOpens(onOpen);
  const state = useLiveStatus((status) => status.state);
  return (
    <section aria-label={name}>
      <p>{state}</p>
    </section>
  );
}

const stateOf = (name: string) => screen.getByRole('region', { name }).textContent;
const readAt = (position: string) => handle(statusApi.status, () => reply(SERVICE_STATUS, { headers: { [LIVE_POSITION_HEADER]: position } }));
/** The stream closes at the end of the task in which the last view left. */
const endOfTask = () => act(async () => undefined);

/** The first page, before its first paint: the stream waits for it (fake timers run the paint's frame). */
function onTheFirstPage() {
  jest.useFakeTimers();
  const timing = fakePaintTiming();
  return {
    paint: timing.paint,
    leave: () => {
      timing.restore();
      jest.useRealTimers();
    },
  };
}

describe('the tab’s first live stream', () => {
  it('on the first page, starts where the page’s reads ended and does not read the page again; a reopen or a view joining later still does', async () => {
    server.use(readAt('41'));
    await call(statusApi.status);
    server.use(readAt('44'));
    await call(statusApi.status);

    const firstPage = onTheFirstPage();
    try {
      const boardRead = jest.fn();
      const heard: LiveEvent[] = [];
      const board = render(<LiveView name="board" heard={heard} onOpen={boardRead} />);
      expect(FakeEventSource.instances).toHaveLength(0);
      firstPage.paint();
      const source = FakeEventSource.current();
      // The lowest of the positions: each answer shows everything up to its own.
      expect(source.url).toBe('/api/events?lastEventId=41');
      act(() => source.open());
      expect(stateOf('board')).toBe('open');
      expect(boardRead).not.toHaveBeenCalled();
      act(() => source.emit('order', { id: 7 }, '42'));
      expect(heard.map((e) => e.id)).toEqual(['42']);

      // A view that mounts on the open stream read its data at some other moment: it reads again.
      const laterRead = jest.fn();
      const later = render(<LiveView name="later" heard={[]} onOpen={laterRead} />);
      expect(laterRead).toHaveBeenCalledTimes(1);

      // Events may be lost while it is down: the reopen reads again.
      act(() => source.drop());
      act(() => source.open());
      expect(boardRead).toHaveBeenCalledTimes(1);
      board.unmount();
      later.unmount();
      await endOfTask();
    } finally {
      firstPage.leave();
    }
  });

  it('with a read still on its way, starts from now and the page reads its data again once it is open', async () => {
    const held = holdRequests((method, path) => method === 'GET' && path === '/api');
    server.use(readAt('50'));
    const reading = call(statusApi.status);

    const firstPage = onTheFirstPage();
    const boardRead = jest.fn();
    let board: ReturnType<typeof render>;
    try {
      board = render(<LiveView name="board" heard={[]} onOpen={boardRead} />);
      firstPage.paint();
      const source = FakeEventSource.current();
      expect(source.url).toBe('/api/events');
      act(() => source.open());
      expect(boardRead).toHaveBeenCalledTimes(1);
    } finally {
      firstPage.leave();
    }
    await held.release();
    await reading;
    board.unmount();
    await endOfTask();
  });

  it('on a later page, starts from now and the page reads its data again: the lowest position may be an earlier page’s', async () => {
    server.use(readAt('60'));
    await call(statusApi.status);

    // jsdom has no paint timing: as on a page after the first, the stream opens at once.
    const boardRead = jest.fn();
    const board = render(<LiveView name="board" heard={[]} onOpen={boardRead} />);
    const source = FakeEventSource.current();
    expect(source.url).toBe('/api/events');
    act(() => source.open());
    expect(boardRead).toHaveBeenCalledTimes(1);
    board.unmount();
    await endOfTask();
  });
});
