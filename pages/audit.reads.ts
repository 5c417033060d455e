import * as v from 'valibot';
import { AUDIT_KINDS, auditApi } from '../bff/contracts/audit.contract';
import { read } from '../bff/contracts/endpoint.contract';
import { pages } from './pages';
import type { AreaReads, PageAddress } from './reads';
import { shellLayoutReads } from './shell.reads';
import { DAY_REASON, PAGE_SIZE_REASON, cursorParams, dayParam, dayRange, ignoredParams, pageParam, pageSizeParam, parseSearch, toApiCursorPage, type IgnoredParam } from './search-params';

/** The audit trail: its search params (every key falls back; the page names what it ignored) and the read it starts with. */

const AuditSearchSchema = v.object({
  page: pageParam,
  ...cursorParams,
  pageSize: pageSizeParam,
  person: v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
  kind: v.fallback(v.picklist(['', ...AUDIT_KINDS]), ''),
  from: dayParam,
  to: dayParam,
});
export type AuditSearch = v.InferOutput<typeof AuditSearchSchema>;

/** `?page&next|previous&pageSize&person&kind&from&to`, and the params of the link it could not use. */
export function parseAuditSearch(params: URLSearchParams): AuditSearch & { ignored: IgnoredParam[] } {
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

/** The API's filter for a search (days as instants, see `dayRange`). */
export const auditFilterOf = (search: AuditSearch) => ({ person: search.person || undefined, kind: search.kind || undefined, ...dayRange(search) });

/** `GET /api/audit?page=<0-based>&next|previous&pageSize&…filters`: the page from the cursor of the link that led here. */
export const auditRead = (search: AuditSearch) => read(auditApi.list, { query: { ...toApiCursorPage(search), pageSize: search.pageSize, ...auditFilterOf(search) } });

export const auditTrailReads = ({ search }: PageAddress) => ({ entries: auditRead(parseAuditSearch(search)) });

/** The page sits in the staff shell: the shell's reads come first. */
export const auditReads = { shellAudit: (address) => ({ ...shellLayoutReads(pages.shellAudit), ...auditTrailReads(address) }) } satisfies AreaReads;
