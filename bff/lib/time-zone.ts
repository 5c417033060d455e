/**
 * Calendar days and wall-clock hours of a time zone (an IANA name such as `Europe/Lisbon`), from
 * the zone database Node's Intl carries. SQLite has no zone database and PostgreSQL's differs by
 * install, so the BFF reads UTC instants and asks this one place what day and hour they were at
 * the venue: both engines then answer the same, and a day that is 23 or 25 hours long (the clocks
 * changing) is still one day.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    // h23, not the locale's default: an hour is 0–23 (some locales write midnight as 24).
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, format);
  }
  return format;
}

/** The canonical name of `timeZone` (`utc` → `UTC`), or undefined when Intl does not know it. */
export function canonicalTimeZone(timeZone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The zone's calendar day (YYYY-MM-DD) and wall-clock hour (0–23) at an instant. */
export function zonedDayAndHour(instant: Date | number, timeZone: string): { day: string; hour: number } {
  const parts: Record<string, string> = {};
  for (const part of formatFor(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/** The zone's calendar day at an instant (its "today" for `Date.now()`). */
export const zonedDay = (instant: Date | number, timeZone: string): string => zonedDayAndHour(instant, timeZone).day;

/** `day` (YYYY-MM-DD) moved by whole calendar days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to`, both counted (1 for the same day). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

/**
 * The first instant of `day` in the zone: its local midnight, or the first minute after it when the
 * clocks skip midnight (a few zones change there). Found by halving a window of ±18 hours around
 * the day's UTC midnight (every zone's offset is inside ±14 h) down to the minute: no offset
 * arithmetic to get wrong on the days the offset changes.
 */
export function zonedDayStart(day: string, timeZone: string): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  let before = utcMidnight - 18 * 3_600_000; // still the day before, in any zone
  let after = utcMidnight + 18 * 3_600_000; // already `day` (or later), in any zone
  while (after - before > 60_000) {
    const mid = before + Math.floor((after - before) / 120_000) * 60_000;
    if (zonedDay(mid, timeZone) >= day) after = mid;
    else before = mid;
  }
  return new Date(after);
}
