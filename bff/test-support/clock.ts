/** Every clock API Jest can fake except `Date`: with these left real, timers, ticks and I/O run as ever. */
const ALL_BUT_DATE = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

/**
 * Stops the wall clock (`Date`, and so `Date.now()`) at `at` for the rest of the test: what the app
 * stamps or measures by the time of day reads the test's clock, which moves only when the test says.
 * Timers stay real. Undo with `jest.useRealTimers()` (an afterEach). Stop it before creating the
 * app: code that kept `Date.now` itself (a `now = Date.now` default) keeps the clock it was given.
 */
export function stopWallClock(at: number = Date.now()) {
  jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: at });
  return {
    /** Moves the wall clock on by `ms`. */
    advance: (ms: number) => jest.setSystemTime(Date.now() + ms),
  };
}

/**
 * Fakes the timers (`setTimeout`, `setInterval`, `Date`) but not the event loop's own turns
 * (`nextTick`, `setImmediate`, microtasks), so real sockets and the database still answer; the
 * test moves time with `jest.advanceTimersByTimeAsync`. Undo with `jest.useRealTimers()`.
 */
export function fakeTimersBesideIo() {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
}

export const DAY_MS = 86_400_000;

/** The instant `days` days before now, as the database stores times (UTC ISO-8601). */
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
