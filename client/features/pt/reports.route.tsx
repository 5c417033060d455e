import './reports.css';
import { useState } from 'react';
import { useLoaderData, useNavigation } from 'react-router';
import { MAX_REPORT_DAYS, type Report, type ReportFigures, type ReportPrep } from '@contracts/pt-reports.contract';
import { parseReportsSearch, reportRead, reportsReads } from '@pages/pt.reads';
import { ExportCsvLink } from '@/components/export-csv-link';
import { EmptyState } from '@/components/empty-state';
import { DayRangeFields, IgnoredParamsBanner } from '@/components/list-filter-fields';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { errorMessage } from '@/lib/api-client';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { useSearch, useSetSearchParams } from '@/lib/search-params';
import { BarChart, type Bar } from './components/bar-chart';
import { formatMoney } from './pt-format';
import { reportExportHref, reportsHref } from './reports.api';

/** `/pt/reports?from&to` (staff): the figures of some days, today's by default. */
const reads = routeReads(reportsReads);
export const { loader } = reads;
export const handle = { title: 'Food court figures', ...reads.handle };

const METRICS = {
  revenueCents: 'Revenue',
  orders: 'Orders',
  averageTicketCents: 'Average ticket',
  cancelled: 'Cancelled',
} as const satisfies Record<keyof ReportFigures, string>;
type Metric = keyof typeof METRICS;

/** A calendar day in words ("Tuesday 10 March 2026"); the day is the venue's, so it is read as UTC to stay that day. */
const dayWords = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeZone: 'UTC' });
const daysText = ({ from, to }: Pick<Report, 'from' | 'to'>) => (from === to ? dayWords.format(Date.parse(from)) : `${dayWords.format(Date.parse(from))} to ${dayWords.format(Date.parse(to))}`);
const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** One figure as the page says it: money in the venue's currency, a dash for an average of nothing. */
function figureText(figures: ReportFigures, metric: Metric, currency: string): string {
  if (metric === 'orders' || metric === 'cancelled') return String(figures[metric]);
  const cents = figures[metric];
  return cents === null ? '—' : formatMoney(cents, currency);
}

/** A stall's average preparation in whole minutes, and of how many tickets: "7 min (42 tickets)"; a dash with none ready. */
function prepText({ prepTickets, averagePrepSeconds }: ReportPrep): string {
  if (averagePrepSeconds === null) return '—';
  const time = averagePrepSeconds < 60 ? `${averagePrepSeconds} s` : `${Math.round(averagePrepSeconds / 60)} min`;
  return `${time} (${prepTickets} ${prepTickets === 1 ? 'ticket' : 'tickets'})`;
}

/** Hours the chart shows at least, so one busy hour reads as one hour of a day, not a chart-wide block. */
const MIN_CHART_HOURS = 8;

/**
 * The hours from the first with an order to the last, widened to at least `atLeast` (within the
 * day, and never past the last hour that has begun: today's hours still to come are not quiet
 * hours): a day's chart is the food court's open hours, not 24 columns of mostly nothing.
 */
function busyHours(report: Report, atLeast = 1) {
  const busy = report.byHour.filter((h) => h.orders > 0).map((h) => h.hour);
  if (busy.length === 0) return [];
  let first = Math.min(...busy);
  let last = Math.max(...busy);
  const end = Math.max(last, Math.min(23, report.lastHourBegun));
  while (last - first + 1 < atLeast && (first > 0 || last < end)) {
    if (first > 0) first--;
    if (last - first + 1 < atLeast && last < end) last++;
  }
  return report.byHour.slice(first, last + 1);
}

function FiguresTable({
  caption,
  heading,
  rows,
  totals,
  currency,
}: {
  caption: string;
  heading: string;
  /** `prep`: the stall's preparation time, a column of its own when the rows have it. */
  rows: Array<{ key: string | number; label: string; figures: ReportFigures; prep?: ReportPrep }>;
  totals?: ReportFigures;
  currency: string;
}) {
  const withPrep = rows.some((row) => row.prep);
  const cells = (figures: ReportFigures) =>
    (['orders', 'revenueCents', 'averageTicketCents', 'cancelled'] as const).map((metric) => (
      <td key={metric} className="tabular">
        {figureText(figures, metric, currency)}
      </td>
    ));
  return (
    <div className="report-table-wrap">
      <table className="report-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{heading}</th>
            <th scope="col">Orders</th>
            <th scope="col">Revenue</th>
            <th scope="col">Average ticket</th>
            <th scope="col">Cancelled</th>
            {withPrep ? (
              <th scope="col" className="report-col-prep">
                Avg prep
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">
                {row.label}
                {/* A phone has no room for the column: the stall's prep time goes under its name. */}
                {row.prep ? <span className="report-prep-inline">Avg prep {prepText(row.prep)}</span> : null}
              </th>
              {cells(row.figures)}
              {withPrep ? <td className="tabular report-col-prep">{row.prep ? prepText(row.prep) : '—'}</td> : null}
            </tr>
          ))}
        </tbody>
        {totals ? (
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              {cells(totals)}
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}

/**
 * `/pt/reports` (staff): the food court's figures for a day (today by default) or a range of days,
 * by the venue's clock and in its currency: totals, then by hour and by stall, each a chart with
 * its table. The table is the truth (screen readers read it); the chart is a picture of one column.
 */
export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const { ignored, ...search } = useSearch(parseReportsSearch);
  // The hook itself rather than `reads.useReads()`: a failed refresh is said above the figures still shown.
  const { data: report, error, isValidating, mutate } = useRead(queryOf(reportRead(search)), loaded.report);
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.ptReports;
  const setSearchParams = useSetSearchParams();
  const [metric, setMetric] = useState<Metric>('revenueCents');
  const { currency } = report;
  const hours = busyHours(report);
  const bar = (key: string | number, label: string, figures: ReportFigures): Bar => ({ key, label, value: figures[metric] ?? 0, text: figureText(figures, metric, currency) });
  const chosen = search.from || search.to;

  return (
    <div className="stack-lg reports" aria-busy={busy || undefined}>
      <PageHeader
        eyebrow="Food court"
        title="The day’s figures"
        actions={
          <ExportCsvLink href={reportExportHref(search)} />
        }
      >
        <p className="report-days">
          {daysText(report)} · hours in {report.timeZone} time · {currency}
        </p>
      </PageHeader>

      <div className="toolbar">
        <div className="toolbar-filters">
          {/* Both days go in the address: a day the page only showed (the answer's) would otherwise fall back to a one-day report. */}
          <DayRangeFields from={search.from || report.from} to={search.to || report.to} maxDays={MAX_REPORT_DAYS} onChange={(range) => setSearchParams(range, { replace: true })} />
        </div>
        <span className="muted">Up to {MAX_REPORT_DAYS} days</span>
        {chosen ? (
          <AppLink to={reportsHref({ from: '', to: '' })} className="btn">
            Today
          </AppLink>
        ) : null}
      </div>
      <IgnoredParamsBanner ignored={ignored} />

      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the figures: {errorMessage(error)}
        </LoadError>
      ) : null}

      <dl className="report-totals" aria-label="Totals">
        {(Object.keys(METRICS) as Metric[]).map((name) => (
          <div key={name} className="report-total">
            <dt>{METRICS[name]}</dt>
            <dd>{figureText(report.totals, name, currency)}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">Revenue leaves out cancelled orders; the average ticket is that revenue over the orders not cancelled.</p>

      {report.totals.orders === 0 ? (
        <section className="card">
          <EmptyState icon="food" title={report.from === report.to ? 'No orders this day' : 'No orders on these days'}>
            Orders placed from the diner menu are counted here by the hour they came in.
          </EmptyState>
        </section>
      ) : (
        <>
          <fieldset className="report-metric">
            <legend>Charts show</legend>
            {(Object.keys(METRICS) as Metric[]).map((name) => (
              <label key={name}>
                <input type="radio" name="metric" value={name} checked={metric === name} onChange={() => setMetric(name)} /> {METRICS[name]}
              </label>
            ))}
          </fieldset>

          <section className="card report-section" aria-labelledby="report-hours">
            <h2 id="report-hours">By hour</h2>
            <div className="report-pair">
              <BarChart layout="columns" bars={busyHours(report, MIN_CHART_HOURS).map((h) => bar(h.hour, hourText(h.hour), h))} />
              <FiguresTable caption="Figures by hour" heading="Hour" rows={hours.map((h) => ({ key: h.hour, label: hourText(h.hour), figures: h }))} totals={report.totals} currency={currency} />
            </div>
          </section>

          <section className="card report-section" aria-labelledby="report-stalls">
            <h2 id="report-stalls">By stall</h2>
            <div className="report-pair">
              <BarChart layout="rows" bars={report.byStall.map((s) => bar(s.stallId ?? `name:${s.stallName}`, s.stallName, s))} />
              <FiguresTable caption="Figures by stall" heading="Stall" rows={report.byStall.map((s) => ({ key: s.stallId ?? `name:${s.stallName}`, label: s.stallName, figures: s, prep: s }))} currency={currency} />
            </div>
            <p className="muted">
              An order from several stalls counts once at each of them, with the revenue of its own dishes. Avg prep is the time from an order coming in to its stall marking its part ready, over the tickets ready so far.
            </p>
          </section>
        </>
      )}
    </div>
  );
}
