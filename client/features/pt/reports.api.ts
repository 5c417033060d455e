import { ptReportsApi } from '@contracts/pt-reports.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { reportQuery, type ReportsSearch } from '@pages/pt.reads';
import { paths } from '@/lib/paths';

/** The figures' links: the CSV of the days shown, and the page for other days (their reads: pages/pt.reads.ts). */

/** The CSV of exactly the days shown: a plain link, the session cookie goes with it. */
export const reportExportHref = (search: ReportsSearch) => urlOf(ptReportsApi.exportReport, { query: reportQuery(search) });

/** The page for some days (none: today). */
export function reportsHref(search: ReportsSearch): string {
  const params = new URLSearchParams();
  if (search.from) params.set('from', search.from);
  if (search.to) params.set('to', search.to);
  const query = params.toString();
  return query ? `${paths.ptReports}?${query}` : paths.ptReports;
}
