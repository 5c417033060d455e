import * as v from 'valibot';

/**
 * A stall's weekly opening hours, in the venue's time zone (`VENUE_TIME_ZONE`): for each weekday,
 * Monday first, the spans it is open ("11:30"–"14:30"), none for a day it is closed. A span ends on
 * its own day: a stall open past midnight closes at "24:00" and opens again at "00:00" the next day
 * (the two read as one stretch). No hours at all (null) is a stall open whenever it is not paused.
 * Decision 0107.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<Weekday, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };

export const MAX_SPANS_PER_DAY = 4;
const TIME = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** Minutes after the day's midnight of "HH:MM" ("24:00" is 1440). */
export const minutesOfTime = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const TimeSchema = (what: 'opens' | 'closes') =>
  v.pipe(v.string(`Enter the time it ${what}, such as 11:30`), v.regex(TIME, `Enter the time it ${what} as hours and minutes, such as 11:30${what === 'closes' ? ' (24:00 for midnight)' : ''}`));

export const HoursSpanSchema = v.pipe(
  v.object({ opens: TimeSchema('opens'), closes: TimeSchema('closes') }),
  v.forward(
    // Said only of two well-written times (a badly written one has its own message).
    v.check((span) => !TIME.test(span.opens) || !TIME.test(span.closes) || minutesOfTime(span.closes) > minutesOfTime(span.opens), 'It must close after it opens. Open past midnight? Close at 24:00 and open at 00:00 the next day'),
    ['closes'],
  ),
);
export type HoursSpan = v.InferOutput<typeof HoursSpanSchema>;

/** Two spans of a day overlap: one opens before the other closes (one that opens as another closes does not). */
const noOverlap = (spans: HoursSpan[]) => {
  const sorted = [...spans].sort((a, b) => minutesOfTime(a.opens) - minutesOfTime(b.opens));
  return sorted.every((span, i) => i === 0 || minutesOfTime(span.opens) >= minutesOfTime(sorted[i - 1]!.closes));
};

const DaySchema = v.pipe(
  v.array(HoursSpanSchema, 'Expected a list of opening times'),
  v.maxLength(MAX_SPANS_PER_DAY, `At most ${MAX_SPANS_PER_DAY} opening times a day`),
  v.check(noOverlap, 'Opening times on one day must not overlap'),
);

export const WeeklyHoursSchema = v.object(
  { mon: DaySchema, tue: DaySchema, wed: DaySchema, thu: DaySchema, fri: DaySchema, sat: DaySchema, sun: DaySchema },
  'Expected opening hours for each day, Monday to Sunday',
);
export type WeeklyHours = v.InferOutput<typeof WeeklyHoursSchema>;

/**
 * Whether diners can order from a stall now: `open`, `closed` by its hours (`opensAt`: when it next
 * opens, null when no hours lie ahead) or `paused` by staff. `closesAt`: when an open stall with
 * hours next closes (null without hours). Instants (ISO) the menu reads again at.
 */
export const STALL_AVAILABILITIES = ['open', 'closed', 'paused'] as const;
export const StallAvailabilitySchema = v.object({
  state: v.picklist(STALL_AVAILABILITIES),
  opensAt: v.nullable(v.string()),
  closesAt: v.nullable(v.string()),
});
export type StallAvailability = v.InferOutput<typeof StallAvailabilitySchema>;

const formats = new Map<string, Intl.DateTimeFormat>();
function partsAt(instant: Date | number | string, timeZone: string): Record<string, string> {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(instant))) parts[part.type] = part.value;
  return parts;
}

/** When a closed stall opens, as the venue's clock says it: "11:30" later today, else "Tue 11:30". */
export function opensWords(opensAt: string, now: Date | number, timeZone: string): string {
  const at = partsAt(opensAt, timeZone);
  const today = partsAt(now, timeZone);
  const sameDay = at.year === today.year && at.month === today.month && at.day === today.day;
  return `${sameDay ? '' : `${at.weekday} `}${at.hour}:${at.minute}`;
}

/** What a diner reads of a stall that is not taking orders ("Closed now · opens Tue 11:30", "Paused"); undefined when it is open. */
export function availabilityWords(availability: StallAvailability, now: Date | number, timeZone: string): string | undefined {
  if (availability.state === 'paused') return 'Paused';
  if (availability.state === 'open') return undefined;
  return availability.opensAt ? `Closed now · opens ${opensWords(availability.opensAt, now, timeZone)}` : 'Closed now';
}
