import { minutesOfTime, WEEKDAYS, type StallAvailability, type WeeklyHours } from '../../contracts/stall-hours.contract';
import type { Stall } from '../../contracts/pt.contract';
import { addDays } from '../../lib/time-zone';

/**
 * Whether a stall is open at an instant, by its status and its weekly hours in the venue's zone
 * (decision 0107). Wall-clock times become instants through the zone database (Node's Intl), so a
 * day the clocks change is still read by its clock: a span that opens in the hour skipped in spring
 * opens when the clock reaches it (the hour after), one in the hour repeated in autumn the first time.
 */

const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's wall clock at an instant: its day, weekday (0 Monday) and the instant the clock reads as if it were UTC. */
function wallClock(instant: number, timeZone: string): { day: string; weekday: number; wallMs: number } {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, format);
  }
  const p: Record<string, string> = {};
  for (const part of format.formatToParts(instant)) p[part.type] = part.value;
  const day = `${p.year}-${p.month}-${p.day}`;
  return { day, weekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(p.weekday!), wallMs: Date.parse(`${day}T00:00:00Z`) + (Number(p.hour) * 60 + Number(p.minute)) * 60_000 };
}

/** The zone's offset from UTC at an instant, in ms (whole minutes). */
const offsetAt = (instant: number, timeZone: string) => wallClock(instant, timeZone).wallMs - (instant - (((instant % 60_000) + 60_000) % 60_000));

/**
 * The instant the zone's clock reads `minute` minutes after the midnight of `day`. Of the offsets
 * around it, the one whose instant reads that time; the earlier when two do (autumn's repeated hour);
 * when none does (spring's skipped hour), the offset from before the change, which lands as far past
 * the change as the time was past the skipped hour's start.
 */
export function zonedInstant(day: string, minute: number, timeZone: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`) + minute * 60_000;
  const before = offsetAt(wall - DAY_MS / 2, timeZone);
  const after = offsetAt(wall + DAY_MS / 2, timeZone);
  const candidates = [wall - before, wall - after].filter((instant) => wallClock(instant, timeZone).wallMs === wall).sort((a, b) => a - b);
  return candidates[0] ?? wall - before;
}

/** The stretches a stall is open by its hours from the day before `now`'s to a week after, merged where one ends as the next begins. */
function openStretches(hours: WeeklyHours, now: number, timeZone: string): Array<[number, number]> {
  const today = wallClock(now, timeZone);
  const stretches: Array<[number, number]> = [];
  for (let k = -1; k <= 7; k++) {
    const day = addDays(today.day, k);
    const spans = hours[WEEKDAYS[(((today.weekday + k) % 7) + 7) % 7]!];
    for (const span of spans) {
      const closes = minutesOfTime(span.closes);
      stretches.push([zonedInstant(day, minutesOfTime(span.opens), timeZone), closes === 1440 ? zonedInstant(addDays(day, 1), 0, timeZone) : zonedInstant(day, closes, timeZone)]);
    }
  }
  stretches.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of stretches) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else if (end > start) merged.push([start, end]);
  }
  return merged;
}

/** Whether diners can order from the stall at `now` (ms), and when that next changes by its hours. */
export function stallAvailability(stall: Pick<Stall, 'status' | 'hours'>, now: number, timeZone: string): StallAvailability {
  if (stall.status === 'paused') return { state: 'paused', opensAt: null, closesAt: null };
  if (!stall.hours) return { state: 'open', opensAt: null, closesAt: null };
  const stretches = openStretches(stall.hours, now, timeZone);
  const current = stretches.find(([start, end]) => start <= now && now < end);
  if (current) return { state: 'open', opensAt: null, closesAt: new Date(current[1]).toISOString() };
  const next = stretches.find(([start]) => start > now);
  return { state: 'closed', opensAt: next ? new Date(next[0]).toISOString() : null, closesAt: null };
}
