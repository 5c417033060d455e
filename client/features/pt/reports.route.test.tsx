import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ptReportsApi, type Report, type ReportFigures } from '@contracts/pt-reports.contract';
import { handle, problem } from '@/test-support/test-server';
import { fakeBff, renderApp, signedInAs } from '@/test-support/test-utils';

afterEach(() => jest.restoreAllMocks());

const asRunner = signedInAs({ id: 9, email: 'rita@frontdesk.test', name: 'Rita Runner', role: 'runner' });
const figures = (orders: number, cancelled: number, revenueCents: number): ReportFigures => ({ orders, cancelled, revenueCents, averageTicketCents: orders > cancelled ? Math.round(revenueCents / (orders - cancelled)) : null });

/** The report of the BFF's router test: 10 March 2026 in New York, in dollars. */
function reportFor(from: string, to: string): Report {
  const byHour = Array.from({ length: 24 }, (_, hour) => ({ hour, ...figures(0, 0, 0) }));
  byHour[9] = { hour: 9, ...figures(2, 0, 1800) };
  byHour[12] = { hour: 12, ...figures(1, 1, 0) };
  byHour[13] = { hour: 13, ...figures(1, 0, 500) };
  return {
    from,
    to,
    timeZone: 'America/New_York',
    currency: 'USD',
    totals: figures(4, 1, 2300),
    byHour,
    lastHourBegun: 23,
    byStall: [
      { stallId: 1, stallName: 'Burgers', ...figures(3, 0, 2000), prepTickets: 42, averagePrepSeconds: 431 },
      { stallId: 2, stallName: 'Noodles', ...figures(2, 1, 300), prepTickets: 0, averagePrepSeconds: null },
    ],
  };
}
const emptyReport = (day: string): Report => ({ ...reportFor(day, day), totals: figures(0, 0, 0), byHour: Array.from({ length: 24 }, (_, hour) => ({ hour, ...figures(0, 0, 0) })), byStall: [] });

const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('/pt/reports', () => {
  it('shows the totals, then by hour and by stall a chart and the table of its numbers, in the venue’s currency, with the CSV of the same days', async () => {
    const api = fakeBff([handle(ptReportsApi.report, ({ query }) => reportFor(query.from ?? '2026-03-10', query.to ?? query.from ?? '2026-03-10'))], { signedIn: true });
    renderApp('/pt/reports');
    expect(await screen.findByRole('heading', { level: 1, name: 'The day’s figures' })).toBeInTheDocument();
    // No day asked: the server's today (the venue's), which the page then shows.
    expect(api.calls.filter((c) => c.path.startsWith('/api/pt/reports')).map((c) => c.path)).toEqual(['/api/pt/reports']);
    expect(screen.getByText(/hours in America\/New_York time · USD/)).toBeInTheDocument();
    expect(screen.getByLabelText('From')).toHaveValue('2026-03-10');

    const totals = within(screen.getByLabelText('Totals'));
    expect(totals.getAllByRole('term').map((t) => t.textContent)).toEqual(['Revenue', 'Orders', 'Average ticket', 'Cancelled']);
    expect(totals.getAllByRole('definition').map((d) => d.textContent)).toEqual(['$23.00', '4', '$7.67', '1']);

    const hours = screen.getByRole('table', { name: 'Figures by hour' });
    // From the first hour with an order to the last; the cancelled hour earns nothing and has no average.
    expect(rowsOf(hours)).toEqual([
      ['Hour', 'Orders', 'Revenue', 'Average ticket', 'Cancelled'],
      ['09:00', '2', '$18.00', '$9.00', '0'],
      ['10:00', '0', '$0.00', '—', '0'],
      ['11:00', '0', '$0.00', '—', '0'],
      ['12:00', '1', '$0.00', '—', '1'],
      ['13:00', '1', '$5.00', '$5.00', '0'],
      ['Total', '4', '$23.00', '$7.67', '1'],
    ]);
    const stalls = screen.getByRole('table', { name: 'Figures by stall' });
    expect(rowsOf(stalls)).toEqual([
      ['Stall', 'Orders', 'Revenue', 'Average ticket', 'Cancelled', 'Avg prep'],
      // Each stall's average time from an order coming in to its part ready, over how many tickets.
      // On a phone the column gives way to the same words under the stall's name.
      ['BurgersAvg prep 7 min (42 tickets)', '3', '$20.00', '$6.67', '0', '7 min (42 tickets)'],
      ['NoodlesAvg prep —', '2', '$3.00', '$3.00', '1', '—'],
    ]);

    // The charts are pictures of the tables: hidden from assistive technology, one bar per row, revenue first.
    const [byHour, byStall] = screen.getAllByTestId('bar-chart');
    expect(byHour).toHaveAttribute('aria-hidden', 'true');
    expect(byStall).toHaveAttribute('aria-hidden', 'true');
    expect([...byHour!.querySelectorAll('.bar-chart-value')].map((v) => v.textContent)).toEqual(['$0.00', '$0.00', '$18.00', '$0.00', '$0.00', '$0.00', '$5.00', '$0.00']);
    expect((byStall!.querySelector('.bar-chart-bar') as HTMLElement).style.getPropertyValue('--share')).toBe('1');
    expect((byStall!.querySelectorAll('.bar-chart-bar')[1] as HTMLElement).style.getPropertyValue('--share')).toBe('0.15');
    await userEvent.click(screen.getByRole('radio', { name: 'Orders' }));
    expect([...byStall!.querySelectorAll('.bar-chart-value')].map((v) => v.textContent)).toEqual(['3', '2']);

    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/pt/reports/export.csv');
    expect(screen.getByRole('link', { name: 'Figures' })).toHaveAttribute('aria-current', 'page');
  });

  it('charts today only up to the hour it is at the venue: the hours still to come are not hours with nothing sold', async () => {
    // 05:40 in New York; orders at 01:00 and 04:00.
    const today = reportFor('2026-03-10', '2026-03-10');
    today.byHour = today.byHour.map((h) => ({ hour: h.hour, ...(h.hour === 1 ? figures(1, 0, 900) : h.hour === 4 ? figures(2, 0, 1400) : figures(0, 0, 0)) }));
    fakeBff([handle(ptReportsApi.report, () => ({ ...today, lastHourBegun: 5 }))], { signedIn: true });
    renderApp('/pt/reports');
    const hours = await screen.findByRole('table', { name: 'Figures by hour' });
    const [byHour] = screen.getAllByTestId('bar-chart');
    expect([...byHour!.querySelectorAll('.bar-chart-label')].map((l) => l.textContent)).toEqual(['00:00', '01:00', '02:00', '03:00', '04:00', '05:00']);
    expect(rowsOf(hours).map((row) => row[0])).toEqual(['Hour', '01:00', '02:00', '03:00', '04:00', 'Total']);
  });

  it('reports the days in the URL and exports the same days', async () => {
    const api = fakeBff([handle(ptReportsApi.report, ({ query }) => (query.from === '2026-03-01' ? emptyReport('2026-03-01') : reportFor(query.from!, query.to!)))], { signedIn: true });
    renderApp('/pt/reports?from=2026-03-09&to=2026-03-10');
    expect(await screen.findByRole('table', { name: 'Figures by stall' })).toBeInTheDocument();
    expect(api.calls.some((c) => c.path === '/api/pt/reports?from=2026-03-09&to=2026-03-10')).toBe(true);
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/pt/reports/export.csv?from=2026-03-09&to=2026-03-10');
    expect(screen.getByLabelText('To')).toHaveValue('2026-03-10');
    expect(screen.getByRole('link', { name: 'Today' })).toHaveAttribute('href', '/pt/reports');
  });

  it('widens today’s report to a range when a first day is chosen, and keeps a typed range a range of at most 31 days', async () => {
    const api = fakeBff([handle(ptReportsApi.report, ({ query }) => reportFor(query.from ?? '2026-03-10', query.to ?? query.from ?? '2026-03-10'))], { signedIn: true });
    const { router } = renderApp('/pt/reports');
    expect(await screen.findByLabelText('To')).toHaveValue('2026-03-10');
    // The last day was only shown (the server's today): it goes in the address with the chosen first day.
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-03' } });
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-03-03&to=2026-03-10'));
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/pt/reports?from=2026-03-03&to=2026-03-10')).toBe(true));
    // A last day typed before the first takes the first along: one day, and no warning about a link.
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-01' } });
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-03-01&to=2026-03-01'));
    expect(screen.queryByText(/could not use/)).not.toBeInTheDocument();
    // A day chosen more than 31 days off takes the other end along, so the range stays one report.
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-04-15' } });
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-03-16&to=2026-04-15'));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-01-01&to=2026-01-31'));
    expect(screen.queryByText(/could not use/)).not.toBeInTheDocument();
    expect(screen.getByText('Up to 31 days')).toBeInTheDocument();
  });

  it('says so when a day has no orders: no charts, no tables, the export still offered', async () => {
    fakeBff([handle(ptReportsApi.report, () => emptyReport('2026-03-01'))], { signedIn: true });
    renderApp('/pt/reports?from=2026-03-01');
    expect(await screen.findByRole('heading', { name: 'No orders this day' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/pt/reports/export.csv?from=2026-03-01');
  });

  it('drops the last day of a range longer than 31 days, and names it', async () => {
    const api = fakeBff([handle(ptReportsApi.report, ({ query }) => reportFor(query.from ?? '2026-03-10', query.to ?? query.from ?? '2026-03-10'))], { signedIn: true });
    renderApp('/pt/reports?from=2026-01-01&to=2026-03-10');
    expect(await screen.findByText(/a report covers at most 31 days/)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path.startsWith('/api/pt/reports')).map((c) => c.path)).toEqual(['/api/pt/reports?from=2026-01-01']);
  });

  it('says so when the figures cannot be read', async () => {
    fakeBff([handle(ptReportsApi.report, () => problem(400, 'Bad Request', 'Choose from 1 to 31 days, the last not before the first.'))], { signedIn: true });
    renderApp('/pt/reports');
    expect(await screen.findByText(/Choose from 1 to 31 days/)).toBeInTheDocument();
  });

  it('is for staff: a runner gets the 403 screen before any call for figures, and no tab', async () => {
    const api = fakeBff([asRunner], { signedIn: true });
    renderApp('/pt/reports');
    expect(await screen.findByText('You do not have access to this page.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Figures' })).not.toBeInTheDocument();
    expect(api.calls.some((c) => c.path.startsWith('/api/pt/reports'))).toBe(false);
  });
});
