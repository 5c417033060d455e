import { useLoaderData } from 'react-router';
import { statusRead } from '@pages/home.reads';
import { shellApiReads } from '@pages/shell.reads';
import { Icon } from '@/components/icon';
import { ServiceStatusView } from '@/components/service-status';
import { errorMessage } from '@/lib/api-client';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';

/** `/shell/api`: the service status, checked again while the page is open; an API that does not answer is said inside the page. */
const reads = routeReads(shellApiReads);
export const { loader } = reads;
export const handle = { title: 'Service status', ...reads.handle };

const statusQuery = queryOf(statusRead);

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  // Re-checks every 10 s while the page is open.
  const { data: status, error, isValidating, mutate } = useRead(statusQuery, loaded.status.data, { refreshInterval: 10_000 });
  // Until the page's own check answers, the loader's failure is the one to show.
  const failure = error ?? (status === undefined ? loaded.status.error : undefined);
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
      {failure ? (
        <div className="banner banner-danger" role="alert">
          {status ? <>The last check failed: {errorMessage(failure)}. Showing the previous answer.</> : <>The service did not answer: {errorMessage(failure)}.</>}
        </div>
      ) : null}
      {status ? (
        <>
          <ServiceStatusView status={status} />
          <p className="muted small">
            From <code>GET /api</code>; checked again every 10 seconds. Last answer {time.format(new Date())}.
          </p>
        </>
      ) : null}
    </section>
  );
}
