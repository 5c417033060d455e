import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { operationsApi, type BackupRun, type BackupsOverview, type RetentionReport } from '@contracts/operations.contract';
import { formatWhen } from '@/lib/format';
import { handle, problem } from '@/test-support/test-server';
import { fakeBff, renderApp } from '@/test-support/test-utils';

const good: BackupRun = {
  name: 'frontdesk-2026-12-01T03-00-00-000Z',
  startedAt: '2026-12-01T03:00:00.000Z',
  finishedAt: '2026-12-01T03:00:04.000Z',
  ok: true,
  sizeBytes: 12.5 * 1024 * 1024,
  files: 1234,
  message: null,
  by: 'schedule',
};
const kept = (run: BackupRun) => ({ name: run.name!, createdAt: run.startedAt, sizeBytes: run.sizeBytes!, ok: true, engine: 'sqlite' as const, migration: '029-door-access-outlives-the-member', appVersion: '0.1.0' });
const overview = (changes: Partial<BackupsOverview> = {}): BackupsOverview => ({
  last: good,
  lastSuccess: good,
  running: null,
  kept: [kept(good)],
  schedule: { everyHours: 24, keep: 7, nextAt: '2026-12-02T03:00:04.000Z' },
  folder: '/srv/frontdesk/data/backups',
  engine: 'sqlite',
  ...changes,
});
const retention: RetentionReport = { batchSize: 1000, lastRun: null, nextRunAt: null, kinds: [{ kind: 'doorEvents', days: 400, cutoff: null, purged: 0 }] };

/** The fake BFF's backups: a state the test changes, and what "back up now" answers. */
function setup(state: { overview: BackupsOverview }, backUp: () => BackupRun | ReturnType<typeof problem> | Promise<BackupRun> = () => good) {
  const api = fakeBff(
    [
      handle(operationsApi.backups, () => state.overview),
      handle(operationsApi.backUpNow, () => backUp()),
      handle(operationsApi.retention, () => retention),
    ],
    { signedIn: true },
  );
  renderApp('/shell/operations');
  return { api, user: userEvent.setup() };
}

const backups = () => screen.findByRole('region', { name: 'Backups' });

describe('/shell/operations', () => {
  it('shows the last backup, the schedule and folder, each kept backup, and the retention section', async () => {
    setup({ overview: overview() });
    const section = await backups();
    expect(within(section).getByText(/Last backup/)).toHaveTextContent(`Last backup ${formatWhen(good.finishedAt)}, by the schedule: 12.5 MB in 1,234 files.`);
    expect(within(section).getByText(/The server takes one every 24 hours/)).toHaveTextContent(`next ${formatWhen('2026-12-02T03:00:04.000Z')}. The newest 7 are kept, in /srv/frontdesk/data/backups.`);
    const [row] = within(within(section).getByRole('table', { name: 'Kept backups' })).getAllByRole('row').slice(1);
    expect(row).toHaveTextContent('frontdesk-2026-12-01T03-00-00-000Z');
    expect(row).toHaveTextContent('Frontdesk 0.1.0 · SQLite · 029-door-access-outlives-the-member');
    expect(row).toHaveTextContent('12.5 MB');
    expect(row).toHaveTextContent('Whole');
    expect(await screen.findByRole('region', { name: 'Retention' })).toBeInTheDocument();
    expect(document.title).toMatch(/^Operations/);
  });

  it('says when the last backup failed and why, with the last good one; and when one is being taken', async () => {
    const failed: BackupRun = { ...good, name: null, ok: false, sizeBytes: null, files: null, finishedAt: '2026-12-02T03:00:01.000Z', message: 'pg_dump is not installed here: install postgresql-client' };
    setup({ overview: overview({ last: failed, running: { startedAt: '2026-12-02T03:05:00.000Z', by: 'ada@frontdesk.test' } }) });
    const section = await backups();
    const [running, warning] = within(section).getAllByRole('status');
    expect(running).toHaveTextContent(`A backup is being taken now, by ada@frontdesk.test, since ${formatWhen('2026-12-02T03:05:00.000Z')}.`);
    expect(warning).toHaveTextContent('The last backup failed');
    expect(warning).toHaveTextContent('pg_dump is not installed here: install postgresql-client.');
    expect(warning).toHaveTextContent(`The last good one: ${formatWhen(good.finishedAt)}, by the schedule: 12.5 MB`);
  });

  it('says when none is kept yet, and when the server takes none on its own', async () => {
    setup({ overview: overview({ last: null, lastSuccess: null, kept: [], schedule: { everyHours: 0, keep: 0, nextAt: null } }) });
    const section = await backups();
    expect(within(section).getByText('No backup has been taken yet.')).toBeInTheDocument();
    expect(within(section).getByText(/takes none on its own/)).toHaveTextContent('Every backup is kept, in /srv/frontdesk/data/backups.');
    expect(within(section).getByRole('heading', { name: 'No backups kept yet' })).toBeInTheDocument();
  });

  it('takes one now: the button says it is backing up until the server answers, then the list shows it', async () => {
    const state = { overview: overview({ last: null, lastSuccess: null, kept: [] }) };
    const taken = { ...good, name: 'frontdesk-2026-12-02T10-00-00-000Z', by: 'admin@frontdesk.test' };
    let finish: () => void = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    const { user, api } = setup(state, async () => {
      // The answer comes when the backup is whole.
      await done;
      state.overview = overview({ last: taken, lastSuccess: taken, kept: [kept(taken)] });
      return taken;
    });
    const section = await backups();
    await user.click(within(section).getByRole('button', { name: 'Back up now' }));
    expect(within(section).getByRole('button', { name: 'Backing up…' })).toHaveAttribute('aria-busy', 'true');
    finish();
    expect(await screen.findByText(`Backup ${taken.name} taken: 12.5 MB.`)).toBeInTheDocument();
    await waitFor(() => expect(within(section).getByRole('table', { name: 'Kept backups' })).toHaveTextContent(taken.name));
    expect(within(section).getByText(/Last backup/)).toHaveTextContent('by admin@frontdesk.test');
    expect(within(section).getByRole('button', { name: 'Back up now' })).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/operations/backups']);
  });

  it('says why none was taken (another being taken, or a failure) and shows what the server recorded', async () => {
    const state = { overview: overview() };
    let answer: () => ReturnType<typeof problem> = () => problem(409, 'Conflict', 'A backup is being taken already (by schedule, since 2026-12-02T03:00:00.000Z): try again when it is done.');
    const { user } = setup(state, () => answer());
    const section = await backups();
    await user.click(within(section).getByRole('button', { name: 'Back up now' }));
    expect(await screen.findByText(/A backup is being taken already \(by schedule/)).toBeInTheDocument();

    const failed: BackupRun = { ...good, name: null, ok: false, sizeBytes: null, files: null, message: 'BACKUP_DIR (/srv/backups) cannot be written to: EACCES' };
    answer = () => {
      state.overview = overview({ last: failed });
      return problem(500, 'Internal Server Error', `The backup failed: ${failed.message}`);
    };
    await user.click(within(section).getByRole('button', { name: 'Back up now' }));
    expect(await screen.findByText('The backup failed: BACKUP_DIR (/srv/backups) cannot be written to: EACCES')).toBeInTheDocument();
    await waitFor(() => expect(within(section).getByText('The last backup failed')).toBeInTheDocument());
  });
});
