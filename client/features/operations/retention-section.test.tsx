import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { operationsApi, type RetentionReport } from '@contracts/operations.contract';
import { formatDate, formatWhen } from '@/lib/format';
import { CacheProvider, resetCache } from '@/lib/reads';
import { handle, problem, server } from '@/test-support/test-server';
import { RetentionSection } from './retention-section';

const report: RetentionReport = {
  batchSize: 1000,
  lastRun: { startedAt: '2026-12-01T03:00:00.000Z', finishedAt: '2026-12-01T03:00:04.000Z', status: 'ok', error: null },
  nextRunAt: '2026-12-02T03:00:00.000Z',
  kinds: [
    { kind: 'doorEvents', days: 400, cutoff: '2025-10-27T03:00:00.000Z', purged: 12_345 },
    { kind: 'chat', days: 365, cutoff: '2025-12-01T03:00:00.000Z', purged: 0 },
    { kind: 'audit', days: 0, cutoff: null, purged: 0 },
  ],
};

function show() {
  resetCache();
  return render(
    <CacheProvider>
      <RetentionSection />
    </CacheProvider>,
  );
}

describe('RetentionSection', () => {
  it('lists each kind with how long it is kept, the last cut-off and what went', async () => {
    server.use(handle(operationsApi.retention, () => report));
    show();
    const table = await screen.findByRole('table', { name: 'Retention by kind' });
    const [doors, chat, audit] = within(table).getAllByRole('row').slice(1);
    expect(doors).toHaveTextContent('Door events');
    expect(doors).toHaveTextContent('400 days');
    expect(doors).toHaveTextContent(`before ${formatDate('2025-10-27T03:00:00.000Z')}`);
    expect(doors).toHaveTextContent('12,345');
    expect(doors).toHaveTextContent('RETAIN_DOOR_EVENTS_DAYS');
    expect(chat).toHaveTextContent('365 days');
    // Kept for ever: no cut-off, nothing purged.
    expect(audit).toHaveTextContent('For ever');
    expect(audit).toHaveTextContent('—');
    expect(screen.getByText(/Last purge/)).toHaveTextContent(formatWhen('2026-12-01T03:00:00.000Z'));
    expect(screen.getByText(/Last purge/)).toHaveTextContent(`Next run ${formatWhen('2026-12-02T03:00:00.000Z')}`);
    expect(screen.getByText(/1,000 rows at a time/)).toBeInTheDocument();
  });

  it('says when no purge has run yet, and when the last one stopped', async () => {
    server.use(handle(operationsApi.retention, () => ({ ...report, lastRun: null, nextRunAt: null })));
    const view = show();
    expect(await screen.findByText(/No purge has run yet/)).toBeInTheDocument();
    // No run: nothing was purged, so no count is claimed.
    const [doors] = within(screen.getByRole('table', { name: 'Retention by kind' })).getAllByRole('row').slice(1);
    expect(doors).not.toHaveTextContent('12,345');
    view.unmount();

    server.use(handle(operationsApi.retention, () => ({ ...report, lastRun: { ...report.lastRun!, status: 'failed' as const, error: 'the database did not answer' } })));
    show();
    expect(await screen.findByRole('status')).toHaveTextContent('stopped: the database did not answer');
  });

  it('says inside the page when the report cannot be read, and reads again on request', async () => {
    let fail = true;
    server.use(handle(operationsApi.retention, () => (fail ? problem(403, 'Forbidden', 'Admins only.') : report)));
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not read the retention report');
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Retention by kind' })).toBeInTheDocument();
  });
});
