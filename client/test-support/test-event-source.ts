type MessageListener = (event: MessageEvent<string>) => void;

/**
 * A stand-in for the browser's EventSource (jsdom has none), for tests only: each instance is
 * recorded; the test opens it, sends named events with ids, or drops it, as the server would.
 */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, Set<MessageListener>>();

  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    FakeEventSource.instances.push(this);
  }

  /** The newest stream that is not closed. */
  static current(): FakeEventSource {
    const source = FakeEventSource.instances.filter((s) => s.readyState !== FakeEventSource.CLOSED).at(-1);
    if (!source) throw new Error('No open EventSource');
    return source;
  }

  addEventListener(type: string, listener: MessageListener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }

  removeEventListener(type: string, listener: MessageListener) {
    this.listeners.get(type)?.delete(listener);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.(new Event('open'));
  }

  emit(type: string, data: unknown, id: string) {
    const message = new MessageEvent<string>(type, { data: JSON.stringify(data), lastEventId: id });
    for (const listener of this.listeners.get(type) ?? []) listener(message);
  }

  /** The connection drops; the browser would retry by itself (`closed`: the server refused, no retry). */
  drop({ closed = false }: { closed?: boolean } = {}) {
    this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.onerror?.(new Event('error'));
  }
}
