import { addDays, canonicalTimeZone, daysBetween, zonedDay, zonedDayAndHour, zonedDayStart } from './time-zone';

describe('time zones', () => {
  it('finds the first instant of a day: local midnight, on the days the clocks change too', () => {
    expect(zonedDayStart('2026-03-01', 'UTC').toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(zonedDayStart('2026-07-01', 'Europe/Lisbon').toISOString()).toBe('2026-06-30T23:00:00.000Z'); // summer, UTC+1
    expect(zonedDayStart('2026-07-01', 'Asia/Kolkata').toISOString()).toBe('2026-06-30T18:30:00.000Z'); // a half-hour offset
    expect(zonedDayStart('2026-07-01', 'Pacific/Kiritimati').toISOString()).toBe('2026-06-30T10:00:00.000Z'); // UTC+14
    expect(zonedDayStart('2026-07-01', 'Pacific/Pago_Pago').toISOString()).toBe('2026-07-01T11:00:00.000Z'); // UTC-11
    // New York springs forward at 02:00 on 8 March 2026 and falls back on 1 November: midnights stay midnights.
    expect(zonedDayStart('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(zonedDayStart('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(zonedDayStart('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
    // Havana springs forward at midnight (8 March 2026): the day begins at 01:00 local, 05:00 UTC.
    expect(zonedDayStart('2026-03-08', 'America/Havana').toISOString()).toBe('2026-03-08T05:00:00.000Z');
  });

  it('gives the wall-clock day and hour of an instant: 00–23, a fall-back hour twice', () => {
    expect(zonedDayAndHour(new Date('2026-03-01T23:30:00Z'), 'Europe/Berlin')).toEqual({ day: '2026-03-02', hour: 0 });
    expect(zonedDayAndHour(new Date('2026-03-01T23:30:00Z'), 'UTC')).toEqual({ day: '2026-03-01', hour: 23 });
    // 1 November 2026, New York: 01:xx happens at 05:xx UTC (EDT) and again at 06:xx UTC (EST).
    expect(zonedDayAndHour(new Date('2026-11-01T05:30:00Z'), 'America/New_York')).toEqual({ day: '2026-11-01', hour: 1 });
    expect(zonedDayAndHour(new Date('2026-11-01T06:30:00Z'), 'America/New_York')).toEqual({ day: '2026-11-01', hour: 1 });
    expect(zonedDay(Date.parse('2026-07-01T12:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-07-02');
  });

  it('counts and moves calendar days, and knows a zone by its canonical name', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2026-03-01', '2026-03-01')).toBe(1);
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(31);
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('europe/lisbon')).toBe('Europe/Lisbon');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeUndefined();
  });
});
