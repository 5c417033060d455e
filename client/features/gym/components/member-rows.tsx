import type { GymMember, GymMemberRow } from '@contracts/gym.contract';
import { DeleteButton } from '@/components/confirm-delete';
import { Icon } from '@/components/icon';
import { AppLink } from '@/lib/app-link';
import { formatCalendarDay, formatLastVisit, formatWhen } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useNow } from '@/lib/use-now';
import { DoorStateBadge } from './door-access';
import { MembershipBadge } from './membership-badge';

/** What the last switch did, for the door badge's tooltip when Kisi could not be asked. */
const lastSwitch = (member: GymMember) =>
  member.accessSync.at ? `Last door switch: ${member.accessSync.state.replaceAll('_', ' ')} (${formatWhen(member.accessSync.at)})` : 'No door switch recorded yet';

/**
 * Members as rows: name and email link to the member; membership badge; a failed door switch
 * flagged; with the list's rows, whether the doors open for them (the door card's words) and when
 * they last came in (relative, the exact time on hover). Below 600 px the columns fold under the name.
 */
export function MemberRows({
  members,
  label,
  showGym = true,
  onDelete,
  busy = false,
}: {
  members: Array<GymMember | GymMemberRow>;
  label: string;
  showGym?: boolean;
  onDelete?: (member: GymMember) => void;
  busy?: boolean;
}) {
  // "today 09:12" becomes "yesterday" past midnight while the list stays open.
  const now = useNow(60_000);
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
          {'door' in member ? (
            <span className="gym-row-cols">
              <span className="gym-row-door">
                <DoorStateBadge door={member.door} membership={member.membership} title={member.door.doors === 'unknown' ? lastSwitch(member) : undefined} />
              </span>
              <span className="gym-row-visit">
                <span className="visually-hidden">Last visit: </span>
                {member.lastVisitAt ? (
                  <time dateTime={member.lastVisitAt} title={formatWhen(member.lastVisitAt)}>
                    {formatLastVisit(member.lastVisitAt, now)}
                  </time>
                ) : (
                  'Never'
                )}
              </span>
            </span>
          ) : null}
          <span className="gym-row-meta">
            <MembershipBadge membership={member.membership} />
            {member.membership === 'paused' && member.pausedUntil ? <span className="membership-note">until {formatCalendarDay(member.pausedUntil)}</span> : null}
            {member.accessSync.state === 'failed' ? (
              <span className="badge badge-bad" title={member.accessSync.error ?? undefined}>
                <Icon name="alert" size={14} /> Door sync failed
              </span>
            ) : member.accessSync.state === 'pending' ? (
              <span className="badge badge-warn" title={member.accessSync.waiting?.lastError ?? undefined}>
                <Icon name="alert" size={14} /> Waiting for Kisi
              </span>
            ) : null}
          </span>
          {onDelete ? <DeleteButton label={`Delete ${member.name}`} onClick={() => onDelete(member)} /> : null}
        </li>
      ))}
    </ul>
  );
}
