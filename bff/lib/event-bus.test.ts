import type { LiveEvent, LiveEventType } from '../contracts/events.contract';
import { EventBus, type EventLog } from './event-bus';

/**
 * A live-event log as PostgreSQL keeps it: ids drawn under the log's lock (held to the end of the
 * transaction, so ids commit in order), an id drawn by a transaction that rolls back never comes
 * again, and other instances append to it too. It counts its reads: this instance's own events must
 * go out without one.
 */
function fakeLog() {
  let nextId = 1;
  const rows: LiveEvent[] = [];
  let lock: Promise<void> = Promise.resolve();
  let onNews: ((id?: number) => void) | undefined;
  const log = {
    reads: 0,
    rows,
    /** A transaction; `afterCommit` runs between the commit and its answer reaching the caller (a slow network). */
    afterCommit: undefined as undefined | (() => Promise<void>),
    /** The next commit fails after the events were appended (their ids are used up). */
    failNextCommit: false,
    transaction: async <T>(work: (tx: LiveEvent[]) => Promise<T>): Promise<T> => {
      const pending: LiveEvent[] = [];
      let release = () => {};
      const held = lock;
      const locked = { taken: false };
      const tx = Object.assign(pending, { take: async () => {
        if (locked.taken) return;
        locked.taken = true;
        lock = new Promise((resolve) => (release = resolve));
        await held;
      } });
      try {
        const result = await work(tx);
        if (log.failNextCommit) {
          log.failNextCommit = false;
          throw new Error('the commit failed');
        }
        rows.push(...pending);
        const slow = log.afterCommit;
        release();
        if (pending.length > 0) onNews?.(Number(pending[pending.length - 1]!.id));
        await slow?.();
        return result;
      } catch (err) {
        release();
        throw err;
      }
    },
    append: async (tx: LiveEvent[], type: LiveEventType, json: string) => {
      await (tx as LiveEvent[] & { take: () => Promise<void> }).take();
      const id = nextId++;
      tx.push({ id: String(id), type, data: JSON.parse(json) as unknown });
      return id;
    },
    after: async (id: number, limit: number, before = Infinity) => {
      log.reads++;
      return rows.filter((row) => Number(row.id) > id && Number(row.id) < before).sort((a, b) => Number(a.id) - Number(b.id)).slice(0, limit);
    },
    lastId: async () => nextId - 1,
    watch: (listener: (id?: number) => void) => {
      onNews = listener;
      return async () => {};
    },
    /** Another instance commits an event; its notification comes when `notify` is called. */
    appendElsewhere: (type: LiveEventType, data: unknown) => {
      const id = nextId++;
      rows.push({ id: String(id), type, data });
      return { id, notify: () => onNews?.(id) };
    },
  };
  return log;
}

const ids = (events: LiveEvent[]) => events.map((e) => Number(e.id));

async function busWith(log: ReturnType<typeof fakeLog>) {
  const bus = new EventBus(log as unknown as EventLog<LiveEvent[]>);
  const heard: LiveEvent[] = [];
  bus.subscribe((event) => heard.push(event));
  return { bus, heard };
}

describe('EventBus', () => {
  it('sends a write’s events after the write answered, in id order, without reading them back', async () => {
    const log = fakeLog();
    const { bus, heard } = await busWith(log);
    const answer = await bus.write(async (_tx, announce) => {
      announce('order', { id: 1 });
      announce('order', { id: 2 });
      return 'stored';
    });
    expect(answer).toBe('stored');
    expect(heard).toEqual([]);
    await bus.idle();
    expect(heard.map((e) => e.data)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(ids(heard)).toEqual(ids(log.rows));
    expect(log.reads).toBe(0);
  });

  it('announces nothing for a write that fails, and the id it drew does not hold up the next', async () => {
    const log = fakeLog();
    const { bus, heard } = await busWith(log);
    await expect(
      bus.write(async (_tx, announce) => {
        announce('chat', { n: 'refused' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    log.failNextCommit = true;
    await expect(bus.publish('chat', { n: 'not committed' })).rejects.toThrow('the commit failed');
    await bus.publish('chat', { n: 1 });
    await bus.idle();
    expect(heard.map((e) => e.data)).toEqual([{ n: 1 }]);
    expect(ids(heard)).toEqual([2]);
  });

  it('hands out another instance’s events that come before one of its own first, reading only those', async () => {
    const log = fakeLog();
    const { bus, heard } = await busWith(log);
    await bus.publish('webhook', { n: 1 });
    await bus.idle();
    // Another instance commits id 2; its notification is slow, so this instance's id 3 comes first.
    const elsewhere = log.appendElsewhere('order', { n: 2 });
    await bus.publish('webhook', { n: 3 });
    await bus.idle();
    expect(heard.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const reads = log.reads;
    // The late notification finds nothing new; this instance's own do not cause a read.
    elsewhere.notify();
    await bus.publish('webhook', { n: 4 });
    await bus.idle();
    expect(heard.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(log.reads).toBe(reads);
  });

  it('keeps id order when the answer of an earlier commit reaches it after a later one’s', async () => {
    const log = fakeLog();
    const { bus, heard } = await busWith(log);
    await bus.publish('chat', { n: 0 });
    await bus.idle();
    let letFirstAnswer = () => {};
    log.afterCommit = () => new Promise<void>((resolve) => (letFirstAnswer = resolve));
    const first = bus.publish('chat', { n: 1 });
    await new Promise((r) => setImmediate(r));
    log.afterCommit = undefined;
    await bus.publish('chat', { n: 2 });
    await bus.idle();
    // Id 2 waits for id 1, whose transaction is over but whose answer has not come: the delivery that ran left it.
    expect(heard.map((e) => e.data)).toEqual([{ n: 0 }]);
    letFirstAnswer();
    await first;
    await bus.idle();
    expect(heard.map((e) => e.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    expect(log.reads).toBe(0);
  });

  it('reads another instance’s events when notified, and never sends one twice', async () => {
    const log = fakeLog();
    const { bus, heard } = await busWith(log);
    await bus.publish('order', { n: 1 });
    const a = log.appendElsewhere('order', { n: 2 });
    const b = log.appendElsewhere('order', { n: 3 });
    a.notify();
    b.notify();
    await bus.idle();
    await bus.publish('order', { n: 4 });
    await bus.idle();
    expect(heard.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(ids(heard)).toEqual([1, 2, 3, 4]);
  });
});
