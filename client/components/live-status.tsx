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

/**
 * The live stream's state as a small dot and word ("Live", "Reconnecting…"). `offline`: the page
 * knows the device has no network (the browser says so, or a request of its own found none). That is
 * said instead, in the waiting colours: a connection can still look open a while after the network
 * went, and "Live" beside an "Offline" banner would be one of them wrong.
 */
export function LiveStatusBadge({ state, label = 'Live updates', offline = false }: { state: LiveState; label?: string; offline?: boolean }) {
  const word = offline ? 'Offline' : LABELS[state];
  const look = offline ? 'reconnecting' : (LOOKS[state] ?? state);
  return (
    <span className={`live-status live-${look}`} title={`${label}: ${word}`}>
      <span className="live-dot" aria-hidden="true" />
      <span className="visually-hidden">{label}: </span>
      <span>{word}</span>
    </span>
  );
}
