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
      // Counted before the first byte, so a bad span is still a plain 400; a month's rows are one batch.
      const { filename, cells } = await reports.cells(query);
      return sendCsv(res, filename, columns, (async function* () {
        yield cells;
      })());
    }),
  ];
}
