import type { GymMember } from '@contracts/gym.contract';
import { DeleteButton } from '@/components/confirm-delete';
import { Icon } from '@/components/icon';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { MembershipBadge } from './membership-badge';

/** Members as rows: name and email link to the member; membership badge; a failed door switch flagged. */
export function MemberRows({ members, label, showGym = true, onDelete, busy = false }: { members: GymMember[]; label: string; showGym?: boolean; onDelete?: (member: GymMember) => void; busy?: boolean }) {
  return (
    <ul className="gym-list" aria-label={label} aria-busy={busy}>
      {members.map((member) => (
        <li key={member.id} className="gym-row">
          <AppLink to={paths.gymMember(member.id)} className="gym-row-main">
            <span className="gym-row-title">{member.name}</span>
            <span className="gym-row-sub">
              {member.email}
              {showGym ? ` · ${member.gymName}` : ''}
            </span>
          </AppLink>
          <span className="gym-row-meta">
            <MembershipBadge membership={member.membership} />
            {member.accessSync.state === 'failed' ? (
              <span className="badge badge-bad" title={member.accessSync.error ?? undefined}>
                <Icon name="alert" size={14} /> Door sync failed
              </span>
            ) : null}
          </span>
          {onDelete ? (
            <DeleteButton label={`Delete ${member.name}`} onClick={() => onDelete(member)} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}
