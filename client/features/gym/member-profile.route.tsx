import { useEffect, useId, useRef, useState } from 'react';
import { lastPauseEnd, pauseEndProblem, type Membership } from '@contracts/gym.contract';
import { MEMBERSHIP_VALUES, memberProfileReads } from '@pages/gym.reads';
import { Icon } from '@/components/icon';
import { useToast } from '@/components/toast-host';
import { paths } from '@/lib/paths';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { formErrors } from '@/lib/problem-fields';
import { TextField } from '@/components/form-fields';
import { routeReads } from '@/lib/route-reads';
import { DoorAccessCard } from './components/door-access';
import { MemberAttendanceCard } from './components/member-attendance';
import { dayKey, formatCalendarDay, formatDate, formatWhen } from '@/lib/format';
import { MEMBERSHIP_LABELS } from './components/membership-badge';
import { updateMember } from './gym.api';
import { useMember } from './member';

/**
 * The member's live Kisi state. It asks Kisi, which can be slow or down: a failure here leaves
 * the card to say so (its own read retries) instead of failing the whole page.
 */
const reads = routeReads(memberProfileReads);
export const { loader } = reads;
export const handle = { title: 'Gym member', ...reads.handle };

const MEMBERSHIP_HINTS: Record<Membership, string> = {
  active: 'Doors open',
  paused: 'Doors closed for now',
  cancelled: 'Doors closed',
};

const CONFIRM_LABELS: Record<Membership, string> = { active: 'Activate membership', paused: 'Pause membership', cancelled: 'Cancel membership' };

/** What a change does to the doors, said before it is made; a pause with an end says when they open again. */
function consequence(from: Membership, to: Membership, pausedUntil = ''): string {
  if (to === 'active') return 'The doors open to them again.';
  const closed = from === 'active' ? 'The doors close to them' : 'The doors stay closed to them';
  return pausedUntil ? `${closed} until ${formatCalendarDay(pausedUntil)}, when the membership comes back by itself.` : `${closed}.`;
}

/**
 * The desk's today and the days a pause may end on (the day after it, up to a year on). The server
 * decides by the venue's day (VENUE_TIME_ZONE); a desk is at the venue, so its clock says the same.
 */
function pauseDays(now = Date.now()) {
  const today = dayKey(now);
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  return { today, min: dayKey(tomorrow), max: lastPauseEnd(today) };
}

/** The day a pause ends, as typed: what is wrong with it by the desk's today, or null. */
const dayProblem = (day: string) => (day ? pauseEndProblem(day, pauseDays().today) : null);

const PAUSE_END_HINT = 'On that day the membership is active again and the doors open, by themselves.';

/**
 * A paused member's end of pause: the day they come back, changed or cleared (a pause with no end).
 * Saved on its own button; a 400 from the server lands on the field.
 */
function PauseEndEditor() {
  const member = useMember();
  const toast = useToast();
  const [day, setDay] = useState(member.pausedUntil ?? '');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  // The member changed (a save here, another tab, the job): the field shows what is stored.
  useEffect(() => {
    setDay(member.pausedUntil ?? '');
    setError(undefined);
  }, [member.pausedUntil]);
  const { min, max } = pauseDays();

  const save = async (pausedUntil: string | null) => {
    if (saving) return;
    const problem = pausedUntil ? dayProblem(pausedUntil) : null;
    if (problem) return setError(problem);
    setSaving(true);
    setError(undefined);
    try {
      await updateMember({ params: { id: member.id }, body: { pausedUntil } });
      toast.show({ tone: 'success', message: pausedUntil ? `Paused until ${formatCalendarDay(pausedUntil)}: the membership comes back that day.` : 'The pause has no end now: it lasts until the membership is changed.' });
    } catch (err) {
      const { fields, form } = formErrors(err, ['pausedUntil']);
      if (fields.pausedUntil) setError(fields.pausedUntil);
      else toast.show({ tone: 'error', title: 'End of pause not changed', message: form ?? errorMessage(err) });
    } finally {
      setSaving(false);
    }
  };

  const changed = day !== (member.pausedUntil ?? '');
  return (
    <form
      className="pause-end"
      aria-busy={saving}
      onSubmit={(event) => {
        event.preventDefault();
        if (changed) void save(day || null);
      }}
    >
      <TextField
        label="Comes back on"
        type="date"
        name="pausedUntil"
        min={min}
        max={max}
        value={day}
        error={error}
        hint={member.pausedUntil ? PAUSE_END_HINT : 'No end set: paused until the membership is changed. Choose a day for it to come back by itself.'}
        onChange={(event) => {
          setDay(event.target.value);
          setError(undefined);
        }}
      />
      <div className="pause-end-actions">
        <button type="submit" className="btn btn-small btn-primary" aria-disabled={!changed || saving || undefined} disabled={!changed && !saving}>
          {saving ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
          {day ? 'Save day' : 'Save: no end'}
        </button>
        {member.pausedUntil ? (
          <button type="button" className="btn btn-small" onClick={() => void save(null)} aria-disabled={saving || undefined}>
            Clear the day
          </button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * Active / paused / cancelled as one radio group. Choosing only selects (arrow keys move through
 * the choices without saving any of them); the change is saved, and the doors switched, on confirm.
 */
function MembershipSwitch() {
  const member = useMember();
  const toast = useToast();
  const [pending, setPending] = useState<Membership | null>(null);
  const [saving, setSaving] = useState(false);
  /** With Paused chosen: the day it comes back (empty: no end), and what is wrong with it. */
  const [pauseDay, setPauseDay] = useState('');
  const [dayError, setDayError] = useState<string | undefined>();
  const fieldsetRef = useRef<HTMLFieldSetElement>(null);
  const confirmRef = useRef<HTMLDivElement>(null);
  const confirmId = useId();
  const chosen = pending ?? member.membership;

  // A choice does nothing until confirmed: the button that does it is brought on screen with the
  // choice (at 1280 × 800 it sat below the fold, and a lit choice looked done).
  const asking = pending !== null;
  useEffect(() => {
    if (asking) confirmRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [asking]);

  const focusChoice = (membership: Membership) => fieldsetRef.current?.querySelector<HTMLInputElement>(`input[value="${membership}"]`)?.focus();
  const choose = (membership: Membership) => {
    if (saving) return;
    setPending(membership === member.membership ? null : membership);
    setPauseDay('');
    setDayError(undefined);
  };
  const keep = () => {
    if (saving) return;
    setPending(null);
    setPauseDay('');
    setDayError(undefined);
    // The confirm row goes away with the button that had focus: back to the choices.
    focusChoice(member.membership);
  };

  const save = async () => {
    if (pending === null || saving) return;
    const membership = pending;
    const pausedUntil = membership === 'paused' && pauseDay ? pauseDay : undefined;
    const problem = pausedUntil ? dayProblem(pausedUntil) : null;
    if (problem) return setDayError(problem);
    setSaving(true);
    try {
      const updated = await updateMember({ params: { id: member.id }, body: { membership, pausedUntil } });
      const label = `${MEMBERSHIP_LABELS[membership].toLowerCase()}${pausedUntil ? ` until ${formatCalendarDay(pausedUntil)}` : ''}`;
      if (updated.accessSync.state === 'failed') {
        toast.show({ tone: 'error', title: `Membership ${label}, but the doors were not switched`, message: updated.accessSync.error ?? 'Kisi did not accept the change.' });
      } else if (updated.accessSync.state === 'pending') {
        toast.show({ tone: 'info', message: `Membership ${label}. Kisi cannot be reached now: door access is switched ${updated.accessSync.wantEnabled ? 'on' : 'off'} as soon as it answers.` });
      } else if (updated.accessSync.state === 'no_kisi_user') {
        toast.show({ tone: 'success', message: `Membership ${label}. No Kisi account uses ${updated.email}, so no doors changed.` });
      } else {
        toast.show({ tone: 'success', message: `Membership ${label}. Door access is ${updated.accessSync.wantEnabled ? 'on' : 'off'}.` });
      }
      setPending(null);
      setPauseDay('');
      focusChoice(membership);
    } catch (error) {
      const { fields, form } = formErrors(error, ['pausedUntil']);
      if (fields.pausedUntil) setDayError(fields.pausedUntil);
      else toast.show({ tone: 'error', title: 'Membership not changed', message: form ?? errorMessage(error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <fieldset
      ref={fieldsetRef}
      className="membership-switch"
      aria-busy={saving}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && pending !== null) {
          event.preventDefault();
          keep();
        }
      }}
    >
      <legend>Membership</legend>
      <div className="membership-options">
        {MEMBERSHIP_VALUES.map((m) => (
          <label key={m} className={`membership-option membership-${m}${pending === m ? ' membership-unsaved' : ''}`}>
            <input type="radio" name="membership" value={m} checked={chosen === m} onChange={() => choose(m)} />
            <span className="membership-option-body">
              <span className="membership-option-label">{MEMBERSHIP_LABELS[m]}</span>
              <span className="membership-option-hint">{pending === m ? (saving ? 'Saving…' : 'Not saved yet: confirm below') : MEMBERSHIP_HINTS[m]}</span>
            </span>
          </label>
        ))}
      </div>
      {pending !== null ? (
        <div className="membership-confirm" ref={confirmRef}>
          <p id={confirmId}>
            {MEMBERSHIP_LABELS[member.membership]} → {MEMBERSHIP_LABELS[pending]}. {consequence(member.membership, pending, pauseDay)}
          </p>
          {pending === 'paused' ? (
            <TextField
              label="Comes back on (optional)"
              type="date"
              name="pausedUntil"
              min={pauseDays().min}
              max={pauseDays().max}
              value={pauseDay}
              error={dayError}
              hint={pauseDay ? PAUSE_END_HINT : 'Leave empty to pause with no end.'}
              onChange={(event) => {
                setPauseDay(event.target.value);
                setDayError(undefined);
              }}
            />
          ) : null}
          <div className="membership-confirm-actions">
            <button type="button" className="btn btn-primary btn-small" onClick={() => void save()} aria-describedby={confirmId} aria-disabled={saving || undefined} aria-busy={saving}>
              {saving ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
              {saving ? 'Saving…' : pending === 'paused' && pauseDay ? `Pause until ${formatCalendarDay(pauseDay)}` : CONFIRM_LABELS[pending]}
            </button>
            <button type="button" className="btn btn-small" onClick={keep} aria-disabled={saving || undefined}>
              Keep it {MEMBERSHIP_LABELS[member.membership].toLowerCase()}
            </button>
          </div>
        </div>
      ) : null}
      {pending === null && member.membership === 'paused' ? <PauseEndEditor /> : null}
    </fieldset>
  );
}

export function Component() {
  const { access, attendance } = reads.useReads();
  const member = useMember();
  return (
    <div className="gym-detail">
      <section className="card stack" aria-labelledby="profile-title">
        <h2 id="profile-title" className="card-heading">
          <Icon name="user" /> Profile
        </h2>
        <dl className="facts">
          <div>
            <dt>Email</dt>
            <dd>{member.email}</dd>
          </div>
          <div>
            <dt>Gym</dt>
            <dd>{member.gymName}</dd>
          </div>
          <div>
            <dt>Owner</dt>
            <dd>
              <AppLink to={paths.gymOwner(member.ownerId)}>{member.ownerName}</AppLink>
            </dd>
          </div>
          <div>
            <dt>Member since</dt>
            <dd>{formatDate(member.createdAt)}</dd>
          </div>
          <div>
            <dt>Last change</dt>
            <dd>{formatWhen(member.updatedAt)}</dd>
          </div>
        </dl>
        <MembershipSwitch />
      </section>
      <DoorAccessCard member={member} read={access} />
      <MemberAttendanceCard member={member} attendance={attendance} />
    </div>
  );
}
