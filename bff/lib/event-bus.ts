import type { LiveEvent, LiveEventType } from '../contracts/events.contract';

type Listener = (event: LiveEvent) => void;

/** Stores an event durably and returns its stream id (so clients can resume with Last-Event-ID). */
export type EventRecorder = (type: LiveEventType, data: unknown) => Promise<string>;

/**
 * The one in-process event bus: features publish what they stored (`await bus.publish('webhook',
 * event)`), the bus records it in the live-event log, then fans it out to the SSE streams. A listener
 * that throws is reported and does not stop the others. (Scale-out would put PostgreSQL
 * LISTEN/NOTIFY behind this same interface.)
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly record: EventRecorder,
    private readonly onListenerError: (err: unknown) => void = () => {},
  ) {}

  async publish<T>(type: LiveEventType, data: T): Promise<LiveEvent<T>> {
    const event = { id: await this.record(type, data), type, data };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err);
      }
    }
    return event;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
