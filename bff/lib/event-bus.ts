import type { LiveEvent, LiveEventType } from '../contracts/events.contract';

type Listener = (event: LiveEvent) => void;

/**
 * Inside a write: records a live event that announces it. The event is stored in the write's own
 * transaction and sent once that commits; a write that fails or rolls back announces nothing.
 */
export type Announce = (type: LiveEventType, data: unknown) => void;

/** Runs `work` in one transaction, with what it needs bound to that transaction (repositories, the feature's `announce`). */
export type InTransaction<Tx> = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;

/** What the bus needs of the live-event log (`live_events`), which every instance shares. */
export interface EventLog<Tx> {
  /** Runs `work` in one transaction on the database that holds the log. */
  transaction: InTransaction<Tx>;
  /**
   * Inside `tx`: stores one event (its data as JSON text) and answers its id. The log's lock is taken
   * before the id is drawn and held until `tx` ends, so ids commit in order: a reader that has seen
   * id N never later finds a smaller one, and every id below a committed one has ended (committed or
   * rolled back).
   */
  append: (tx: Tx, type: LiveEventType, json: string) => Promise<number>;
  /** Stored events after `id`, below `before` when given, oldest first. */
  after: (id: number, limit: number, before?: number) => Promise<LiveEvent[]>;
  /** The newest stored id, 0 when there is none. */
  lastId: () => Promise<number>;
  /**
   * Calls `onNews(id)` when an event commits on any instance (this one too; `id` the newest it
   * committed), and `onNews()` after a lost connection to the log is back (anything appended
   * meanwhile is then read). Absent with one instance (SQLite).
   */
  watch?: (onNews: (id?: number) => void) => () => Promise<void>;
}

const BATCH = 500;
const RETRY_MS = 1000;

/**
 * The event bus. A feature announces what it writes inside the write's transaction
 * (`bus.write((tx, announce) => …)`): the event is a row of the live-event log stored with the data
 * (an outbox), so a crash leaves both or neither. Once the transaction commits, this instance hands
 * the event it already holds to its SSE streams, in id order, without reading it back; other
 * instances hear of it by notification and read it from the log. A notification only says "there is
 * news"; the rows are the truth, so a missed one costs a delay, never an event. A listener that
 * throws is reported and does not stop the others.
 */
export class EventBus<Tx = unknown> {
  private readonly listeners = new Set<Listener>();
  /** Every event up to this id has been handed out, or was never committed. */
  private lastDelivered = 0;
  private started: Promise<void> | undefined;
  /** This instance's committed events, waiting for those before them. */
  private readonly committed = new Map<number, LiveEvent>();
  /** Ids this instance appended whose transactions have not ended here yet (counted: SQLite gives a rolled-back id again). */
  private readonly uncommitted = new Map<number, number>();
  /** Another instance committed events this one has not read. */
  private news = false;
  private delivering: Promise<void> | undefined;
  private again = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly stopWatching?: () => Promise<void>;

  constructor(
    private readonly log: EventLog<Tx>,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.stopWatching = log.watch?.((id) => this.heard(id));
  }

  /**
   * Runs `work` in one transaction; the events it announces are appended to the log in that same
   * transaction, after the work (so the log's lock is held only from there to the commit), and are
   * sent once it commits. Answers what the work answered, without waiting for the sending.
   */
  async write<T>(work: (tx: Tx, announce: Announce) => Promise<T>): Promise<T> {
    return (await this.writeWithEvents(work)).result;
  }

  /** Stores and sends one event that announces no other write. */
  async publish<T>(type: LiveEventType, data: T): Promise<LiveEvent<T>> {
    const { events } = await this.writeWithEvents(async (_tx, announce) => announce(type, data));
    return events[0] as LiveEvent<T>;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The id of the last event handed out (live starts here if it had not): every later one reaches a listener subscribed now. */
  async handedOut(): Promise<number> {
    await this.start();
    return this.lastDelivered;
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Resolves once the events of every write that has ended here were handed out (or their delivery failed and waits for a retry). */
  async idle(): Promise<void> {
    while (this.delivering) await this.delivering;
  }

  async close(): Promise<void> {
    clearTimeout(this.retry);
    await this.stopWatching?.();
  }

  private async writeWithEvents<T>(work: (tx: Tx, announce: Announce) => Promise<T>): Promise<{ result: T; events: LiveEvent[] }> {
    // Live starts when this instance first writes or hears: older events are for Last-Event-ID replays only.
    await this.start();
    const appended: LiveEvent[] = [];
    let result: T;
    try {
      result = await this.log.transaction(async (tx) => {
        const announced: Array<{ type: LiveEventType; data: unknown }> = [];
        let open = true;
        const value = await work(tx, (type, data) => {
          if (!open) throw new Error('A live event was announced after its write ended.');
          announced.push({ type, data });
        });
        open = false;
        for (const { type, data } of announced) {
          const id = await this.log.append(tx, type, JSON.stringify(data));
          this.uncommitted.set(id, (this.uncommitted.get(id) ?? 0) + 1);
          appended.push({ id: String(id), type, data });
        }
        return value;
      });
    } catch (err) {
      this.settle(appended, false);
      throw err;
    }
    this.settle(appended, true);
    return { result, events: appended };
  }

  /** The transaction of `events` ended: committed ones join the queue; either way, a delivery waiting on them may go on. */
  private settle(events: LiveEvent[], committed: boolean): void {
    for (const event of events) {
      const id = Number(event.id);
      const count = this.uncommitted.get(id) ?? 0;
      if (count > 1) this.uncommitted.set(id, count - 1);
      else this.uncommitted.delete(id);
      if (committed && id > this.lastDelivered) this.committed.set(id, event);
    }
    if (events.length > 0) void this.deliver();
  }

  /** A notification: news unless it names an event of this instance, which is on its way already. */
  private heard(id?: number): void {
    if (id !== undefined && (id <= this.lastDelivered || this.uncommitted.has(id) || this.committed.has(id))) return;
    this.news = true;
    void this.deliver();
  }

  private start(): Promise<void> {
    this.started ??= this.log.lastId().then(
      (id) => void (this.lastDelivered = id),
      (err: unknown) => {
        this.started = undefined; // try again on the next write
        throw err;
      },
    );
    return this.started;
  }

  /** Hands out what is due; calls that come meanwhile join the same run. */
  private deliver(): Promise<void> {
    this.again = true;
    this.delivering ??= (async () => {
      try {
        // After the turn that committed: the answer to the write leaves first, and the events of one
        // turn go out together (each stream writes them at once).
        await new Promise((resolve) => setImmediate(resolve));
        await this.start();
        while (this.again) {
          this.again = false;
          await this.deliverInOrder();
        }
      } catch (err) {
        this.onError(err);
        // The log could not be read: what is waiting is tried again shortly, not at the next write.
        this.retry ??= setTimeout(() => {
          this.retry = undefined;
          void this.deliver();
        }, RETRY_MS).unref();
      } finally {
        this.delivering = undefined;
      }
    })();
    return this.delivering;
  }

  private async deliverInOrder(): Promise<void> {
    for (;;) {
      // This instance's own events, each right after the one before it: nothing to read.
      for (let next = this.committed.get(this.lastDelivered + 1); next; next = this.committed.get(this.lastDelivered + 1)) {
        this.committed.delete(++this.lastDelivered);
        this.fanOut(next);
      }
      if (this.news) {
        this.news = false;
        await this.readLog(Infinity);
        continue;
      }
      if (this.committed.size === 0) return;
      // A gap before this instance's next event. Every id below it has ended (the log's lock): the
      // gap holds other instances' events not heard of yet, this instance's own whose commit is still
      // on its way here (wait for those), or ids of transactions that rolled back.
      const next = Math.min(...this.committed.keys());
      for (const id of this.uncommitted.keys()) if (id < next) return;
      await this.readLog(next);
      if (this.lastDelivered < next - 1) this.lastDelivered = next - 1;
    }
  }

  /** Reads the log after the last delivered event (up to `before`) and hands out what it finds, in order. */
  private async readLog(before: number): Promise<void> {
    let batch: LiveEvent[];
    do {
      batch = await this.log.after(this.lastDelivered, BATCH, Number.isFinite(before) ? before : undefined);
      for (const stored of batch) {
        const id = Number(stored.id);
        if (id <= this.lastDelivered) continue;
        // An event of this instance whose commit has not reached it yet: the one it holds goes out.
        const own = this.committed.get(id);
        this.committed.delete(id);
        this.lastDelivered = id;
        this.fanOut(own ?? stored);
      }
    } while (batch.length === BATCH);
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
