import * as v from 'valibot';
import { isIdText } from '../bff/contracts/common.contract';
import { read } from '../bff/contracts/endpoint.contract';
import { ptApi } from '../bff/contracts/pt.contract';
import { MAX_REPORT_DAYS, ptReportsApi } from '../bff/contracts/pt-reports.contract';
import { statusApi } from '../bff/contracts/status.contract';
import { inPage, type AreaReads, type PageAddress } from './reads';
import { DAY_REASON, dayParam, daysInRange, ignoredParams, pageParam, parseSearch, toApiPage, type IgnoredParam } from './search-params';

/** The food court's pages: their search params (every key falls back silently) and the reads they start with. */

export const STALLS_PAGE_SIZE = 10;

const queryParam = v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), '');

const StallsSearchSchema = v.object({ page: pageParam, query: queryParam });
export type StallsSearch = v.InferOutput<typeof StallsSearchSchema>;
export const parseStallsSearch = (search: URLSearchParams) => parseSearch(StallsSearchSchema, search);

/** `?table=` as the QR code writes it: a whole number, or nothing (checked against the venue's tables on the page). */
const tableParam = v.fallback(v.pipe(v.string(), v.regex(/^\d{1,6}$/), v.toNumber()), 0);
/** `?stall=` on the diner menu: one stall's section, or 0 for all. */
const stallParam = v.fallback(v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.toNumber()), 0);
const DinerSearchSchema = v.object({ table: tableParam, stall: stallParam });
/** `tableGiven`: whether the URL names a table at all (`?table=abc` does, badly; no `table` does not). */
export const parseDinerSearch = (search: URLSearchParams) => ({ ...parseSearch(DinerSearchSchema, search), tableGiven: search.has('table') });

/**
 * `/pt/reports?from&to`: the days of the food court's figures. Neither day means the venue's
 * today, which the server knows (its VENUE_TIME_ZONE), not the browser; the answer says which days
 * it counted, and the page shows those.
 */
const ReportsSearchSchema = v.object({ from: dayParam, to: dayParam });
export type ReportsSearch = v.InferOutput<typeof ReportsSearchSchema>;

/** Bad days fall back as on every list page, and the page names them; so does a range longer than the API counts (its last day is dropped). */
export function parseReportsSearch(params: URLSearchParams): ReportsSearch & { ignored: IgnoredParam[] } {
  const search = parseSearch(ReportsSearchSchema, params);
  const ignored = ignoredParams(params, search, { from: DAY_REASON, to: DAY_REASON });
  if (search.from && search.to && daysInRange(search) > MAX_REPORT_DAYS) {
    ignored.push({ name: 'to', value: search.to, reason: `a report covers at most ${MAX_REPORT_DAYS} days` });
    search.to = '';
  }
  return { ...search, ignored };
}

/** The days as the API takes them: an empty day is left out. */
export const reportQuery = (search: ReportsSearch) => ({ from: search.from || undefined, to: search.to || undefined });

// ---- reads ------------------------------------------------------------------------------------

/** `GET /api/pt/stalls?page=<0-based>…` for a 1-based URL page. */
export const stallsRead = (search: { page: number; query?: string }) => read(ptApi.listStalls, { query: { page: toApiPage(search.page), pageSize: STALLS_PAGE_SIZE, query: search.query } });
export const stallRead = (id: number | string) => read(ptApi.getStall, { params: { id } });
/** The diners' menu; it brings the venue's currency and number of tables too. */
export const menuRead = read(ptApi.menu);
/** The kitchen picker: every stall on one screen (the API's largest page). */
export const kitchenStallsRead = read(ptApi.listStalls, { query: { page: 0, pageSize: 100 } });
/** A stall's kitchen screen: its open tickets. */
export const kitchenRead = (stallId: number | string) => read(ptApi.kitchen, { params: { id: stallId } });
/** Every open order on one screen (the API's largest page). */
export const openOrdersRead = read(ptApi.listOrders, { query: { status: 'open', page: 0, pageSize: 100 } });
/** The last served or cancelled orders, within reach of an undo. */
export const recentOrdersRead = (status: 'served' | 'cancelled') => read(ptApi.listOrders, { query: { status, page: 0, pageSize: 6 } });
export const reportRead = (search: ReportsSearch) => read(ptReportsApi.report, { query: reportQuery(search) });

const validId = ({ params }: PageAddress, name: string) => (isIdText(params[name]) ? Number(params[name]) : undefined);

// ---- each route's reads ---------------------------------------------------------------------

export const stallsListReads = ({ search }: PageAddress) => ({ stalls: stallsRead(parseStallsSearch(search)) });

/** The menu read brings the venue's currency. */
export const stallReads = (address: PageAddress) => {
  const id = validId(address, 'id');
  return { stall: id === undefined ? undefined : stallRead(id), menu: menuRead };
};

export const dinerMenuReads = () => ({ menu: menuRead });

/** The cart and the order page work without the menu (it brings the currency, the tables, today's prices): its failure shows inside them. */
export const menuInPageReads = () => ({ menu: inPage(menuRead) });

export const runnerBoardReads = () => ({ open: openOrdersRead, served: recentOrdersRead('served'), cancelled: recentOrdersRead('cancelled') });

export const kitchenPickerReads = () => ({ stalls: kitchenStallsRead });

export const kitchenReads = (address: PageAddress) => {
  const id = validId(address, 'stallId');
  return { kitchen: id === undefined ? undefined : kitchenRead(id) };
};

/** The QR codes link to the server's public address, which the status read names. */
export const tableCodesReads = () => ({ menu: menuRead, status: read(statusApi.status) });

export const reportsReads = ({ search }: PageAddress) => {
  const { ignored: _ignored, ...days } = parseReportsSearch(search);
  return { report: reportRead(days) };
};

export const ptReads = {
  ptStalls: stallsListReads,
  ptStall: stallReads,
  ptDinerMenu: dinerMenuReads,
  ptCart: menuInPageReads,
  ptOrder: menuInPageReads,
  ptRunner: runnerBoardReads,
  ptKitchens: kitchenPickerReads,
  ptKitchen: kitchenReads,
  ptTables: tableCodesReads,
  ptReports: reportsReads,
} satisfies AreaReads;
