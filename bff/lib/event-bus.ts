import type { LiveEvent, LiveEventType } from '../contracts/events.contract';

type Listener = (event: LiveEvent) => void;

/**
 * The one in-process event bus: features publish stored records, the SSE stream fans them out.
 * A listener that throws is reported and does not stop the others. (Scale-out would put
 * PostgreSQL LISTEN/NOTIFY behind this same interface.)
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  publish<T>(type: LiveEventType, id: string, data: T): void {
    const event: LiveEvent = { id, type, data };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
