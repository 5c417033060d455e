import './retention.css';
import { RETENTION_KIND_LABELS, type RetentionKindReport, type RetentionReport } from '@contracts/operations.contract';
import { retentionRead } from '@pages/operations.reads';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { errorMessage } from '@/lib/api-client';
import { formatCount, formatDate, formatWhen } from '@/lib/format';
import { useRead } from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';

const retentionQuery = queryOf(retentionRead);

const keptFor = (days: number) => (days === 0 ? 'For ever' : `${formatCount(days)} day${days === 1 ? '' : 's'}`);

/** The last run in one sentence: when, and whether it finished. */
function LastRun({ report }: { report: RetentionReport }) {
  const { lastRun, nextRunAt } = report;
  const next = nextRunAt ? <> Next run {formatWhen(nextRunAt)}.</> : null;
  if (!lastRun) return <p className="muted">No purge has run yet: the server runs one shortly after it starts, then once a day.{next}</p>;
  if (lastRun.status === 'failed') {
    return (
      <div className="banner banner-warning" role="status">
        <p>
          The last purge ({formatWhen(lastRun.startedAt)}) stopped: {lastRun.error ?? 'an error'}. What it purged before that is gone; the next run carries on.{next}
        </p>
      </div>
    );
  }
  return (
    <p>
      Last purge {formatWhen(lastRun.startedAt)}, finished {formatWhen(lastRun.finishedAt)}.{next}
    </p>
  );
}

function KindRow({ kind, lastRun }: { kind: RetentionKindReport; lastRun: boolean }) {
  const { label, age, setting } = RETENTION_KIND_LABELS[kind.kind];
  return (
    <tr>
      <th scope="row" className="cell-main">
        {label}
        <span className="retention-age">
          {age}; <code>{setting}</code>
        </span>
      </th>
      <td data-label="Kept for">{keptFor(kind.days)}</td>
      <td data-label="Last cut-off">{kind.cutoff ? `before ${formatDate(kind.cutoff)}` : <span className="muted">—</span>}</td>
      <td data-label="Purged last run" className="num">
        {lastRun ? formatCount(kind.purged) : <span className="muted">—</span>}
      </td>
    </tr>
  );
}

/**
 * The Operations page's retention section (admins): how long each kind of record is kept, and what
 * the last daily purge removed. It reads its own endpoint, so the page only places it.
 */
export function RetentionSection() {
  const { data: report, error, isValidating, mutate } = useRead(retentionQuery);
  return (
    <section className="card stack" aria-labelledby="retention-title">
      <div className="card-head">
        <h2 id="retention-title" className="card-heading">
          <Icon name="clock" /> Retention
        </h2>
      </div>
      <p className="muted">
        Each kind of record is kept for the time below, then purged: once a day, by one server,{' '}
        {report ? `${formatCount(report.batchSize)} rows` : 'a batch'} at a time so the app keeps answering. Each time is a server setting, read when it starts.
      </p>
      {error && !report ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not read the retention report: {errorMessage(error)}
        </LoadError>
      ) : null}
      {report ? (
        <>
          <LastRun report={report} />
          <div className="retention-table-box">
            <table className="retention-table" aria-label="Retention by kind">
              <thead>
                <tr>
                  <th scope="col">Kind</th>
                  <th scope="col">Kept for</th>
                  <th scope="col">Last cut-off</th>
                  <th scope="col" className="num">
                    Purged last run
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.kinds.map((kind) => (
                  <KindRow key={kind.kind} kind={kind} lastRun={report.lastRun !== null} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : !error ? (
        <p className="muted" aria-busy="true">
          Reading…
        </p>
      ) : null}
    </section>
  );
}
