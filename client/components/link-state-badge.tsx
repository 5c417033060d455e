import { linkState } from '@/lib/kisi';

/** An access link's state as a badge: Enabled, Disabled, or Expired once past its valid-until. */
export function LinkStateBadge({ link }: { link: { link_enabled: boolean; valid_until: string | null } }) {
  const { label, badge } = linkState(link);
  return <span className={`badge ${badge}`}>{label}</span>;
}
