import type { Freshness } from '@contracts/samples.contract';
import { Icon } from '@/components/icon';
import { formatWhen } from '@/lib/format';
import { SERVICES, formatAge, type Service } from '../samples.api';

/**
 * Says that the page shows the BFF's last copy because the service could not be reached (an answer
 * with `freshness.stale`): how old it is, and a way to ask again. Nothing for a fresh answer.
 */
export function StaleNotice({ freshness, service, onRetry, retrying = false }: { freshness: Freshness | undefined; service: Service; onRetry?: () => void; retrying?: boolean }) {
  if (!freshness?.stale) return null;
  return (
    <div className="banner banner-warning smp-notice" role="status">
      <p>
        Showing a copy from{' '}
        <time dateTime={freshness.fetchedAt} title={formatWhen(freshness.fetchedAt)}>
          {formatAge(freshness.ageSeconds)}
        </time>{' '}
        — {SERVICES[service]} cannot be reached right now.
      </p>
      {onRetry ? (
        <button type="button" className="btn btn-small" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
          <Icon name="refresh" size={16} /> {retrying ? 'Checking…' : 'Check again'}
        </button>
      ) : null}
    </div>
  );
}
