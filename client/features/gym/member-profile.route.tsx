import { useEffect, useId, useRef, useState } from 'react';
import type { Membership } from '@contracts/gym.contract';
import { MEMBERSHIP_VALUES, memberProfileReads } from '@pages/gym.reads';
import { Icon } from '@/components/icon';
import { useToast } from '@/components/toast-host';
import { paths } from '@/lib/paths';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { routeReads } from '@/lib/route-reads';
import { DoorAccessCard } from './components/door-access';
import { formatDate, formatWhen } from '@/lib/format';
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

/** What a change does to the doors, said before it is made. */
function consequence(from: Membership, to: Membership): string {
  if (to === 'active') return 'The doors open to them again.';
  return from === 'active' ? 'The doors close to them.' : 'The doors stay closed to them.';
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
    if (!saving) setPending(membership === member.membership ? null : membership);
  };
  const keep = () => {
    if (saving) return;
    setPending(null);
    // The confirm row goes away with the button that had focus: back to the choices.
    focusChoice(member.membership);
  };

  const save = async () => {
    if (pending === null || saving) return;
    const membership = pending;
    setSaving(true);
    try {
      const updated = await updateMember({ params: { id: member.id }, body: { membership } });
      const label = MEMBERSHIP_LABELS[membership].toLowerCase();
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
      focusChoice(membership);
    } catch (error) {
      toast.show({ tone: 'error', title: 'Membership not changed', message: errorMessage(error) });
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
            {MEMBERSHIP_LABELS[member.membership]} → {MEMBERSHIP_LABELS[pending]}. {consequence(member.membership, pending)}
          </p>
          <div className="membership-confirm-actions">
            <button type="button" className="btn btn-primary btn-small" onClick={() => void save()} aria-describedby={confirmId} aria-disabled={saving || undefined} aria-busy={saving}>
              {saving ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
              {saving ? 'Saving…' : CONFIRM_LABELS[pending]}
            </button>
            <button type="button" className="btn btn-small" onClick={keep} aria-disabled={saving || undefined}>
              Keep it {MEMBERSHIP_LABELS[member.membership].toLowerCase()}
            </button>
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}

export function Component() {
  const { access } = reads.useReads();
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
    </div>
  );
}
