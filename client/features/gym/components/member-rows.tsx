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

/** The list's visits column: days they came in the last 4 weeks (each venue day once). */
export const RECENT_VISITS_HEADER = 'Visits (4 wks)';
const visitDays = (n: number) => (n === 0 ? 'None' : `${n} day${n === 1 ? '' : 's'}`);

/**
 * Members as a table with a header row: the member (name and email, a link to them), whether the
 * doors open for them (the door card's words), the days they came in the last 4 weeks, when they
 * last came in (relative, the exact time on hover), the membership (a failed or waiting door switch
 * flagged), and a delete button. Below 600 px each row folds into a card whose cells say their
 * column's name; the roles are said again in the markup, as a table shown as blocks loses them in
 * some browsers.
 */
export function MemberRows({
  members,
  label,
  showGym = true,
  onDelete,
  busy = false,
}: {
  members: GymMemberRow[];
  label: string;
  showGym?: boolean;
  onDelete?: (member: GymMember) => void;
  busy?: boolean;
}) {
  // "today 09:12" becomes "yesterday" past midnight while the list stays open.
  const now = useNow(60_000);
  return (
    <table className="gym-table" aria-label={label} aria-busy={busy} role="table">
      <colgroup>
        <col />
        <col className="gym-col-door" />
        <col className="gym-col-visits" />
        <col className="gym-col-visit" />
        <col className="gym-col-membership" />
        {onDelete ? <col className="gym-col-actions" /> : null}
      </colgroup>
      <thead role="rowgroup">
        <tr role="row">
          <th scope="col" role="columnheader">
            Member
          </th>
          <th scope="col" role="columnheader">
            Door access
          </th>
          <th scope="col" role="columnheader" className="gym-table-num" title="Days they came in the last 4 weeks, each day once">
            {RECENT_VISITS_HEADER}
          </th>
          <th scope="col" role="columnheader">
            Last visit
          </th>
          <th scope="col" role="columnheader">
            Membership
          </th>
          {onDelete ? (
            <th scope="col" role="columnheader">
              <span className="visually-hidden">Delete</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {members.map((member) => (
          <tr key={member.id} role="row" className="gym-table-row">
            <td role="cell" className="gym-cell-member">
              <AppLink to={paths.gymMember(member.id)} className="gym-row-main">
                <span className="gym-row-title">{member.name}</span>
                <span className="gym-row-sub">
                  {member.email}
                  {showGym ? ` · ${member.gymName}` : ''}
                </span>
              </AppLink>
            </td>
            <td role="cell" className="gym-cell-door" data-label="Door access">
              <DoorStateBadge door={member.door} membership={member.membership} title={member.door.doors === 'unknown' ? lastSwitch(member) : undefined} />
            </td>
            <td role="cell" className="gym-cell-visits gym-table-num" data-label={RECENT_VISITS_HEADER} data-testid="recent-visits">
              {visitDays(member.recentVisitDays)}
            </td>
            <td role="cell" className="gym-cell-visit" data-label="Last visit">
              {member.lastVisitAt ? (
                <time dateTime={member.lastVisitAt} title={formatWhen(member.lastVisitAt)}>
                  {formatLastVisit(member.lastVisitAt, now)}
                </time>
              ) : (
                'Never'
              )}
            </td>
            <td role="cell" className="gym-cell-membership" data-label="Membership">
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
            </td>
            {onDelete ? (
              <td role="cell" className="gym-cell-actions">
                <DeleteButton label={`Delete ${member.name}`} onClick={() => onDelete(member)} />
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
