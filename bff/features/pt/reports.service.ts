import type { CsvColumn } from '../../lib/csv';
import { badRequest } from '../../lib/http-error';
import { addDays, daysBetween, zonedDay, zonedDayAndHour, zonedDayStart } from '../../lib/time-zone';
import { MAX_REPORT_DAYS, type Report, type ReportFigures, type ReportQuery } from '../../contracts/pt-reports.contract';
import type { ReportLine, ReportsRepository } from './reports.repository';

export interface ReportsServiceDeps {
  lines: ReportsRepository;
  venue: { timeZone: string; currency: string };
  now?: () => number;
}

/** One row of the CSV export: a stall's figures in one hour of one day. */
export interface ReportCell extends ReportFigures {
  day: string;
  hour: number;
  stallId: number | null;
  stallName: string;
}

/** Figures being added up: `sold` is the orders not cancelled (the average's divisor). */
type Tally = { orders: number; cancelled: number; revenueCents: number };
const emptyTally = (): Tally => ({ orders: 0, cancelled: 0, revenueCents: 0 });

function count(tally: Tally, cancelled: boolean, revenueCents: number) {
  tally.orders += 1;
  if (cancelled) tally.cancelled += 1;
  else tally.revenueCents += revenueCents;
}

const figuresOf = ({ orders, cancelled, revenueCents }: Tally): ReportFigures => ({
  orders,
  cancelled,
  revenueCents,
  averageTicketCents: orders > cancelled ? Math.round(revenueCents / (orders - cancelled)) : null,
});

/** One order of the span: its status, venue day and hour, and its revenue by stall. */
interface PlacedOrder {
  cancelled: boolean;
  day: string;
  hour: number;
  stalls: Map<string, { stallId: number | null; stallName: string; revenueCents: number }>;
}

/** A stall's key: its id, or the name its lines kept once it is deleted (two deleted stalls of one name are one). */
const stallKey = (line: Pick<ReportLine, 'stallId' | 'stallName'>) => (line.stallId === null ? `name:${line.stallName}` : `id:${line.stallId}`);

function ordersOf(lines: readonly ReportLine[], timeZone: string): PlacedOrder[] {
  const orders = new Map<number, PlacedOrder>();
  for (const line of lines) {
    let order = orders.get(line.orderId);
    if (!order) {
      order = { cancelled: line.status === 'cancelled', ...zonedDayAndHour(new Date(line.createdAt), timeZone), stalls: new Map() };
      orders.set(line.orderId, order);
    }
    const key = stallKey(line);
    const stall = order.stalls.get(key) ?? { stallId: line.stallId, stallName: line.stallName, revenueCents: 0 };
    stall.revenueCents += line.unitPriceCents * line.quantity;
    order.stalls.set(key, stall);
  }
  return [...orders.values()];
}

const revenueOf = (order: PlacedOrder) => [...order.stalls.values()].reduce((sum, stall) => sum + stall.revenueCents, 0);

const byName = (a: { stallName: string }, b: { stallName: string }) => a.stallName.localeCompare(b.stallName);

/**
 * The food court's figures. The orders of the span are read whole (a month at most) and counted
 * here, by the venue's clock from `lib/time-zone`: SQLite has no zone database, so bucketing in SQL
 * would mean two engines' ways to get daylight saving right; one pass in TypeScript gives both the
 * same answer.
 */
export function reportsService({ lines, venue, now = Date.now }: ReportsServiceDeps) {
  /** The days asked for (today at the venue when none), and the UTC instants that bound them. */
  function spanOf(query: ReportQuery) {
    const from = query.from ?? query.to ?? zonedDay(now(), venue.timeZone);
    const to = query.to ?? from;
    // The contract refuses these already; kept so a caller inside the BFF cannot ask for a year.
    if (to < from || daysBetween(from, to) > MAX_REPORT_DAYS) throw badRequest(`Choose from 1 to ${MAX_REPORT_DAYS} days, the last not before the first.`);
    return { from, to, since: zonedDayStart(from, venue.timeZone).toISOString(), before: zonedDayStart(addDays(to, 1), venue.timeZone).toISOString() };
  }

  async function placedIn(query: ReportQuery) {
    const span = spanOf(query);
    return { span, orders: ordersOf(await lines.linesPlacedBetween(span.since, span.before), venue.timeZone) };
  }

  return {
    async report(query: ReportQuery): Promise<Report> {
      const { span, orders } = await placedIn(query);
      const totals = emptyTally();
      const hours = Array.from({ length: 24 }, emptyTally);
      const stalls = new Map<string, Tally & { stallId: number | null; stallName: string }>();
      for (const order of orders) {
        count(totals, order.cancelled, revenueOf(order));
        count(hours[order.hour]!, order.cancelled, revenueOf(order));
        for (const [key, part] of order.stalls) {
          const stall = stalls.get(key) ?? { ...emptyTally(), stallId: part.stallId, stallName: part.stallName };
          count(stall, order.cancelled, part.revenueCents);
          stalls.set(key, stall);
        }
      }
      return {
        from: span.from,
        to: span.to,
        timeZone: venue.timeZone,
        currency: venue.currency,
        totals: figuresOf(totals),
        byHour: hours.map((tally, hour) => ({ hour, ...figuresOf(tally) })),
        byStall: [...stalls.values()]
          .sort((a, b) => b.revenueCents - a.revenueCents || b.orders - a.orders || byName(a, b))
          .map(({ stallId, stallName, ...tally }) => ({ stallId, stallName, ...figuresOf(tally) })),
      };
    },

    /** The export's rows (each day, hour and stall that had orders, in that order) and its file's name. */
    async cells(query: ReportQuery): Promise<{ filename: string; cells: ReportCell[] }> {
      const { span, orders } = await placedIn(query);
      const cells = new Map<string, Tally & Omit<ReportCell, keyof ReportFigures>>();
      for (const order of orders) {
        for (const [key, part] of order.stalls) {
          const cellKey = `${order.day} ${String(order.hour).padStart(2, '0')} ${key}`;
          const cell = cells.get(cellKey) ?? { ...emptyTally(), day: order.day, hour: order.hour, stallId: part.stallId, stallName: part.stallName };
          count(cell, order.cancelled, part.revenueCents);
          cells.set(cellKey, cell);
        }
      }
      const rows = [...cells.values()]
        .sort((a, b) => a.day.localeCompare(b.day) || a.hour - b.hour || byName(a, b))
        .map(({ day, hour, stallId, stallName, ...tally }) => ({ day, hour, stallId, stallName, ...figuresOf(tally) }));
      return { filename: span.from === span.to ? `food-court-${span.from}.csv` : `food-court-${span.from}-to-${span.to}.csv`, cells: rows };
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
];
