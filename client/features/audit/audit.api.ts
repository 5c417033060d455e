import { auditApi } from '@contracts/audit.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { auditFilterOf, type AuditSearch } from '@pages/audit.reads';
import { filteredHref } from '@pages/search-params';
import { paths } from '@/lib/paths';

/** The audit trail's links; its search params and read are declared in pages/audit.reads.ts. */

export type AuditFilterName = Exclude<keyof AuditSearch, 'page' | 'pageSize' | 'next' | 'previous'>;
const FILTER_NAMES = ['person', 'kind', 'from', 'to'] as const satisfies readonly AuditFilterName[];

export const isFiltered = (search: AuditSearch) => FILTER_NAMES.some((name) => Boolean(search[name]));

/** The CSV of exactly the filtered trail (every page): a plain link, the session cookie goes with it. */
export const auditExportHref = (search: AuditSearch) => urlOf(auditApi.export, { query: auditFilterOf(search) });

export const auditHref = (search: AuditSearch): string => filteredHref(paths.shellAudit, search, FILTER_NAMES);
