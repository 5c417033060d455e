import { useLoaderData } from 'react-router';
import { Icon } from '@/components/icon';
import { STATUS_KEY, ServiceStatusView, fetchStatus } from '@/components/service-status';
import { errorMessage } from '@/lib/api-client';
import { loadQuery, preloadQuery } from '@/lib/cache';
import { useQuery } from '@/lib/cache';

export function loader() {
  return loadQuery(STATUS_KEY, fetchStatus);
}

export const handle = { title: 'Service status', preload: () => preloadQuery(STATUS_KEY, fetchStatus) };

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

export function Component() {
  const initial = useLoaderData<typeof loader>();
  // Re-checks every 10 s while the page is open.
  const { data, error, isValidating, mutate } = useQuery(STATUS_KEY, fetchStatus, initial, { refreshInterval: 10_000 });
  const status = data ?? initial;
  return (
    <section className="card stack" aria-labelledby="api-title">
      <div className="card-head">
        <h1 id="api-title" className="card-heading">
          <Icon name="server" /> Service status
        </h1>
        <button type="button" className="btn btn-small" onClick={() => void mutate()} disabled={isValidating}>
          <Icon name="refresh" size={16} />
          {isValidating ? 'Checking…' : 'Check now'}
        </button>
      </div>
      {error ? (
        <div className="banner banner-danger" role="alert">
          The last check failed: {errorMessage(error)}. Showing the previous answer.
        </div>
      ) : null}
      <ServiceStatusView status={status} />
      <p className="muted small">
        From <code>GET /api</code>; checked again every 10 seconds. Last answer {time.format(new Date())}.
      </p>
    </section>
  );
}
