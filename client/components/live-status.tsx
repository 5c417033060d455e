import type { LiveState } from '@/lib/live-events';

const LABELS: Record<LiveState, string> = {
  connecting: 'Connecting…',
  open: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected',
  'signed-out': 'Signed out',
};

/** A stream held while signed out looks as a closed one does (styles.css `.live-closed`). */
const LOOKS: Partial<Record<LiveState, string>> = { 'signed-out': 'closed' };

/** The live stream's state as a small dot and word ("Live", "Reconnecting…"). */
export function LiveStatusBadge({ state, label = 'Live updates' }: { state: LiveState; label?: string }) {
  return (
    <span className={`live-status live-${LOOKS[state] ?? state}`} title={`${label}: ${LABELS[state]}`}>
      <span className="live-dot" aria-hidden="true" />
      <span className="visually-hidden">{label}: </span>
      <span>{LABELS[state]}</span>
    </span>
  );
}
