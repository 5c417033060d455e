import { gymApi, type MemberAttendance } from '@contracts/gym.contract';
import type { KisiEvent } from '@contracts/webhook.contract';
import { Icon } from '@/components/icon';
import { formatLastVisit, formatWhen } from '@/lib/format';
import { useLiveEvents, useWhenLiveReopens } from '@/lib/live-events';
import { invalidate } from '@/lib/reads';
import { isUnlockOf } from '../unlocks.api';

/** A week's Monday (YYYY-MM-DD, the venue's calendar) as "8 Sep": a calendar day, so read in UTC whatever the reader's zone. */
const weekLabel = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const labelOf = (day: string) => weekLabel.format(new Date(`${day}T00:00:00Z`));
const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/**
 * How often the member comes (issue 52): today, this week and the last 12 weeks, each venue day
 * counted once however many doors they opened (the server counts by `VENUE_TIME_ZONE`; weeks start
 * on Monday). The weeks are a small bar chart, written out for screen readers as a list. Read again
 * when one of the member's unlocks arrives on the live stream, and when the stream reopens.
 */
export function MemberAttendanceCard({ member, attendance, now = Date.now() }: { member: { id: number; email: string }; attendance: MemberAttendance; now?: number }) {
  const readAgain = () => void invalidate(gymApi.memberAttendance, { params: { id: member.id } });
  useLiveEvents(['webhook'], (event) => {
    const unlock = event.data as KisiEvent;
    if (isUnlockOf(unlock, member.email) && unlock.success) readAgain();
  });
  useWhenLiveReopens(readAgain);
  const { weeks, cameToday, thisWeek, lastVisitAt, timeZone } = attendance;
  const total = weeks.reduce((sum, w) => sum + w.days, 0);
  const lastToday = cameToday && lastVisitAt ? formatWhen(lastVisitAt) : null;
  return (
    <section className="card stack attendance-card" aria-labelledby="attendance-title" data-testid="attendance">
      <h2 id="attendance-title" className="card-heading">
        <Icon name="activity" /> Attendance
      </h2>
      <dl className="attendance-facts">
        <div>
          <dt>Today</dt>
          <dd data-testid="attendance-today">{cameToday ? 'Came in' : 'Not yet'}</dd>
        </div>
        <div>
          <dt>This week</dt>
          <dd data-testid="attendance-week">{days(thisWeek)}</dd>
        </div>
        <div>
          <dt>12 weeks</dt>
          <dd data-testid="attendance-total">
            {days(total)}
            <span className="muted attendance-average">{(total / weeks.length).toFixed(1)} a week on average</span>
          </dd>
        </div>
      </dl>
      {total === 0 ? (
        <p className="muted" data-testid="attendance-empty">
          No visits in the last 12 weeks{lastVisitAt ? `; last came ${formatLastVisit(lastVisitAt, now)}.` : '. They have never opened a door.'}
        </p>
      ) : (
        <ol className="attendance-chart" aria-label="Days they came, each of the last 12 weeks">
          {weeks.map((week, i) => (
            <li key={week.start} className={i === weeks.length - 1 ? 'attendance-week attendance-this-week' : 'attendance-week'} data-days={week.days}>
              <span className="attendance-count" aria-hidden="true">
                {week.days || ''}
              </span>
              <span className="attendance-bar" style={{ blockSize: `${(week.days / 7) * 5}rem` }} aria-hidden="true" />
              <span className="attendance-label">
                <span className="visually-hidden">{i === weeks.length - 1 ? 'This week, from ' : 'Week of '}</span>
                <span className="attendance-label-text">{labelOf(week.start)}</span>
                <span className="visually-hidden">: {days(week.days)}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
      <p className="muted small">
        {lastToday ? `Last came in ${lastToday}. ` : ''}A day counts once however many doors they open; days by the venue’s clock ({timeZone}), weeks from Monday.
      </p>
    </section>
  );
}
