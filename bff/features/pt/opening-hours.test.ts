import type { WeeklyHours } from '../../contracts/stall-hours.contract';
import { opensWords } from '../../contracts/stall-hours.contract';
import { stallAvailability, zonedInstant } from './opening-hours';

const closedAllWeek: WeeklyHours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const hours = (days: Partial<WeeklyHours>): WeeklyHours => ({ ...closedAllWeek, ...days });
const at = (iso: string) => Date.parse(iso);
const open = (hoursOf: WeeklyHours | null, now: string, zone: string) => stallAvailability({ status: 'open', hours: hoursOf }, at(now), zone);

describe('a stall open by its hours', () => {
  it('is open whenever not paused without hours (as every stall was before hours), and paused whatever its hours', () => {
    expect(open(null, '2026-06-01T03:00:00Z', 'UTC')).toEqual({ state: 'open', opensAt: null, closesAt: null });
    expect(stallAvailability({ status: 'paused', hours: hours({ mon: [{ opens: '00:00', closes: '24:00' }] }) }, at('2026-06-01T03:00:00Z'), 'UTC')).toEqual({ state: 'paused', opensAt: null, closesAt: null });
  });

  it('opens later today, closes at the end of its span, and is closed with nothing ahead when no day has hours', () => {
    const lunch = hours({ mon: [{ opens: '11:30', closes: '14:30' }, { opens: '18:00', closes: '22:00' }] });
    // 2026-06-01 is a Monday.
    expect(open(lunch, '2026-06-01T10:00:00Z', 'UTC')).toEqual({ state: 'closed', opensAt: '2026-06-01T11:30:00.000Z', closesAt: null });
    expect(open(lunch, '2026-06-01T11:30:00Z', 'UTC')).toEqual({ state: 'open', opensAt: null, closesAt: '2026-06-01T14:30:00.000Z' });
    expect(open(lunch, '2026-06-01T14:30:00Z', 'UTC')).toEqual({ state: 'closed', opensAt: '2026-06-01T18:00:00.000Z', closesAt: null });
    // After Monday's last span: next Monday.
    expect(open(lunch, '2026-06-01T22:00:00Z', 'UTC')).toEqual({ state: 'closed', opensAt: '2026-06-08T11:30:00.000Z', closesAt: null });
    expect(open(closedAllWeek, '2026-06-01T12:00:00Z', 'UTC')).toEqual({ state: 'closed', opensAt: null, closesAt: null });
  });

  it("reads the venue's clock and weekday, not UTC's: Monday 03:00 UTC is still Sunday evening in New York", () => {
    const lateSunday = hours({ sun: [{ opens: '18:00', closes: '24:00' }], mon: [{ opens: '00:00', closes: '02:00' }, { opens: '11:30', closes: '14:30' }] });
    // Sunday 23:00 EDT: open, and Sunday's 24:00 and Monday's 00:00 are one stretch, to Monday 02:00 EDT.
    expect(open(lateSunday, '2026-06-01T03:00:00Z', 'America/New_York')).toEqual({ state: 'open', opensAt: null, closesAt: '2026-06-01T06:00:00.000Z' });
    // The same instant in Tokyo is Monday 12:00: open for lunch until 14:30 JST.
    expect(open(lateSunday, '2026-06-01T03:00:00Z', 'Asia/Tokyo')).toEqual({ state: 'open', opensAt: null, closesAt: '2026-06-01T05:30:00.000Z' });
    // In Lisbon (WEST) it is Monday 04:00: closed until 11:30 WEST.
    expect(open(lateSunday, '2026-06-01T03:00:00Z', 'Europe/Lisbon')).toEqual({ state: 'closed', opensAt: '2026-06-01T10:30:00.000Z', closesAt: null });
  });

  it('opens across the week: a Saturday looks ahead to next Friday', () => {
    // 2026-06-06 is a Saturday.
    expect(open(hours({ fri: [{ opens: '09:00', closes: '17:00' }] }), '2026-06-06T12:00:00Z', 'UTC')).toEqual({ state: 'closed', opensAt: '2026-06-12T09:00:00.000Z', closesAt: null });
  });

  it('keeps to the clock on the days it changes (Lisbon: 29 March 2026 skips 01:00–02:00, 25 October repeats 01:00–02:00)', () => {
    // A span that opens in the skipped hour opens an hour later by the clock (02:30 WEST, 01:30 UTC).
    expect(zonedInstant('2026-03-29', 90, 'Europe/Lisbon')).toBe(at('2026-03-29T01:30:00Z'));
    // A span from 00:00 to 03:00 lasts two hours that night.
    const night = hours({ sun: [{ opens: '00:00', closes: '03:00' }] });
    expect(open(night, '2026-03-29T00:30:00Z', 'Europe/Lisbon')).toEqual({ state: 'open', opensAt: null, closesAt: '2026-03-29T02:00:00.000Z' });
    // The day after, 17:00 is WEST (UTC+1).
    expect(open(hours({ mon: [{ opens: '09:00', closes: '17:00' }] }), '2026-03-30T09:00:00Z', 'Europe/Lisbon')).toEqual({ state: 'open', opensAt: null, closesAt: '2026-03-30T16:00:00.000Z' });
    // The repeated hour: a time in it is its first occurrence (01:30 WEST, 00:30 UTC).
    expect(zonedInstant('2026-10-25', 90, 'Europe/Lisbon')).toBe(at('2026-10-25T00:30:00Z'));
    // Saturday 24 October 22:00 WEST; it opens Sunday 09:00 WET (UTC+0 by then).
    expect(open(hours({ sun: [{ opens: '09:00', closes: '12:00' }] }), '2026-10-24T21:00:00Z', 'Europe/Lisbon')).toEqual({ state: 'closed', opensAt: '2026-10-25T09:00:00.000Z', closesAt: null });
    // New York's spring change (8 March 2026, 02:00 → 03:00): Sunday 10:00 is EDT, 14:00 UTC.
    expect(open(hours({ sun: [{ opens: '10:00', closes: '12:00' }] }), '2026-03-08T05:00:00Z', 'America/New_York')).toEqual({ state: 'closed', opensAt: '2026-03-08T14:00:00.000Z', closesAt: null });
  });

  it('says when it opens by the venue clock: the time later today, the weekday and time on another day', () => {
    expect(opensWords('2026-06-01T10:30:00Z', at('2026-06-01T03:00:00Z'), 'Europe/Lisbon')).toBe('11:30');
    expect(opensWords('2026-06-02T10:30:00Z', at('2026-06-01T03:00:00Z'), 'Europe/Lisbon')).toBe('Tue 11:30');
    // 03:00 UTC is still Sunday in New York: Monday's opening is another day there.
    expect(opensWords('2026-06-01T15:30:00Z', at('2026-06-01T03:00:00Z'), 'America/New_York')).toBe('Mon 11:30');
  });
});
