import * as v from 'valibot';
import { endpoint } from './endpoint.contract';
import { CalendarDaySchema } from './common.contract';

/**
 * The food court's figures (`/api/pt/reports`): orders, revenue, average ticket and cancelled
 * orders for a day or a range of days, in total, by stall and by hour. Days and hours are the
 * venue's (VENUE_TIME_ZONE), so the desk and the server agree on what "today" was whatever zone a
 * browser is in; money is integer cents in the venue's currency.
 *
 * How an order counts:
 * - it belongs to the day and hour it was placed (its `createdAt` on the venue's clock);
 * - `orders` counts every order placed, cancelled ones too; `cancelled` is how many of them are
 *   cancelled now;
 * - `revenueCents` is what the orders not cancelled are worth (a cancelled order earns nothing);
 *   orders still being prepared count, as they are sold;
 * - `averageTicketCents` is that revenue over the orders not cancelled, rounded to the cent; null
 *   when there are none;
 * - by stall: an order counts once for each stall it has lines from, with the revenue of those
 *   lines only. So the stalls' orders can add up to more than the total (an order from two stalls
 *   is one order to each), while their revenue adds up to the total;
 * - a stall's preparation time: its tickets of those orders that its kitchen made ready
 *   (`prepTickets`), from received to ready, on average (`averagePrepSeconds`, whole seconds; null
 *   when none is ready). A ticket taken back from ready leaves it until it is ready again.
 */

export const MAX_REPORT_DAYS = 31;

export const ReportDaySchema = CalendarDaySchema;

/** Either day alone is that one day; neither is the venue's today. */
export const ReportQuerySchema = v.pipe(
  v.object({ from: v.optional(ReportDaySchema), to: v.optional(ReportDaySchema) }),
  v.forward(
    v.check(({ from, to }) => !from || !to || from <= to, 'The last day is before the first'),
    ['to'],
  ),
  v.forward(
    v.check(({ from, to }) => !from || !to || from > to || (Date.parse(to) - Date.parse(from)) / 86_400_000 < MAX_REPORT_DAYS, `Choose at most ${MAX_REPORT_DAYS} days`),
    ['to'],
  ),
);
export type ReportQuery = v.InferOutput<typeof ReportQuerySchema>;

const figures = {
  orders: v.number(),
  cancelled: v.number(),
  revenueCents: v.number(),
  averageTicketCents: v.nullable(v.number()),
};
export const ReportFiguresSchema = v.object(figures);
export type ReportFigures = v.InferOutput<typeof ReportFiguresSchema>;

/** A stall's tickets made ready and their average time from received to ready, in seconds (null: none). */
const prep = { prepTickets: v.number(), averagePrepSeconds: v.nullable(v.number()) };
export const ReportPrepSchema = v.object(prep);
export type ReportPrep = v.InferOutput<typeof ReportPrepSchema>;

export const ReportHourSchema = v.object({ hour: v.number(), ...figures });
export type ReportHour = v.InferOutput<typeof ReportHourSchema>;

/** A stall by its id, or by the name its lines kept when it has since been deleted (id null). */
export const ReportStallSchema = v.object({ stallId: v.nullable(v.number()), stallName: v.string(), ...figures, ...prep });
export type ReportStall = v.InferOutput<typeof ReportStallSchema>;

export const ReportSchema = v.object({
  /** The days reported, both included (the venue's today when none was asked for). */
  from: v.string(),
  to: v.string(),
  timeZone: v.string(),
  currency: v.string(),
  totals: ReportFiguresSchema,
  /** All 24 wall-clock hours, 0 to 23, over every day of the range (empty hours are zeros). */
  byHour: v.array(ReportHourSchema),
  /**
   * The last hour of the day that has begun at the venue, for the report's first day: 23 when it is
   * past, the hour it is now when it is today, -1 when it is still to come. The hours after it have
   * not come yet (a zero there is not a quiet hour), so a chart of today stops at it.
   */
  lastHourBegun: v.number(),
  /** The stalls with orders in the range, the highest revenue first. */
  byStall: v.array(ReportStallSchema),
});
export type Report = v.InferOutput<typeof ReportSchema>;

export const ptReportsApi = {
  report: endpoint({
    method: 'GET',
    path: '/api/pt/reports',
    summary: `The food court's figures for the days \`from\`–\`to\` (the venue's days, both included, at most ${MAX_REPORT_DAYS}; today when neither is given): orders, revenue (cancelled orders excluded), average ticket and cancelled orders, in total, by hour and by stall (with each stall's average preparation, received to ready)`,
    access: ['staff'],
    query: ReportQuerySchema,
    response: ReportSchema,
  }),
  exportReport: endpoint({
    method: 'GET',
    path: '/api/pt/reports/export.csv',
    summary: "The same figures as a CSV attachment (UTF-8, RFC 4180): one row per day, hour and stall that had orders, with the stall's tickets made ready and their average preparation in minutes",
    access: ['staff'],
    query: ReportQuerySchema,
    response: v.unknown(),
    stream: 'file',
  }),
};
