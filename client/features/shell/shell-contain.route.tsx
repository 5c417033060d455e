import { gymApi } from '@contracts/gym.contract';
import { ptApi } from '@contracts/pt.contract';
import { webhookApi } from '@contracts/webhook.contract';
import { Icon } from '@/components/icon';
import { errorMessage, isApiError } from '@/lib/api-client';
import { query, useRead, type Query } from '@/lib/reads';
import { formatCount, startOfTodayIso } from '@/lib/format';
import './shell-contain.css';

export const handle = { title: 'Container layout' };

// Each figure is a list's `total`, read with a page of one (the contracts, not the other areas' modules: features stay apart).
// They are read by the widgets, not the loader: each says on its own that it is loading, refused to this role, or failed.
type Metric = { label: string; caption: string; read: Query<{ total: number }> };

function metrics(): Metric[] {
  return [
    { label: 'Unlocks today', caption: 'doors opened since midnight', read: query(webhookApi.listEvents, { query: { type: 'lock.unlock', since: startOfTodayIso(), pageSize: 1 } }) },
    { label: 'Gym members', caption: 'on file', read: query(gymApi.listMembers, { query: { pageSize: 1 } }) },
    { label: 'Open food orders', caption: 'not yet served', read: query(ptApi.listOrders, { query: { status: 'open', pageSize: 1 } }) },
  ];
}

/** One figure: loading, the number, or why it is missing (with a retry). */
function MetricTile({ metric }: { metric: Metric }) {
  const { data, error, isLoading, isValidating, mutate } = useRead(metric.read);
  const refused = isApiError(error, 403);
  return (
    <div className="metric" aria-busy={isLoading}>
      <span className="metric-label">{metric.label}</span>
      <span className="metric-value">{data ? formatCount(data.total) : isLoading ? <span className="metric-loading">…<span className="visually-hidden">Loading</span></span> : '—'}</span>
      {error && !data ? (
        <span className="metric-trend metric-error">
          {refused ? 'Not for your role' : <>Could not load: {errorMessage(error)} </>}
          {refused ? null : (
            <button type="button" className="link-button" onClick={() => void mutate()} disabled={isValidating}>
              {isValidating ? 'Trying…' : 'Retry'}
            </button>
          )}
        </span>
      ) : (
        <span className="metric-trend">{metric.caption}</span>
      )}
    </div>
  );
}

/** The same widget, laid out by the width of its container rather than the window. */
function MetricsWidget() {
  return (
    <div className="metrics">
      {metrics().map((m) => (
        <MetricTile key={m.label} metric={m} />
      ))}
    </div>
  );
}

export function Component() {
  return (
    <div className="stack-lg">
      <section className="card" aria-labelledby="contain-title">
        <h1 id="contain-title" className="card-heading">
          <Icon name="panel" /> Container layout
        </h1>
        <p className="muted">
          One widget in three places, with today’s figures from the API. Each copy arranges itself by the width of the box it
          is in (CSS container queries), not by the size of the window. Drag the corner of the last box to see it change.
        </p>
      </section>
      <div className="contain-demo">
        <section className="contain-box contain-side" aria-label="Narrow box">
          <h2>Sidebar</h2>
          <MetricsWidget />
        </section>
        <section className="contain-box contain-main" aria-label="Wide box">
          <h2>Main column</h2>
          <MetricsWidget />
        </section>
      </div>
      <section className="contain-box contain-resizable" aria-label="Resizable box">
        <h2>Resizable</h2>
        <MetricsWidget />
      </section>
    </div>
  );
}
