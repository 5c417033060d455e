import { Icon } from '@/components/icon';
import type { UploadQueue, UploadSnapshot } from '../tus-upload';
import { formatBytes } from '@/lib/format';
import { downloadHref } from '../uploads.api';
import { UploadProgress } from './upload-progress';
import { UploadStateBadge } from './upload-state';

const UNDER_WAY = new Set(['waiting', 'uploading', 'paused', 'failed']);

/**
 * One file of a queue: name, size, state, progress, the reason it was refused or failed, and what
 * can be done with it. The first action slot (Pause/Resume/Retry) and the second (Cancel, then
 * Remove) keep their place, so the keyboard focus stays on the button that changed.
 */
export function UploadItem({ upload, queue, onRemove, large = false }: { upload: UploadSnapshot; queue: UploadQueue; onRemove: (id: string) => void; large?: boolean }) {
  const { id, name, state, stored } = upload;
  const showProgress = state === 'uploading' || state === 'paused' || (state === 'failed' && upload.bytesSent > 0) || (large && state === 'done');
  const toggle =
    state === 'uploading'
      ? { label: 'Pause', icon: 'pause' as const, run: () => queue.pause(id) }
      : state === 'paused'
        ? { label: 'Resume', icon: 'play' as const, run: () => queue.resume(id) }
        : state === 'failed'
          ? { label: 'Retry', icon: 'refresh' as const, run: () => queue.retry(id) }
          : null;
  return (
    <div className={`upl-item upl-item-${state}${large ? ' upl-item-large' : ''}`}>
      <div className="upl-item-main">
        <div className="upl-item-head">
          <div className="upl-item-title">
            <span className="upl-item-name">{name}</span>
            <span className="upl-item-meta muted small tabular">{formatBytes(upload.size)}</span>
          </div>
          <UploadStateBadge state={state} />
        </div>
        {showProgress ? <UploadProgress upload={upload} label={`Upload of ${name}`} /> : null}
        {upload.reason ? (
          <p className={state === 'refused' || state === 'failed' ? 'upl-reason upl-reason-bad' : 'upl-reason'}>
            <Icon name="alert" size={16} /> {upload.reason}
          </p>
        ) : null}
        {state === 'done' ? (
          <p className="upl-stored small">
            <Icon name="check" size={16} /> {stored ? `Stored as ${stored.name} (${formatBytes(stored.size)}).` : 'Stored.'}
          </p>
        ) : null}
      </div>
      <div className="upl-actions">
        {toggle ? (
          <button type="button" className="btn btn-small" onClick={toggle.run} aria-label={`${toggle.label} ${name}`}>
            <Icon name={toggle.icon} size={16} /> {toggle.label}
          </button>
        ) : null}
        {state === 'done' && stored ? (
          <a className="btn btn-small btn-primary" href={downloadHref(stored.id)} download={stored.name} aria-label={`Download ${stored.name}`}>
            <Icon name="arrow" size={16} /> Download
          </a>
        ) : null}
        {UNDER_WAY.has(state) ? (
          <button type="button" className="btn btn-small" onClick={() => queue.cancel(id)} aria-label={`Cancel ${name}`}>
            <Icon name="close" size={16} /> Cancel
          </button>
        ) : (
          <button type="button" className="btn btn-small btn-ghost" onClick={() => onRemove(id)} aria-label={`Remove ${name} from the list`}>
            <Icon name="close" size={16} /> Remove
          </button>
        )}
      </div>
    </div>
  );
}
