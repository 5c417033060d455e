import { act, renderHook } from '@testing-library/react';
import { ApiError } from './api-client';
import { RETRY_DELAYS_MS } from './live-events';
import { useResourceStream, type ResourceStreamOptions } from './resource-stream';

/** Just enough of EventSource: the hook's side of it, driven by the test. */
class FakeSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static all: FakeSource[] = [];
  readyState = FakeSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readonly listeners = new Map<string, (message: MessageEvent<string>) => void>();
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    FakeSource.all.push(this);
  }
  addEventListener(type: string, listener: (message: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.readyState = FakeSource.CLOSED;
  }
  open() {
    this.readyState = FakeSource.OPEN;
    this.onopen?.();
  }
  send(type: string, data: string) {
    this.listeners.get(type)?.(new MessageEvent(type, { data }));
  }
  fail({ refused }: { refused: boolean }) {
    this.readyState = refused ? FakeSource.CLOSED : FakeSource.CONNECTING;
    this.onerror?.();
  }
}
const latest = () => FakeSource.all.at(-1)!;

const original = (globalThis as { EventSource?: unknown }).EventSource;
beforeEach(() => {
  FakeSource.all = [];
  (globalThis as { EventSource?: unknown }).EventSource = FakeSource;
});
afterEach(() => {
  (globalThis as { EventSource?: unknown }).EventSource = original;
  jest.useRealTimers();
});

function follow(overrides: Partial<ResourceStreamOptions> = {}) {
  const options = { url: '/api/things/1/stream', eventName: 'thing', onMessage: jest.fn(), onOpen: jest.fn(), whenRefused: jest.fn(async () => undefined), ...overrides };
  const hook = renderHook((props: ResourceStreamOptions) => useResourceStream(props), { initialProps: options });
  return { ...hook, options };
}

describe('useResourceStream', () => {
  it('opens the stream, says so, and hands over each message’s JSON (skipping anything else)', () => {
    const { result, options } = follow();
    expect(result.current).toEqual({ state: 'connecting', gone: false });
    expect(latest().url).toBe('/api/things/1/stream');
    expect(latest().init).toBeUndefined();

    act(() => latest().open());
    expect(result.current.state).toBe('open');
    expect(options.onOpen).toHaveBeenCalledTimes(1);

    act(() => latest().send('thing', '{"id":1}'));
    act(() => latest().send('thing', 'not json'));
    expect(options.onMessage).toHaveBeenCalledTimes(1);
    expect(options.onMessage).toHaveBeenCalledWith({ id: 1 });
  });

  it('sends cookies when asked to', () => {
    follow({ withCredentials: true });
    expect(latest().init).toEqual({ withCredentials: true });
  });

  it('leaves a dropped connection to the browser, and reads again when it is back', () => {
    const { result, options } = follow();
    act(() => latest().open());
    act(() => latest().fail({ refused: false }));
    expect(result.current.state).toBe('reconnecting');
    expect(options.whenRefused).not.toHaveBeenCalled();
    act(() => latest().open());
    expect(result.current.state).toBe('open');
    expect(options.onOpen).toHaveBeenCalledTimes(2);
    expect(FakeSource.all).toHaveLength(1);
  });

  it('asks once when refused: a 404 means gone, and the stream stays closed', async () => {
    const whenRefused = jest.fn(async () => {
      throw new ApiError(404, '', '/api/things/1');
    });
    const { result } = follow({ whenRefused });
    await act(async () => latest().fail({ refused: true }));
    expect(whenRefused).toHaveBeenCalledTimes(1);
    expect(result.current).toEqual({ state: 'closed', gone: true });
    expect(FakeSource.all).toHaveLength(1);
  });

  it('tries a refused stream again later, each wait longer, then every 30 s for as long as it is refused (a 503 while the database is away)', async () => {
    jest.useFakeTimers();
    const whenRefused = jest.fn(async () => {
      throw new ApiError(503, '', '/api/things/1');
    });
    const { result } = follow({ whenRefused });
    for (const delay of RETRY_DELAYS_MS) {
      await act(async () => latest().fail({ refused: true }));
      expect(result.current).toEqual({ state: 'reconnecting', gone: false });
      const opened = FakeSource.all.length;
      act(() => jest.advanceTimersByTime(delay - 1));
      expect(FakeSource.all).toHaveLength(opened);
      act(() => jest.advanceTimersByTime(1));
      expect(FakeSource.all).toHaveLength(opened + 1);
    }
    for (let more = 0; more < 2; more++) {
      await act(async () => latest().fail({ refused: true }));
      expect(result.current).toEqual({ state: 'reconnecting', gone: false });
      const opened = FakeSource.all.length;
      act(() => jest.advanceTimersByTime(30_000));
      expect(FakeSource.all).toHaveLength(opened + 1);
    }
    expect(whenRefused).toHaveBeenCalledTimes(RETRY_DELAYS_MS.length + 2);
    act(() => latest().open());
    expect(result.current).toEqual({ state: 'open', gone: false });
  });

  it('stops when unmounted: the stream closes and an answer still on its way is not news', async () => {
    let answer!: () => void;
    let signal: AbortSignal | undefined;
    const whenRefused = jest.fn((s: AbortSignal) => {
      signal = s;
      return new Promise<void>((resolve) => (answer = resolve));
    });
    const { unmount } = follow({ whenRefused });
    act(() => latest().fail({ refused: true }));
    expect(signal?.aborted).toBe(false);
    unmount();
    expect(signal?.aborted).toBe(true);
    await act(async () => answer());
    expect(FakeSource.all).toHaveLength(1);
  });

  it('opens another stream for another URL, closing the first; the latest callbacks are used', () => {
    const { rerender, options } = follow();
    const first = latest();
    const onMessage = jest.fn();
    rerender({ ...options, url: '/api/things/2/stream', onMessage });
    expect(first.readyState).toBe(FakeSource.CLOSED);
    expect(latest().url).toBe('/api/things/2/stream');
    act(() => latest().send('thing', '{"id":2}'));
    expect(onMessage).toHaveBeenCalledWith({ id: 2 });
    expect(options.onMessage).not.toHaveBeenCalled();
  });
});
