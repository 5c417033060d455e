import * as v from 'valibot';
import { AUDIT_KINDS, auditApi } from '@contracts/audit.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { fetcherFor, keyFor } from '@/lib/api-client';
import { DAY_REASON, PAGE_SIZE_REASON, dayParam, dayRange, filteredHref, ignoredParams, pageSizeParam, type IgnoredParam } from '@pages/search-params';
import { pageParam, parseSearch, toApiPage } from '@pages/search-params';
import { paths } from '@/lib/paths';

/** `/shell/audit?page&pageSize&person&kind&from&to`: every key falls back; the page names what it ignored. */
export const AuditSearchSchema = v.object({
  page: pageParam,
  pageSize: pageSizeParam,
  person: v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
  kind: v.fallback(v.picklist(['', ...AUDIT_KINDS]), ''),
  from: dayParam,
  to: dayParam,
});
export type AuditSearch = v.InferOutput<typeof AuditSearchSchema>;
export type AuditFilterName = Exclude<keyof AuditSearch, 'page' | 'pageSize'>;
const FILTER_NAMES = ['person', 'kind', 'from', 'to'] as const satisfies readonly AuditFilterName[];

export function parseAuditSearch(url: URL | URLSearchParams): AuditSearch & { ignored: IgnoredParam[] } {
  const params = url instanceof URL ? url.searchParams : url;
  const search = parseSearch(AuditSearchSchema, params);
  const ignored = ignoredParams(params, search, {
    pageSize: PAGE_SIZE_REASON,
    person: 'a person search is at most 200 characters',
    kind: 'a kind is one of the list’s kinds',
    from: DAY_REASON,
    to: DAY_REASON,
  });
  return { ...search, ignored };
}

export const isFiltered = (search: AuditSearch) => FILTER_NAMES.some((name) => Boolean(search[name]));

/** The API's filter for a search (days as instants, see `dayRange`). */
const auditFilterOf = (search: AuditSearch) => ({ person: search.person || undefined, kind: search.kind || undefined, ...dayRange(search) });

export const auditKey = (search: AuditSearch) => keyFor(auditApi.list, { query: { page: toApiPage(search.page), pageSize: search.pageSize, ...auditFilterOf(search) } });
export const fetchAuditPage = fetcherFor(auditApi.list);

/** The CSV of exactly the filtered trail (every page): a plain link, the session cookie goes with it. */
export const auditExportHref = (search: AuditSearch) => urlOf(auditApi.export, { query: auditFilterOf(search) });

export const auditHref = (search: AuditSearch): string => filteredHref(paths.shellAudit, search, FILTER_NAMES);
