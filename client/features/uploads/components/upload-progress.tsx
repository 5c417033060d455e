import type { UploadSnapshot } from '../tus-upload';
import { formatBytes } from '@/lib/format';
import { formatSpeed, formatTimeLeft } from '../upload-rules';

export const percentOf = (upload: Pick<UploadSnapshot, 'bytesSent' | 'size'>) => (upload.size > 0 ? Math.floor((upload.bytesSent / upload.size) * 100) : 0);

/**
 * A file's progress: the bar (a progressbar with its percent and bytes for assistive technology)
 * and, beside it, bytes, percent, speed and time left while it sends.
 */
export function UploadProgress({ upload, label }: { upload: UploadSnapshot; label: string }) {
  const percent = percentOf(upload);
  const sending = upload.state === 'uploading';
  const parts = [`${formatBytes(upload.bytesSent)} of ${formatBytes(upload.size)}`, `${percent}%`];
  if (sending) {
    parts.push(upload.speed ? formatSpeed(upload.speed) : 'measuring speed…');
    if (upload.secondsLeft !== null) parts.push(`${formatTimeLeft(upload.secondsLeft)} left`);
  }
  return (
    <div className={`upl-progress upl-progress-${upload.state}`}>
      <div
        className="upl-bar"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%, ${formatBytes(upload.bytesSent)} of ${formatBytes(upload.size)}`}
      >
        <div className="upl-bar-fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="upl-progress-text small tabular">
        {parts.join(' · ')}
        {upload.resumedFrom ? <span className="upl-resumed"> · continued from {formatBytes(upload.resumedFrom)}</span> : null}
      </p>
    </div>
  );
}
