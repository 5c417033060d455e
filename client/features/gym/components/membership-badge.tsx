import type { Membership } from '@contracts/gym.contract';

export const MEMBERSHIP_LABELS: Record<Membership, string> = { active: 'Active', paused: 'Paused', cancelled: 'Cancelled' };
const TONES: Record<Membership, string> = { active: 'badge-ok', paused: 'badge-warn', cancelled: 'badge-bad' };

/** A member's membership as a coloured badge (the word is always there, not just the colour). */
export function MembershipBadge({ membership }: { membership: Membership }) {
  return <span className={`badge ${TONES[membership]}`}>{MEMBERSHIP_LABELS[membership]}</span>;
}
