import { useState, type FormEvent } from 'react';
import * as v from 'valibot';
import type { Stall } from '@contracts/pt.contract';
import { MAX_SPANS_PER_DAY, minutesOfTime, WEEKDAYS, WEEKDAY_NAMES, WeeklyHoursSchema, type HoursSpan, type Weekday, type WeeklyHours } from '@contracts/stall-hours.contract';
import { FormActions } from '@/components/form-fields';
import { useToast } from '@/components/toast-host';
import { errorMessage, isApiError } from '@/lib/api-client';
import { updateStall } from '../pt.api';

/** What a new set of hours starts from: every day 11:00–22:00, for the keeper to change. */
const STARTING_HOURS: WeeklyHours = Object.fromEntries(WEEKDAYS.map((day) => [day, [{ opens: '11:00', closes: '22:00' }]])) as WeeklyHours;

/** The problems of hours by where they are (`mon`, `mon.0.closes`), from the contract's check or the server's 400. */
function problemsOf(error: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  if (isApiError(error) && error.problem?.errors) {
    for (const item of error.problem.errors) {
      const path = item.path.replace(/^body\.hours\.?/, '');
      found[path] = found[path] ?? item.message;
    }
  }
  return found;
}

/**
 * A stall's opening hours, in the venue's time zone: either none (the stall is open whenever it is
 * not paused, as before hours existed) or, for each weekday, its opening times (none: closed that
 * day). A time runs within its day: open past midnight is "until 24:00" and "from 00:00" the next day.
 */
export function StallHoursForm({ stall, timeZone, onDone, onCancel }: { stall: Pick<Stall, 'id' | 'name' | 'hours'>; timeZone: string; onDone: () => void; onCancel: () => void }) {
  const toast = useToast();
  const [weekly, setWeekly] = useState(stall.hours !== null);
  const [days, setDays] = useState<WeeklyHours>(stall.hours ?? STARTING_HOURS);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  const setDay = (day: Weekday, spans: HoursSpan[]) => {
    setDays((all) => ({ ...all, [day]: spans }));
    // A changed day's problems are its own to say again on saving.
    setProblems((all) => Object.fromEntries(Object.entries(all).filter(([path]) => path !== day && !path.startsWith(`${day}.`))));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    let hours: WeeklyHours | null = null;
    if (weekly) {
      const checked = v.safeParse(WeeklyHoursSchema, days);
      if (!checked.success) {
        const found: Record<string, string> = {};
        for (const issue of checked.issues) {
          const path = v.getDotPath(issue) ?? '';
          found[path] = found[path] ?? issue.message;
        }
        setProblems(found);
        setFormError('Some opening times need a change, marked below.');
        return;
      }
      hours = checked.output;
    }
    setPending(true);
    setFormError(undefined);
    try {
      await updateStall({ params: { id: stall.id }, body: { hours } });
      toast.show({ tone: 'success', message: hours ? `${stall.name}'s opening hours are saved: diners see when it opens.` : `${stall.name} has no set hours: it is open whenever it is not paused.` });
      onDone();
    } catch (error) {
      const found = problemsOf(error);
      setProblems(found);
      setFormError(Object.keys(found).length ? 'Some opening times need a change, marked below.' : errorMessage(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="form form-modal stall-hours-form" noValidate onSubmit={(e) => void onSubmit(e)}>
      {formError ? (
        <div className="banner banner-danger" role="alert" tabIndex={-1}>
          {formError}
        </div>
      ) : null}
      <fieldset className="stall-hours-mode">
        <legend className="visually-hidden">When the stall is open</legend>
        <label className="choice">
          <input type="radio" name="hours-mode" checked={!weekly} onChange={() => setWeekly(false)} /> No set hours: open whenever it is not paused
        </label>
        <label className="choice">
          <input type="radio" name="hours-mode" checked={weekly} onChange={() => setWeekly(true)} /> Open on these days and times
        </label>
      </fieldset>
      {weekly ? (
        <>
          <p className="muted small">
            Times are the venue’s ({timeZone}). Open past midnight? Close at 24:00 and open at 00:00 the next day.
          </p>
          <ul className="stall-hours-days">
            {WEEKDAYS.map((day) => (
              <DayRow key={day} day={day} spans={days[day]} problems={problems} onChange={(spans) => setDay(day, spans)} />
            ))}
          </ul>
        </>
      ) : null}
      <FormActions pending={pending} submitLabel="Save hours" pendingLabel="Saving…" onCancel={onCancel} />
    </form>
  );
}

function DayRow({ day, spans, problems, onChange }: { day: Weekday; spans: HoursSpan[]; problems: Record<string, string>; onChange: (spans: HoursSpan[]) => void }) {
  const name = WEEKDAY_NAMES[day];
  const dayProblem = problems[day];
  const change = (i: number, field: keyof HoursSpan, value: string) => onChange(spans.map((span, n) => (n === i ? { ...span, [field]: value } : span)));
  return (
    <li className="stall-hours-day" aria-label={name}>
      <span className="stall-hours-day-name">{name}</span>
      <div className="stall-hours-spans">
        {spans.length === 0 ? <span className="muted">Closed</span> : null}
        {spans.map((span, i) => {
          const problem = problems[`${day}.${i}.opens`] ?? problems[`${day}.${i}.closes`] ?? problems[`${day}.${i}`];
          const problemId = `hours-${day}-${i}-problem`;
          return (
            <div key={i} className="stall-hours-span">
              <SpanTime label={`${name} opening time ${i + 1}, opens`} placeholder="11:00" value={span.opens} problemId={problem ? problemId : undefined} onChange={(value) => change(i, 'opens', value)} />
              <span aria-hidden="true">–</span>
              <SpanTime label={`${name} opening time ${i + 1}, closes`} placeholder="22:00" value={span.closes} problemId={problem ? problemId : undefined} onChange={(value) => change(i, 'closes', value)} />
              <button type="button" className="btn btn-small danger-hover" onClick={() => onChange(spans.filter((_, n) => n !== i))}>
                Remove<span className="visually-hidden"> {name} opening time {i + 1}</span>
              </button>
              {problem ? (
                <span id={problemId} className="field-error">
                  {problem}
                </span>
              ) : null}
            </div>
          );
        })}
        {dayProblem ? <span className="field-error">{dayProblem}</span> : null}
        {spans.length < MAX_SPANS_PER_DAY ? (
          <button type="button" className="link-button" onClick={() => onChange([...spans, nextSpan(spans.at(-1))])}>
            {spans.length ? 'Add another time' : 'Open this day'}
            <span className="visually-hidden"> on {name}</span>
          </button>
        ) : null}
      </div>
    </li>
  );
}

const timeOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A time added after `last`: from its close, two hours (to midnight at most); the day's first: 11:00–22:00. */
function nextSpan(last: HoursSpan | undefined): HoursSpan {
  if (!last || !/^\d\d:\d\d$/.test(last.closes) || last.closes >= '24:00') return { opens: '11:00', closes: '22:00' };
  const from = minutesOfTime(last.closes);
  return { opens: last.closes, closes: timeOf(Math.min(from + 120, 1440)) };
}

/** A stall's week in short ("Mon 11:30–14:30, 18:00–22:00 · Tue closed …"), for its page. */
export function hoursSummary(hours: WeeklyHours): Array<{ day: string; text: string }> {
  return WEEKDAYS.map((day) => ({ day: WEEKDAY_NAMES[day], text: hours[day].length ? hours[day].map((span) => `${span.opens}–${span.closes}`).join(', ') : 'Closed' }));
}

/** One end of an opening span. Text, not a time field: a time field cannot say 24:00, the end of the day. */
function SpanTime({ label, placeholder, value, problemId, onChange }: { label: string; placeholder: string; value: string; problemId: string | undefined; onChange: (value: string) => void }) {
  return (
    <label>
      <span className="visually-hidden">{label}</span>
      <input
        type="text"
        inputMode="numeric"
        className="stall-hours-time"
        placeholder={placeholder}
        value={value}
        aria-invalid={problemId ? true : undefined}
        aria-describedby={problemId}
        onChange={(e) => onChange(e.target.value.trim())}
      />
    </label>
  );
}
