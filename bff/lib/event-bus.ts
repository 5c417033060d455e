import type { LiveEvent, LiveEventType } from '../contracts/events.contract';

type Listener = (event: LiveEvent) => void;

/** What the bus needs of the live-event log (`live_events`), which every instance shares. */
export interface EventLog {
  /** Stores the event durably (ids grow in commit order) and returns its stream id. */
  append: (type: LiveEventType, data: unknown) => Promise<string>;
  /** Stored events after `id`, oldest first. */
  after: (id: number, limit: number) => Promise<LiveEvent[]>;
  /** The newest stored id, 0 when there is none. */
  lastId: () => Promise<number>;
  /**
   * Calls `onNews` whenever another instance appended, and after a lost connection to the log is
   * back (anything appended meanwhile is then read). Absent with one instance (SQLite).
   */
  watch?: (onNews: () => void) => () => Promise<void>;
}

const BATCH = 500;

/**
 * The event bus: features publish what they stored (`await bus.publish('webhook', event)`), the bus
 * appends it to the live-event log, and every instance's bus reads the log from where it last was
 * and hands each new event, in id order, to its SSE streams. A notification only says "there is
 * news"; the rows are the truth, so a missed notification (a dropped connection) costs a delay,
 * never an event. A listener that throws is reported and does not stop the others.
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();
  private lastDelivered = 0;
  private started: Promise<void> | undefined;
  private delivering: Promise<void> | undefined;
  private readAgain = false;
  private readonly stopWatching?: () => Promise<void>;

  constructor(
    private readonly log: EventLog,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.stopWatching = log.watch?.(() => void this.deliver());
  }

  async publish<T>(type: LiveEventType, data: T): Promise<LiveEvent<T>> {
    await this.start();
    const id = await this.log.append(type, data);
    await this.deliver();
    return { id, type, data };
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    await this.stopWatching?.();
  }

  /** Live starts now: what was stored before this instance started is for Last-Event-ID replays only. */
  private start(): Promise<void> {
    this.started ??= this.log.lastId().then(
      (id) => void (this.lastDelivered = id),
      (err: unknown) => {
        this.started = undefined; // try again on the next event
        throw err;
      },
    );
    return this.started;
  }

  /** Reads and fans out everything after the last delivered id; calls that come meanwhile join the same run. */
  private deliver(): Promise<void> {
    this.readAgain = true;
    this.delivering ??= (async () => {
      try {
        // Events published in the same turn go out together: one read of the log, and each stream
        // gets them in one write (it corks for the turn), instead of a read and a write per event.
        await new Promise((resolve) => setImmediate(resolve));
        await this.start();
        while (this.readAgain) {
          this.readAgain = false;
          let batch: LiveEvent[];
          do {
            batch = await this.log.after(this.lastDelivered, BATCH);
            for (const event of batch) {
              this.lastDelivered = Number(event.id);
              this.fanOut(event);
            }
          } while (batch.length === BATCH);
        }
      } catch (err) {
        this.onError(err);
      } finally {
        this.delivering = undefined;
      }
    })();
    return this.delivering;
  }

  private fanOut(event: LiveEvent) {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.onError(err);
      }
    }
  }
}
