import { MIN_RECENT_TICKETS, orderWait, waitEstimate } from './wait-estimate';

describe('waitEstimate', () => {
  it('says nothing with fewer than the minimum of recent tickets, and tells how many there were', () => {
    expect(waitEstimate({ prepMinutes: [], ahead: 0 })).toEqual({ minutes: null, recentTickets: 0, ticketsAhead: 0 });
    expect(waitEstimate({ prepMinutes: Array(MIN_RECENT_TICKETS - 1).fill(10), ahead: 3 })).toEqual({ minutes: null, recentTickets: 4, ticketsAhead: 3 });
  });

  it('gives the middle half of the recent times, in whole 5 minutes', () => {
    // Quartiles of 8, 10, 12, 14, 16 are 10 and 14: rounded, 10–15.
    expect(waitEstimate({ prepMinutes: [14, 8, 16, 10, 12], ahead: 0 })).toEqual({ minutes: { low: 10, high: 15 }, recentTickets: 5, ticketsAhead: 0 });
  });

  it('is not thrown by one ticket bumped far too late', () => {
    expect(waitEstimate({ prepMinutes: [8, 10, 12, 14, 16, 90], ahead: 0 }).minutes).toEqual({ low: 10, high: 15 });
  });

  it('never says less than 5 minutes, and always a range', () => {
    expect(waitEstimate({ prepMinutes: [1, 1, 2, 2, 2], ahead: 0 }).minutes).toEqual({ low: 5, high: 10 });
    expect(waitEstimate({ prepMinutes: [20, 20, 20, 20, 20], ahead: 0 }).minutes).toEqual({ low: 20, high: 25 });
  });

  it('adds the queue ahead beyond the usual one, at the pace the kitchen has shown', () => {
    // 6 tickets of 10 minutes in the hour: it usually held 1 at a time, finished one every 10 minutes.
    const recent = [10, 10, 10, 10, 10, 10];
    expect(waitEstimate({ prepMinutes: recent, ahead: 1 }).minutes).toEqual({ low: 10, high: 15 });
    expect(waitEstimate({ prepMinutes: recent, ahead: 3 }).minutes).toEqual({ low: 30, high: 35 });
    // A busy kitchen (30 tickets of 10 minutes: 5 at once, one every 2 minutes): 5 ahead is its usual, 10 ahead adds 10 minutes.
    const busy = Array(30).fill(10);
    expect(waitEstimate({ prepMinutes: busy, ahead: 5 }).minutes).toEqual({ low: 10, high: 15 });
    expect(waitEstimate({ prepMinutes: busy, ahead: 10 }).minutes).toEqual({ low: 20, high: 25 });
  });
});

describe('orderWait', () => {
  const known = (low: number, high: number) => ({ minutes: { low, high }, recentTickets: 9, ticketsAhead: 0 });
  it('is the slowest stall, or unknown when any stall is unknown', () => {
    expect(orderWait([known(10, 15), known(20, 25), known(5, 30)])).toEqual({ low: 20, high: 30 });
    expect(orderWait([known(10, 15), { minutes: null, recentTickets: 2, ticketsAhead: 0 }])).toBeNull();
    expect(orderWait([])).toBeNull();
  });
});
