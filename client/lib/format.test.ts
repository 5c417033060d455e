import { byInstant, dayKey, endOfTodayLocalInput, formatBytes, formatDay, formatLastVisit, formatTime, isoFromLocalInput, startOfTodayIso } from './format';

/** A local time (the test runner's zone), as the API's UTC ISO text. */
const local = (year: number, month: number, day: number, hours = 12, minutes = 0) => new Date(year, month - 1, day, hours, minutes).toISOString();

describe('days and times', () => {
  it('keys a moment by the reader’s local day, sortable', () => {
    expect(dayKey(local(2025, 3, 1, 0, 5))).toBe('2025-03-01');
    expect(dayKey(local(2025, 3, 1, 23, 55))).toBe('2025-03-01');
    expect(dayKey(new Date(2025, 11, 31, 9))).toBe('2025-12-31');
    expect(dayKey(new Date(2025, 0, 2).getTime())).toBe('2025-01-02');
    expect(dayKey(local(2025, 2, 9)) < dayKey(local(2025, 10, 1))).toBe(true);
  });

  it('says Today and Yesterday by the calendar, not by 24 hours', () => {
    const now = new Date(2025, 2, 10, 0, 30);
    expect(formatDay(local(2025, 3, 10, 0, 1), now)).toBe('Today');
    expect(formatDay(local(2025, 3, 9, 23, 59), now)).toBe('Yesterday');
    expect(formatDay(local(2025, 3, 9, 0, 1), now.getTime())).toBe('Yesterday');
    expect(formatDay(local(2025, 3, 8, 23, 59), now)).not.toMatch(/Today|Yesterday/);
  });

  it('gives an older day its date, with the year only when it is not this one', () => {
    const now = new Date(2025, 5, 15);
    const thisYear = formatDay(local(2025, 3, 1), now);
    const lastYear = formatDay(local(2024, 3, 1), now);
    expect(thisYear).not.toContain('2025');
    expect(lastYear).toContain('2024');
  });

  it('shows the time of day without the date', () => {
    const text = formatTime(local(2025, 3, 1, 9, 30));
    expect(text).toMatch(/9.30|09.30/);
    expect(text).not.toContain('2025');
  });
});

describe('byInstant: things in the order they happened', () => {
  it('sorts UTC timestamps earliest first, whether or not they carry milliseconds', () => {
    const times = ['2026-11-27T20:00:01Z', '2026-11-27T20:00:00.500Z', '2026-11-26T23:59:59.999Z', '2026-11-27T20:00:00Z'];
    expect([...times].sort(byInstant)).toEqual(['2026-11-26T23:59:59.999Z', '2026-11-27T20:00:00Z', '2026-11-27T20:00:00.500Z', '2026-11-27T20:00:01Z']);
    expect(byInstant('2026-11-27T20:00:00Z', '2026-11-27T20:00:00.000Z')).toBe(0);
  });
});

describe('endOfTodayLocalInput: when a day pass ends unless the desk says otherwise', () => {
  it('is 23:59 of the reader’s local day, early or late in it', () => {
    expect(endOfTodayLocalInput(new Date(2026, 10, 27, 0, 1))).toBe('2026-11-27T23:59');
    expect(endOfTodayLocalInput(new Date(2026, 10, 27, 23, 59, 30))).toBe('2026-11-27T23:59');
    expect(endOfTodayLocalInput(new Date(2026, 11, 31, 9).getTime())).toBe('2026-12-31T23:59');
  });

  it('goes to Kisi as the UTC moment of that local minute', () => {
    expect(isoFromLocalInput(endOfTodayLocalInput(new Date(2026, 10, 27, 15)))).toBe(new Date(2026, 10, 27, 23, 59).toISOString());
  });
});

describe('formatLastVisit', () => {
  const now = new Date(2026, 2, 10, 15, 0);
  it('says today and yesterday with the time, then days, weeks and the date, and Never for none', () => {
    expect(formatLastVisit(new Date(2026, 2, 10, 9, 12).toISOString(), now)).toMatch(/^today \S*9.12/);
    expect(formatLastVisit(new Date(2026, 2, 9, 23, 59).toISOString(), now)).toMatch(/^yesterday /);
    expect(formatLastVisit(new Date(2026, 2, 7, 1, 0).toISOString(), now)).toBe('3 days ago');
    expect(formatLastVisit(new Date(2026, 1, 20).toISOString(), now)).toBe('2 weeks ago');
    expect(formatLastVisit(new Date(2025, 11, 1).toISOString(), now)).toMatch(/2025/);
    expect(formatLastVisit(null, now)).toBe('Never');
  });

  it('starts today at the reader’s local midnight', () => {
    expect(startOfTodayIso(now)).toBe(new Date(2026, 2, 10).toISOString());
  });
});

const MB = 1024 * 1024;

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1023 bytes'],
    [1536, '1.5 KB'],
    [312 * MB, '312 MB'],
    [250.44 * MB, '250.4 MB'],
    [1024 * MB, '1 GB'],
    [2.5 * 1024 * MB, '2.5 GB'],
  ])('%d bytes is “%s” (the server’s units)', (bytes, words) => expect(formatBytes(bytes)).toBe(words));
});
