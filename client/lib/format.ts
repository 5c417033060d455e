import { onFirstUse } from './on-first-use';

/** Dates and times in the reader's locale and zone: the app's one way of saying when. */

const when = onFirstUse(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
const whenExact = onFirstUse(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }));
const time = onFirstUse(() => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }));
const date = onFirstUse(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }));
const day = onFirstUse(() => new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' }));
const dayWithYear = onFirstUse(() => new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }));
// A calendar day (no instant): formatted at UTC midnight in UTC, so no reader's zone moves it a day.
const calendarDay = onFirstUse(() => new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }));
const calendarDayWithYear = onFirstUse(() => new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }));
const count = onFirstUse(() => new Intl.NumberFormat());
const oneDecimal = onFirstUse(() => new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }));
const twoDecimals = onFirstUse(() => new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }));

/** A count in the reader's locale: 1234 → "1,234"; at least that many: "1,000+" (a search that stopped counting). */
export const formatCount = (n: number, atLeast = false) => `${count().format(n)}${atLeast ? '+' : ''}`;

const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

/** A size as people read it, in the server's units (1 MB = 1024 KB): "512 bytes", "12.3 KB", "312 MB", "1.25 GB". */
export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < MB) return `${oneDecimal().format(bytes / KB)} KB`;
  if (bytes < GB) return `${oneDecimal().format(bytes / MB)} MB`;
  return `${twoDecimals().format(bytes / GB)} GB`;
}

/** A UTC ISO timestamp in the reader's locale and zone ("1 Mar 2025, 09:30"); '' for none. */
export const formatWhen = (iso: string | null | undefined) => (iso ? when().format(new Date(iso)) : '');
/** The day alone ("1 Mar 2025"), for what a time of day would say nothing about: the day a member joined. */
export const formatDate = (iso: string | null | undefined) => (iso ? date().format(new Date(iso)) : '');
/** The same with seconds, for event feeds where several things happen in one minute. */
export const formatWhenExact = (iso: string | null | undefined) => (iso ? whenExact().format(new Date(iso)) : '');

/** The time of day ("09:30" in the reader's locale), as a message shows it. */
export const formatTime = (iso: string) => time().format(new Date(iso));

/**
 * Earlier first, for sorting by UTC ISO timestamps: compared as the instants they name. Text order
 * (`localeCompare`) builds the browser's collator on first use, a first render's cost on a phone,
 * and puts "…:00.500Z" before "…:00Z".
 */
export const byInstant = (a: string, b: string): number => Date.parse(a) - Date.parse(b);

/** The reader's local calendar day of a moment, as a sortable key ("2025-03-01"): things of one day share a divider. */
export function dayKey(at: string | number | Date): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A day divider's words: "Today", "Yesterday", or the date (with the year when it is not this one). */
export function formatDay(iso: string, now: number | Date = Date.now()): string {
  const today = new Date(now);
  const key = dayKey(iso);
  if (key === dayKey(today)) return 'Today';
  // The calendar's day before, not 24 hours before: a day is 23 or 25 hours long when the clocks change.
  const yesterday = new Date(today);
  yesterday.setDate(today.getDate() - 1);
  if (key === dayKey(yesterday)) return 'Yesterday';
  const date = new Date(iso);
  return (date.getFullYear() === today.getFullYear() ? day() : dayWithYear()).format(date);
}

/** A calendar day (YYYY-MM-DD: the venue's day a pause ends) as "Mon 14 Dec", with the year when it is not this one's. */
export function formatCalendarDay(day: string, now: number | Date = Date.now()): string {
  const date = new Date(`${day}T00:00:00Z`);
  return (day.slice(0, 4) === dayKey(now).slice(0, 4) ? calendarDay() : calendarDayWithYear()).format(date);
}

/** A `datetime-local` input's value (local time, no zone) as ISO-8601; empty is null. */
export const isoFromLocalInput = (local: string): string | null => (local ? new Date(local).toISOString() : null);

/**
 * The last minute of the reader's today ("2025-03-01T23:59") as a `datetime-local` value: a day
 * pass ends tonight, by the desk's clock, unless staff say otherwise.
 */
export const endOfTodayLocalInput = (now: number | Date = Date.now()): string => `${dayKey(now)}T23:59`;

/** The reader's local midnight of today as a UTC ISO instant: "today" is the venue's day (the desk's clock), not UTC's. */
export function startOfTodayIso(now: number | Date = Date.now()): string {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  return midnight.toISOString();
}

/**
 * When someone last came, for a list: "today 09:12", "yesterday 18:40", "3 days ago", "2 weeks ago",
 * then the date; "Never" for none. Days are calendar days of the reader's zone, not 24-hour spans.
 */
export function formatLastVisit(iso: string | null | undefined, now: number | Date = Date.now()): string {
  if (!iso) return 'Never';
  // Both day keys parse as UTC midnights, so their difference is whole days whatever the clocks did.
  const days = Math.round((Date.parse(dayKey(now)) - Date.parse(dayKey(iso))) / 86_400_000);
  if (days <= 0) return `today ${formatTime(iso)}`;
  if (days === 1) return `yesterday ${formatTime(iso)}`;
  if (days < 14) return `${days} days ago`;
  if (days < 60) return `${Math.floor(days / 7)} weeks ago`;
  return formatDate(iso);
}
