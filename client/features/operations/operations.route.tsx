import './operations.css';
import { useLoaderData } from 'react-router';
import type { BackupRun, BackupsOverview } from '@contracts/operations.contract';
import { backupsRead, operationsPageReads } from '@pages/operations.reads';
import { AsyncButton } from '@/components/async-button';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { useToast } from '@/components/toast-host';
import { errorMessage } from '@/lib/api-client';
import { formatBytes, formatCount, formatWhen } from '@/lib/format';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { RetentionSection } from './retention-section';
import { backUpNow } from './operations.api';

/** `/shell/operations` (admins): backups (the last one, those kept, one now) and retention. */
const reads = routeReads(operationsPageReads);
export const { loader } = reads;
export const handle = { title: 'Operations', ...reads.handle };

const backupsQuery = queryOf(backupsRead);

/** "every 24 hours", "every 30 minutes", "every 1.5 hours". */
function everyText(hours: number): string {
  if (hours < 1) return `every ${formatCount(Math.round(hours * 60))} minutes`;
  return hours === 1 ? 'every hour' : `every ${formatCount(hours)} hours`;
}

const byWhom = (by: string) => (by === 'schedule' ? 'the schedule' : by === 'command line' ? 'npm run backup' : by);

/** One backup in a sentence: when, by whom, how big. */
const runText = (run: BackupRun) => `${formatWhen(run.finishedAt)}, by ${byWhom(run.by)}${run.sizeBytes !== null ? `: ${formatBytes(run.sizeBytes)} in ${formatCount(run.files ?? 0)} files` : ''}`;

/** The last backup, ok or failed with its reason; one being taken now; or none yet. */
function LastBackup({ overview }: { overview: BackupsOverview }) {
  const { last, lastSuccess, running } = overview;
  return (
    <>
      {running ? (
        <p className="banner banner-info" role="status">
          A backup is being taken now, by {byWhom(running.by)}, since {formatWhen(running.startedAt)}.
        </p>
      ) : null}
      {last && !last.ok ? (
        <div className="banner banner-warning" role="status">
          <p>
            <strong>The last backup failed</strong> ({formatWhen(last.finishedAt)}, by {byWhom(last.by)}): {last.message ?? 'no reason was given'}.
          </p>
          <p>{lastSuccess ? `The last good one: ${runText(lastSuccess)}.` : 'No backup has succeeded yet.'}</p>
        </div>
      ) : last ? (
        <p className="backup-last">
          <Icon name="check" size={18} />
          <span>Last backup {runText(last)}.</span>
        </p>
      ) : (
        <p className="muted">No backup has been taken yet.</p>
      )}
    </>
  );
}

/** The backups in BACKUP_DIR, newest first. */
function KeptBackups({ overview }: { overview: BackupsOverview }) {
  if (overview.kept.length === 0) {
    return (
      <EmptyState icon="server" title="No backups kept yet" level={2}>
        Backups are folders in {overview.folder}; the first appears there once one is taken.
      </EmptyState>
    );
  }
  return (
    <div className="backups-table-box">
      <table className="backups-table" aria-label="Kept backups">
        <thead>
          <tr>
            <th scope="col">Backup</th>
            <th scope="col">Taken</th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {overview.kept.map((backup) => (
            <tr key={backup.name}>
              <td className="cell-main">
                <code>{backup.name}</code>
                {backup.ok ? (
                  <span className="backup-sub">
                    Frontdesk {backup.appVersion} · {backup.engine === 'postgres' ? 'PostgreSQL' : 'SQLite'} · {backup.migration}
                  </span>
                ) : null}
              </td>
              <td data-label="Taken">{backup.createdAt ? formatWhen(backup.createdAt) : <span className="muted">—</span>}</td>
              <td data-label="Size" className="num">
                {backup.ok ? formatBytes(backup.sizeBytes) : <span className="muted">—</span>}
              </td>
              <td data-label="State">{backup.ok ? 'Whole' : <strong>No readable manifest: not a backup restore will take</strong>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function BackupsSection() {
  const loaded = useLoaderData<typeof loader>();
  // The hook itself rather than `reads.useReads()`: a failed refresh is said above what is still shown.
  const { data: overview, error, isValidating, mutate } = useRead(backupsQuery, loaded.backups);
  const toast = useToast();
  const takeOne = async () => {
    try {
      const run = await backUpNow();
      toast.show({ tone: 'success', message: `Backup ${run.name} taken: ${formatBytes(run.sizeBytes ?? 0)}.` });
    } catch (err) {
      toast.show({ tone: 'error', title: 'No backup was taken', message: errorMessage(err) });
      // A failure is recorded for everyone: the page says it too.
      await mutate();
    }
  };
  const { schedule } = overview;
  return (
    <section className="card stack" aria-labelledby="backups-title">
      <div className="card-head">
        <h2 id="backups-title" className="card-heading">
          <Icon name="server" /> Backups
        </h2>
        <AsyncButton run={takeOne} pendingLabel="Backing up…" className="btn btn-primary">
          Back up now
        </AsyncButton>
      </div>
      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the backups: {errorMessage(error)}
        </LoadError>
      ) : null}
      <LastBackup overview={overview} />
      <p className="muted backup-folder">
        {schedule.everyHours > 0 ? (
          <>
            The server takes one {everyText(schedule.everyHours)}
            {schedule.nextAt ? <>, next {formatWhen(schedule.nextAt)}</> : null}.{' '}
          </>
        ) : (
          <>The server takes none on its own (BACKUP_EVERY_HOURS is 0): take them here or with npm run backup. </>
        )}
        {schedule.keep > 0 ? `The newest ${formatCount(schedule.keep)} are kept` : 'Every backup is kept'}, in <code>{overview.folder}</code>. The database is copied while the app serves; a backup is restored with the server stopped, by <code>npm run restore -- &lt;backup&gt;</code>.
      </p>
      <KeptBackups overview={overview} />
    </section>
  );
}

export function Component() {
  return (
    <div className="stack-lg">
      <PageHeader eyebrow="Admin" title="Operations">
        <p>Backups of the database and the files, and how long each kind of record is kept.</p>
      </PageHeader>
      <BackupsSection />
      <RetentionSection />
    </div>
  );
}
