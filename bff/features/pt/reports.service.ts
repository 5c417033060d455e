import type { CsvColumn } from '../../lib/csv';
import { badRequest } from '../../lib/http-error';
import { addDays, daysBetween, zonedDay, zonedDayAndHour } from '../../lib/time-zone';
import { MAX_REPORT_DAYS, type Report, type ReportFigures, type ReportPrep, type ReportQuery } from '../../contracts/pt-reports.contract';
import type { ReportsRepository, StallSums, Sums } from './reports.repository';

export interface ReportsServiceDeps {
  figures: ReportsRepository;
  venue: { timeZone: string; currency: string };
  now?: () => number;
}

/** One row of the CSV export: a stall's figures in one hour of one day. */
export interface ReportCell extends ReportFigures, ReportPrep {
  day: string;
  hour: number;
  stallId: number | null;
  stallName: string;
}

/** Days of rows read per batch of the export: some 360 rows with a dozen stalls open all day. */
const EXPORT_DAYS_PER_BATCH = 3;

const none: Sums = { orders: 0, cancelled: 0, revenueCents: 0 };

/** The figures as the report gives them: the average ticket is the revenue over the orders not cancelled. */
const figuresOf = ({ orders, cancelled, revenueCents }: Sums): ReportFigures => ({
  orders,
  cancelled,
  revenueCents,
  averageTicketCents: orders > cancelled ? Math.round(revenueCents / (orders - cancelled)) : null,
});

/** A stall's preparation as the report gives it: its tickets made ready and their average, in whole seconds. */
const prepOf = ({ prepTickets, prepSeconds }: Pick<StallSums, 'prepTickets' | 'prepSeconds'>): ReportPrep => ({
  prepTickets,
  averagePrepSeconds: prepTickets > 0 ? Math.round(prepSeconds / prepTickets) : null,
});

const names = new Intl.Collator();
const byName = (a: { stallName: string }, b: { stallName: string }) => names.compare(a.stallName, b.stallName);
/** Days as YYYY-MM-DD sort as text. */
const byDay = (a: { day: string }, b: { day: string }) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0);

/**
 * The food court's figures, added up from those kept by venue hour as orders are placed and
 * cancelled (`figures.repository.ts`, decision 0099): a month's report reads at most 31 × 24 rows
 * of hours, and as many per stall, however many orders they hold.
 */
export function reportsService({ figures, venue, now = Date.now }: ReportsServiceDeps) {
  /** The days asked for (today at the venue when none). */
  function spanOf(query: ReportQuery) {
    const from = query.from ?? query.to ?? zonedDay(now(), venue.timeZone);
    const to = query.to ?? from;
    // The contract refuses these already; kept so a caller inside the BFF cannot ask for a year.
    if (to < from || daysBetween(from, to) > MAX_REPORT_DAYS) throw badRequest(`Choose from 1 to ${MAX_REPORT_DAYS} days, the last not before the first.`);
    return { from, to };
  }

  /** The last hour of `day` that has begun at the venue: 23 for a past day, the hour now today, -1 for a day to come. */
  function lastHourBegun(day: string) {
    const at = zonedDayAndHour(now(), venue.timeZone);
    return day < at.day ? 23 : day === at.day ? at.hour : -1;
  }

  return {
    async report(query: ReportQuery): Promise<Report> {
      const { from, to } = spanOf(query);
      // One after the other: two small reads, no need for a second connection.
      const hours = await figures.byHour(from, to);
      const stalls = await figures.byStall(from, to);
      const ofHour = new Map(hours.map((h) => [h.hour, h]));
      const totals = hours.reduce((sum, h) => ({ orders: sum.orders + h.orders, cancelled: sum.cancelled + h.cancelled, revenueCents: sum.revenueCents + h.revenueCents }), none);
      return {
        from,
        to,
        timeZone: venue.timeZone,
        currency: venue.currency,
        totals: figuresOf(totals),
        byHour: Array.from({ length: 24 }, (_, hour) => ({ hour, ...figuresOf(ofHour.get(hour) ?? none) })),
        // By the first day: a range that began before today has had every hour on one of its days.
        lastHourBegun: lastHourBegun(from),
        byStall: stalls
          .sort((a, b) => b.revenueCents - a.revenueCents || b.orders - a.orders || byName(a, b))
          .map(({ stallId, stallName, prepTickets, prepSeconds, ...sums }) => ({ stallId, stallName, ...figuresOf(sums), ...prepOf({ prepTickets, prepSeconds }) })),
      };
    },

    /**
     * The export: its file's name, and its rows (each day, hour and stall that had orders, in that
     * order) a few days at a time, so its first bytes go out after the first days' rows are read.
     * The days are checked before (a bad span is a plain 400).
     */
    exportOf(query: ReportQuery): { filename: string; batches: AsyncIterable<ReportCell[]> } {
      const { from, to } = spanOf(query);
      async function* batches() {
        for (let first = from; first <= to; first = addDays(first, EXPORT_DAYS_PER_BATCH)) {
          const last = addDays(first, EXPORT_DAYS_PER_BATCH - 1);
          yield (await figures.byStallHour(first, last < to ? last : to))
            .sort((a, b) => byDay(a, b) || a.hour - b.hour || byName(a, b))
            .map(({ day, hour, stallId, stallName, prepTickets, prepSeconds, ...sums }) => ({ day, hour, stallId, stallName, ...figuresOf(sums), ...prepOf({ prepTickets, prepSeconds }) }));
        }
      }
      return { filename: from === to ? `food-court-${from}.csv` : `food-court-${from}-to-${to}.csv`, batches: batches() };
    },
  };
}
export type ReportsService = ReturnType<typeof reportsService>;

/** Cents as the currency's units with two decimals ("12.50"): what a spreadsheet adds up. */
const units = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));

/** The export's columns; money in the venue's currency, named in the heading. */
export const reportCsvColumns = (currency: string): CsvColumn<ReportCell>[] => [
  { heading: 'day', value: (c) => c.day },
  { heading: 'hour', value: (c) => `${String(c.hour).padStart(2, '0')}:00` },
  { heading: 'stall', value: (c) => c.stallName },
  { heading: 'stall id', value: (c) => c.stallId },
  { heading: 'orders', value: (c) => c.orders },
  { heading: 'cancelled', value: (c) => c.cancelled },
  { heading: `revenue (${currency})`, value: (c) => units(c.revenueCents) },
  { heading: `average ticket (${currency})`, value: (c) => units(c.averageTicketCents) },
  { heading: 'tickets ready', value: (c) => c.prepTickets },
  { heading: 'average prep (minutes)', value: (c) => (c.averagePrepSeconds === null ? null : (c.averagePrepSeconds / 60).toFixed(1)) },
];
