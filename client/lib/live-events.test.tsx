import { act, render, screen } from '@testing-library/react';
import type { LiveEvent, LiveEventType } from '@contracts/events.contract';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, fakePaintTiming } from '@/test-support/test-utils';
import { RETRY_DELAYS_MS, useLiveEvents, useLiveStatus, useWhenLiveOpens } from './live-events';

fakeEventSourceEachTest();
afterEach(() => jest.useRealTimers());

/** A live view as the pages have one: the stream's state (the pages show it as a badge), and what it heard. */
function LiveView({ name, types, heard, onOpen }: { name: string; types: LiveEventType[]; heard: LiveEvent[]; onOpen?: () => void }) {
  useLiveEvents(types, (event) => heard.push(event));
  useWhenLiveOpens(() => onOpen?.());
  const state = useLiveStatus((status) => status.state);
  return (
    <section aria-label={name}>
      <p>{state}</p>
    </section>
  );
}

function threeViews() {
  const heard = { board: [] as LiveEvent[], chat: [] as LiveEvent[], inbox: [] as LiveEvent[] };
  const views = (shown: Array<keyof typeof heard> = ['board', 'chat', 'inbox']) => (
    <>
      {shown.includes('board') ? <LiveView name="board" types={['order']} heard={heard.board} /> : null}
      {shown.includes('chat') ? <LiveView name="chat" types={['chat', 'conversation']} heard={heard.chat} /> : null}
      {shown.includes('inbox') ? <LiveView name="inbox" types={['webhook']} heard={heard.inbox} /> : null}
    </>
  );
  const rendered = render(views());
  return { ...rendered, heard, show: (shown: Array<keyof typeof heard>) => rendered.rerender(views(shown)) };
}

const stateOf = (name: string) => screen.getByRole('region', { name }).textContent;
const ids = (events: LiveEvent[]) => events.map((e) => e.id);
/** The stream closes at the end of the task in which the last view left. */
const endOfTask = () => act(async () => undefined);

describe('the tab’s live stream', () => {
  it('is one EventSource for three live views, each hearing only the kinds it asked for, closed when all three leave', async () => {
    const { heard, unmount } = threeViews();
    expect(FakeEventSource.instances).toHaveLength(1);
    const source = FakeEventSource.current();
    expect(source.url).toBe('/api/events');
    expect(['board', 'chat', 'inbox'].map(stateOf)).toEqual(['connecting', 'connecting', 'connecting']);

    act(() => source.open());
    expect(['board', 'chat', 'inbox'].map(stateOf)).toEqual(['open', 'open', 'open']);
    act(() => {
      source.emit('order', { id: 5 }, '1');
      source.emit('chat', { kind: 'posted' }, '2');
      source.emit('webhook', { id: 7 }, '3');
      source.emit('conversation', { id: 9 }, '4');
    });
    expect(ids(heard.board)).toEqual(['1']);
    expect(ids(heard.chat)).toEqual(['2', '4']);
    expect(ids(heard.inbox)).toEqual(['3']);
    expect(heard.board[0]).toEqual({ id: '1', type: 'order', data: { id: 5 } });

    // A dropped connection: the browser reconnects this same EventSource (with Last-Event-ID).
    act(() => source.drop());
    expect(['board', 'chat', 'inbox'].map(stateOf)).toEqual(['reconnecting', 'reconnecting', 'reconnecting']);
    act(() => source.open());
    expect(FakeEventSource.instances).toHaveLength(1);

    unmount();
    expect(source.readyState).toBe(FakeEventSource.OPEN); // not before the end of the task
    await endOfTask();
    expect(source.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('does not draw a live page again when the stream connects, opens or moves on: only what shows its state does', async () => {
    let pageRenders = 0;
    const heard: LiveEvent[] = [];
    function Page() {
      pageRenders++;
      useLiveEvents(['order'], (event) => heard.push(event));
      useWhenLiveOpens(() => {});
      return <LiveView name="badge" types={[]} heard={[]} />;
    }
    const { unmount } = render(<Page />);
    const source = FakeEventSource.current();
    act(() => source.open());
    act(() => source.emit('order', { id: 1 }, '31'));
    expect(stateOf('badge')).toBe('open');
    expect(ids(heard)).toEqual(['31']);
    expect(pageRenders).toBe(1);
    unmount();
    await endOfTask();
  });

  it('stays open while one view remains; a view that left hears nothing more', async () => {
    const { heard, show } = threeViews();
    const source = FakeEventSource.current();
    act(() => source.open());
    show(['inbox']);
    await endOfTask();
    expect(source.readyState).toBe(FakeEventSource.OPEN);
    act(() => source.emit('order', { id: 6 }, '5'));
    expect(heard.board).toEqual([]);
    expect(stateOf('inbox')).toBe('open');
  });

  it('carries the connection over when one page replaces another (a navigation), and the new page reads again', async () => {
    const opened = jest.fn();
    const orders: LiveEvent[] = [];
    const page = (which: 'inbox' | 'runner') =>
      which === 'inbox' ? <LiveView key="inbox" name="inbox" types={['webhook']} heard={[]} /> : <LiveView key="runner" name="runner" types={['order']} heard={orders} onOpen={opened} />;
    const { rerender } = render(page('inbox'));
    const source = FakeEventSource.current();
    act(() => source.open());

    rerender(page('runner'));
    await endOfTask();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(source.readyState).toBe(FakeEventSource.OPEN);
    expect(stateOf('runner')).toBe('open');
    // It joined a stream that was already open: what it loaded is read again once, as after an open.
    expect(opened).toHaveBeenCalledTimes(1);
    act(() => source.emit('order', { id: 7 }, '6'));
    expect(ids(orders)).toEqual(['6']);
  });

  it('keeps trying a stream refused for long (the database away), says so past the quick retries, and is live again when it opens', () => {
    // Each refusal asks who is signed in (lib/live-events-session.test.tsx): still the same person.
    fakeBff([], { signedIn: true });
    jest.useFakeTimers();
    threeViews();
    act(() => FakeEventSource.current().open());
    expect(stateOf('chat')).toBe('open');
    for (const delay of [...RETRY_DELAYS_MS, 30_000, 30_000]) {
      act(() => FakeEventSource.current().drop({ closed: true }));
      // Never "open" while it cannot connect.
      expect(stateOf('chat')).toBe('reconnecting');
      act(() => jest.advanceTimersByTime(delay));
    }
    expect(FakeEventSource.instances).toHaveLength(RETRY_DELAYS_MS.length + 3);
    act(() => FakeEventSource.current().open());
    expect(stateOf('chat')).toBe('open');
  });

  it('reopens a refused stream itself after the last event it saw, and starts afresh once every view has left', async () => {
    fakeBff([], { signedIn: true });
    jest.useFakeTimers();
    const { unmount } = threeViews();
    const first = FakeEventSource.current();
    act(() => first.open());
    act(() => first.emit('webhook', { id: 1 }, '12'));
    act(() => first.drop({ closed: true }));
    expect(stateOf('chat')).toBe('reconnecting');
    act(() => jest.advanceTimersByTime(RETRY_DELAYS_MS[0]!));
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(FakeEventSource.current().url).toBe('/api/events?lastEventId=12');

    unmount();
    await endOfTask();
    expect(FakeEventSource.current).toThrow('No open EventSource');
    render(<LiveView name="later" types={['webhook']} heard={[]} />);
    expect(FakeEventSource.instances).toHaveLength(3);
    expect(FakeEventSource.current().url).toBe('/api/events'); // a new view shows what happens from now on
  });

  it('on the app’s first page, opens once that page has painted (or is hidden), and not at all for a view gone before', async () => {
    jest.useFakeTimers();
    const { paint, unpaint, restore } = fakePaintTiming();
    try {
      const gone = render(<LiveView name="board" types={['order']} heard={[]} />);
      expect(stateOf('board')).toBe('connecting');
      gone.unmount();
      await endOfTask();

      const chat = render(<LiveView name="chat" types={['chat']} heard={[]} />);
      expect(FakeEventSource.instances).toHaveLength(0);
      expect(stateOf('chat')).toBe('connecting');
      paint();
      expect(FakeEventSource.instances).toHaveLength(1);
      act(() => FakeEventSource.current().open());
      expect(stateOf('chat')).toBe('open');
      chat.unmount();
      await endOfTask();

      // A tab sent to the background before it painted paints nothing until shown: it opens at once.
      unpaint();
      render(<LiveView name="board" types={['order']} heard={[]} />);
      expect(FakeEventSource.instances).toHaveLength(1);
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      expect(FakeEventSource.instances).toHaveLength(2);
    } finally {
      restore();
      delete (document as { hidden?: boolean }).hidden;
    }
  });
});
