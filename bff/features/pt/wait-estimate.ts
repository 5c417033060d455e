import type { StallWait, WaitRange } from '../../contracts/pt.contract';

/** How far back a stall's preparation times count: long enough for a sample, short enough to follow a rush. */
export const WAIT_WINDOW_MINUTES = 60;
/** Fewer tickets ready in the window than this and the stall's wait is unknown: a guess from two orders is no promise. */
export const MIN_RECENT_TICKETS = 5;
/** The range is said in whole 5 minutes ("about 10–15 min"): finer would claim a precision the kitchen does not have. */
const STEP = 5;

/** What the estimate is made of, for one stall. */
export interface StallLoad {
  /** Minutes from received to ready of the stall's tickets that became ready in the window. */
  prepMinutes: number[];
  /** The stall's tickets not yet ready, of orders still open (the queue a new order joins). */
  ahead: number;
}

/** The `q` quantile of sorted numbers, interpolating between neighbours (so 5 samples still give distinct quartiles). */
function quantile(sorted: number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
}

const toStep = (minutes: number) => Math.round(minutes / STEP) * STEP;

/**
 * A stall's wait for a new order, from its recent preparation times and the queue ahead.
 *
 * The middle half of the recent times (25th–75th percentile) is the range: the median and quartiles
 * are not thrown by one forgotten ticket bumped an hour late, as a mean and deviation would be.
 *
 * Those times were measured from when each order was placed, so they already include the queue the
 * kitchen typically had. By Little's law that typical queue is (tickets per minute) × (minutes each),
 * i.e. n × median / 60. Only the tickets ahead beyond it add time, each at the pace the kitchen has
 * shown: one every 60 / n minutes when it was busy enough for that to be its limit, and never more
 * than one whole median preparation (a kitchen that was mostly idle has not shown its pace, and doing
 * the queue one after the other is the slowest it could reasonably go).
 */
export function waitEstimate({ prepMinutes, ahead }: StallLoad): StallWait {
  const n = prepMinutes.length;
  if (n < MIN_RECENT_TICKETS) return { minutes: null, recentTickets: n, ticketsAhead: ahead };
  const sorted = [...prepMinutes].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const usualQueue = (n * median) / WAIT_WINDOW_MINUTES;
  const perTicket = Math.min(median, WAIT_WINDOW_MINUTES / n);
  const extra = Math.max(0, ahead - usualQueue) * perTicket;
  const low = Math.max(STEP, toStep(quantile(sorted, 0.25) + extra));
  // Always a range, even when the quartiles round together: "about 10–15", never a promised minute.
  const high = Math.max(low + STEP, toStep(quantile(sorted, 0.75) + extra));
  return { minutes: { low, high }, recentTickets: n, ticketsAhead: ahead };
}

/**
 * An order's wait: the slowest of its stalls (the runner brings it once every part is ready); unknown
 * when any of its stalls' waits is, since the known ones would only be a floor.
 */
export function orderWait(stalls: StallWait[]): WaitRange | null {
  if (stalls.length === 0 || stalls.some((s) => s.minutes === null)) return null;
  return { low: Math.max(...stalls.map((s) => s.minutes!.low)), high: Math.max(...stalls.map((s) => s.minutes!.high)) };
}
