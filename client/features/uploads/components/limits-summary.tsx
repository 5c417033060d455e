import type { UploadLimits } from '@contracts/uploads.contract';
import { Icon } from '@/components/icon';
import { formatBytes } from '@/lib/format';
import { acceptedKinds } from '../upload-rules';

/** The limits the server enforces, in words, and how much of this account's space is used. */
/** `parallel`: how many files send at a time (the page of several files says so, and the batch limits). */
export function LimitsSummary({ limits, parallel }: { limits: UploadLimits; parallel?: number }) {
  const used = Math.min(limits.usedBytes, limits.quotaBytes);
  const free = Math.max(0, limits.quotaBytes - limits.usedBytes);
  return (
    <section className="card upl-limits" aria-labelledby="upl-limits-title">
      <h2 id="upl-limits-title" className="card-heading">
        <Icon name="info" /> What you can upload
      </h2>
      <dl className="upl-facts">
        <div>
          <dt>Each file</dt>
          <dd>up to {formatBytes(limits.maxFileBytes)}</dd>
        </div>
        {parallel ? (
          <div>
            <dt>At once</dt>
            <dd>
              up to {limits.maxBatchFiles} files, {formatBytes(limits.maxBatchBytes)} together ({parallel} send at a time)
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Kinds</dt>
          <dd className="upl-kinds">{acceptedKinds(limits)}</dd>
        </div>
        <div>
          <dt>Your space</dt>
          <dd>
            <span className="tabular">
              {formatBytes(used)} of {formatBytes(limits.quotaBytes)} used
            </span>
            <meter className="upl-meter" min={0} max={limits.quotaBytes} value={used} high={limits.quotaBytes * 0.9} aria-label="Space used" />
            <span className="upl-free small muted tabular">{formatBytes(free)} free</span>
          </dd>
        </div>
      </dl>
      <p className="muted small">An upload that stops (a dropped connection, a closed tab) continues where it stopped when you choose the same file again.</p>
    </section>
  );
}
