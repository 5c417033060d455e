import type { UploadState } from '../tus-upload';

const LABELS: Record<UploadState, string> = {
  waiting: 'Waiting',
  uploading: 'Uploading',
  paused: 'Paused',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  refused: 'Refused',
};

const TONES: Record<UploadState, string> = {
  waiting: 'badge-muted',
  uploading: 'badge-accent',
  paused: 'badge-warn',
  done: 'badge-ok',
  failed: 'badge-bad',
  cancelled: 'badge-muted',
  refused: 'badge-bad',
};

/** A file's state as a badge ("Uploading", "Refused"). */
export function UploadStateBadge({ state }: { state: UploadState }) {
  return <span className={`badge ${TONES[state]} upl-state`}>{LABELS[state]}</span>;
}
