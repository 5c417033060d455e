import { useState } from 'react';
import { useLoaderData } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import type { Membership, MemberDoorAccess } from '@contracts/gym.contract';
import { Icon } from '@/components/icon';
import { useToast } from '@/components/toast-host';
import { paths } from '@/lib/paths';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { loadQueryOnce } from '@/lib/cache';
import { DoorAccessCard } from './components/door-access';
import { formatWhen } from '@/lib/format';
import { MEMBERSHIP_LABELS } from './components/membership-badge';
import { MEMBERSHIP_VALUES, fetchDoorAccess, memberAccessKey, updateMember } from './gym.api';
import { useMember } from './member';

/**
 * The member's live Kisi state. It asks Kisi, which can be slow or down: a failure here leaves
 * the card to say so (and retry) instead of failing the whole page.
 */
export async function loader({ params }: LoaderFunctionArgs): Promise<{ access?: MemberDoorAccess }> {
  try {
    return { access: await loadQueryOnce(memberAccessKey(params.id ?? ''), fetchDoorAccess) };
  } catch {
    return {};
  }
}

export const handle = { title: 'Gym member' };

const MEMBERSHIP_HINTS: Record<Membership, string> = {
  active: 'Doors open',
  paused: 'Doors closed for now',
  cancelled: 'Doors closed',
};

/** Active / paused / cancelled as one radio group; a change saves at once and switches the doors. */
function MembershipSwitch() {
  const member = useMember();
  const toast = useToast();
  const [saving, setSaving] = useState<Membership | null>(null);

  const change = async (membership: Membership) => {
    if (membership === member.membership || saving) return;
    setSaving(membership);
    try {
      const updated = await updateMember(member.id, { membership });
      const label = MEMBERSHIP_LABELS[membership].toLowerCase();
      if (updated.accessSync.state === 'failed') {
        toast.show({ tone: 'error', title: `Membership ${label}, but the doors were not switched`, message: updated.accessSync.error ?? 'Kisi did not accept the change.' });
      } else if (updated.accessSync.state === 'no_kisi_user') {
        toast.show({ tone: 'success', message: `Membership ${label}. No Kisi account uses ${updated.email}, so no doors changed.` });
      } else {
        toast.show({ tone: 'success', message: `Membership ${label}. Door access is ${updated.accessSync.wantEnabled ? 'on' : 'off'}.` });
      }
    } catch (error) {
      toast.show({ tone: 'error', title: 'Membership not changed', message: errorMessage(error) });
    } finally {
      setSaving(null);
    }
  };

  return (
    <fieldset className="membership-switch" aria-busy={saving !== null} disabled={saving !== null}>
      <legend>Membership</legend>
      <div className="membership-options">
        {MEMBERSHIP_VALUES.map((m) => (
          <label key={m} className={`membership-option membership-${m}`}>
            <input type="radio" name="membership" value={m} checked={(saving ?? member.membership) === m} onChange={() => void change(m)} />
            <span className="membership-option-body">
              <span className="membership-option-label">{MEMBERSHIP_LABELS[m]}</span>
              <span className="membership-option-hint">{saving === m ? 'Saving…' : MEMBERSHIP_HINTS[m]}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function Component() {
  const { access } = useLoaderData() as { access?: MemberDoorAccess };
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
            <dd>{formatWhen(member.createdAt)}</dd>
          </div>
          <div>
            <dt>Last change</dt>
            <dd>{formatWhen(member.updatedAt)}</dd>
          </div>
        </dl>
        <MembershipSwitch />
      </section>
      <DoorAccessCard member={member} initialAccess={access} />
    </div>
  );
}
