import { ptReportsApi } from '../../contracts/pt-reports.contract';
import { sendCsv } from '../../lib/csv';
import { route } from '../../lib/endpoint-router';
import { reportCsvColumns, type ReportsService } from './reports.service';

/** `/api/pt/reports`: the day's figures, as JSON for the page and as a CSV for a spreadsheet. */
export function reportsRoutes(reports: ReportsService, currency: string) {
  const columns = reportCsvColumns(currency);
  return [
    route(ptReportsApi.report, ({ query }) => reports.report(query)),
    route(ptReportsApi.exportReport, async ({ query }, { res }) => {
      // The span is checked before the first byte, so a bad one is still a plain 400.
      const { filename, batches } = reports.exportOf(query);
      return sendCsv(res, filename, columns, batches);
    }),
  ];
}
