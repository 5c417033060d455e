import type { Membership } from '@contracts/gym.contract';
import { formatCalendarDay } from '@/lib/format';

export const MEMBERSHIP_LABELS: Record<Membership, string> = { active: 'Active', paused: 'Paused', cancelled: 'Cancelled' };
const TONES: Record<Membership, string> = { active: 'badge-ok', paused: 'badge-warn', cancelled: 'badge-bad' };

/**
 * A member's membership as a coloured badge (the word is always there, not just the colour); a pause
 * with an end says its day, the member's header what happens then: "Paused until Mon 14 Dec · comes back that day".
 */
export function MembershipBadge({ membership, pausedUntil = null, sayComesBack = false }: { membership: Membership; pausedUntil?: string | null; sayComesBack?: boolean }) {
  const until = membership === 'paused' && pausedUntil ? ` until ${formatCalendarDay(pausedUntil)}${sayComesBack ? ' · comes back that day' : ''}` : '';
  return <span className={`badge ${TONES[membership]}`}>{`${MEMBERSHIP_LABELS[membership]}${until}`}</span>;
}
