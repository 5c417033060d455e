import { liveEventStream, useLiveStatus } from '@/lib/live-events';
import { LiveStatusBadge } from './live-status';
import { LiveStreamError } from './live-stream-error';

/** The tab's live stream's state as a badge: only the badge renders again when it changes, not the page around it. `offline`: as LiveStatusBadge's. */
export function LiveConnectionBadge({ label, offline }: { label?: string; offline?: boolean }) {
  return <LiveStatusBadge state={useLiveStatus((status) => status.state)} label={label} offline={offline} />;
}

/** Why the tab's live stream gave up, and a way to try again; nothing while it is fine. */
export function LiveConnectionError() {
  const error = useLiveStatus((status) => status.error);
  return <LiveStreamError error={error} onReconnect={() => liveEventStream().connect()} />;
}
