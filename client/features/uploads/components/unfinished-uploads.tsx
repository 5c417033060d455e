import { AsyncButton } from '@/components/async-button';
import { formatBytes, formatWhen } from '@/lib/format';
import type { UnfinishedUpload } from '../tus-upload';

/**
 * Uploads this browser began and did not finish (a closed tab, a reload, a dropped connection):
 * choosing the same file again continues it; "Forget" gives it up and frees the space it holds.
 */
export function UnfinishedUploads({ uploads, onForget }: { uploads: readonly UnfinishedUpload[]; onForget: (upload: UnfinishedUpload) => Promise<void> }) {
  if (uploads.length === 0) return null;
  return (
    <section className="banner banner-info upl-unfinished" aria-labelledby="upl-unfinished-title">
      <h2 id="upl-unfinished-title" className="subheading">
        {uploads.length === 1 ? 'An upload did not finish' : `${uploads.length} uploads did not finish`}
      </h2>
      <p>Choose the same file again to continue where it stopped, or forget it to free the space it holds.</p>
      <ul className="upl-unfinished-list">
        {uploads.map((upload) => (
          <li key={upload.key}>
            <span>
              <strong>{upload.name}</strong>
              <span className="small">
                {upload.size !== null ? ` · ${formatBytes(upload.size)}` : ''}
                {upload.startedAt ? ` · started ${formatWhen(upload.startedAt)}` : ''}
              </span>
            </span>
            <AsyncButton run={() => onForget(upload)} pendingLabel="Forgetting…" aria-label={`Forget ${upload.name}`}>
              Forget
            </AsyncButton>
          </li>
        ))}
      </ul>
    </section>
  );
}
