import * as v from 'valibot';
import { MAX_REPORT_DAYS, ptReportsApi } from '@contracts/pt-reports.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { fetcherFor, keyFor } from '@/lib/api-client';
import { DAY_REASON, dayParam, daysInRange, ignoredParams, type IgnoredParam } from '@pages/search-params';
import { parseSearch } from '@pages/search-params';
import { paths } from '@/lib/paths';

/**
 * `/pt/reports?from&to`: the days of the food court's figures. Neither day means the venue's
 * today, which the server knows (its VENUE_TIME_ZONE), not the browser; the answer says which days
 * it counted, and the page shows those.
 */
export const ReportsSearchSchema = v.object({ from: dayParam, to: dayParam });
export type ReportsSearch = v.InferOutput<typeof ReportsSearchSchema>;

/** Bad days fall back as on every list page, and the page names them; so does a range longer than the API counts (its last day is dropped). */
export function parseReportsSearch(url: URL | URLSearchParams): ReportsSearch & { ignored: IgnoredParam[] } {
  const params = url instanceof URL ? url.searchParams : url;
  const search = parseSearch(ReportsSearchSchema, params);
  const ignored = ignoredParams(params, search, { from: DAY_REASON, to: DAY_REASON });
  if (search.from && search.to && daysInRange(search) > MAX_REPORT_DAYS) {
    ignored.push({ name: 'to', value: search.to, reason: `a report covers at most ${MAX_REPORT_DAYS} days` });
    search.to = '';
  }
  return { ...search, ignored };
}

const queryOf = (search: ReportsSearch) => ({ from: search.from || undefined, to: search.to || undefined });

export const reportKey = (search: ReportsSearch) => keyFor(ptReportsApi.report, { query: queryOf(search) });
export const fetchReport = fetcherFor(ptReportsApi.report);

/** The CSV of exactly the days shown: a plain link, the session cookie goes with it. */
export const reportExportHref = (search: ReportsSearch) => urlOf(ptReportsApi.exportReport, { query: queryOf(search) });

/** The page for some days (none: today). */
export function reportsHref(search: ReportsSearch): string {
  const params = new URLSearchParams();
  if (search.from) params.set('from', search.from);
  if (search.to) params.set('to', search.to);
  const query = params.toString();
  return query ? `${paths.ptReports}?${query}` : paths.ptReports;
}
