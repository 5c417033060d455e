import './audit.css';
import { useLoaderData, useNavigation } from 'react-router';
import * as v from 'valibot';
import { AUDIT_KINDS, AUDIT_KIND_LABELS, type AuditEntry, type AuditValue } from '@contracts/audit.contract';
import { isoInstant } from '@contracts/common.contract';
import { auditRead, auditTrailReads, parseAuditSearch } from '@pages/audit.reads';
import { ExportCsvLink } from '@/components/export-csv-link';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { DayRangeFields, IgnoredParamsBanner, PageSizeField } from '@/components/list-filter-fields';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import { SearchBox } from '@/components/search-box';
import { errorMessage } from '@/lib/api-client';
import { AppLink } from '@/lib/app-link';
import { formatWhen, formatWhenExact } from '@/lib/format';
import { useSetListFilter } from '@/lib/list-filters';
import { paths } from '@/lib/paths';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { useSearch } from '@/lib/search-params';
import { auditExportHref, auditHref, isFiltered, type AuditFilterName } from './audit.api';

/** `/shell/audit?page&next|previous&pageSize&person&kind&from&to` (page 1-based, from its link's cursor; what it cannot use it ignores, and says so). */
const reads = routeReads(auditTrailReads);
export const { loader } = reads;
export const handle = { title: 'Audit trail', ...reads.handle };

/** A stored instant (a pass's end, say): the contracts' own ISO time rule. */
const INSTANT = isoInstant();

/** A stored value in words: none is a dash, yes/no for a switch, an instant in the reader's zone. */
const valueText = (value: AuditValue) =>
  value === null || value === '' ? '—' : value === true ? 'yes' : value === false ? 'no' : typeof value === 'string' && v.is(INSTANT, value) ? formatWhen(value) : String(value);
/** `accessEnabled` → "access enabled", `gym_name` → "gym name". */
const fieldText = (field: string) => field.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** Each changed field: before → after; a field that was not there (a created thing) just its value, one that went (a deleted thing) its old value struck through. */
function Changes({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="audit-changes">
      {entry.changes.map((change) => (
        <div key={change.field}>
          <dt>{fieldText(change.field)}:</dt>{' '}
          <dd>
            {change.before !== null ? <span className="audit-before">{valueText(change.before)}</span> : null}
            {change.before !== null && change.after !== null ? <span aria-label="changed to"> → </span> : null}
            {change.after !== null ? <span className="audit-after">{valueText(change.after)}</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** What a kind of entry is about, one of them ("Member paused"). */
const KIND_NOUNS: Record<AuditEntry['kind'], string> = {
  member: 'Member',
  owner: 'Owner',
  door_access: 'Door access',
  unlock: 'Door',
  access_link: 'Access link',
  kisi: 'Kisi',
  stall: 'Stall',
  menu_item: 'Menu item',
  chat_channel: 'Channel',
  account: 'Account',
  session: 'Session',
};

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const { ignored, ...search } = useSearch(parseAuditSearch);
  // The hook itself rather than `reads.useReads()`: a failed refresh is said above the rows still shown.
  const { data: entries, error, isValidating, mutate } = useRead(queryOf(auditRead(search)), loaded.entries);
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.shellAudit;
  const filtered = isFiltered(search);
  const clearHref = auditHref({ ...search, page: 1, person: '', kind: '', from: '', to: '' });
  const setFilter = useSetListFilter<AuditFilterName | 'pageSize'>();

  return (
    <div className="stack-lg audit">
      <PageHeader
        eyebrow="Admin"
        title="Audit trail"
        actions={
          <ExportCsvLink href={auditExportHref(search)} />
        }
      >
        <p>Every change staff and admins make to members, owners, door access, stalls, menus, channels and accounts, and every sign-in, newest first: who, when, and each field before and after. Orders moving through the kitchens are the crew’s work and are not listed. Nobody can edit or delete it.</p>
      </PageHeader>

      <div className="toolbar">
        <SearchBox value={search.person} onSearch={(q) => setFilter({ person: q })} label="Search by person" placeholder="Who: name or email" busy={busy} />
        <div className="toolbar-filters">
          <label className="field-inline">
            <span>Kind</span>
            <select value={search.kind} onChange={(e) => setFilter({ kind: e.target.value })}>
              <option value="">All changes</option>
              {AUDIT_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {AUDIT_KIND_LABELS[kind]}
                </option>
              ))}
            </select>
          </label>
          <DayRangeFields from={search.from} to={search.to} onChange={setFilter} />
          <PageSizeField value={search.pageSize} onChange={(value) => setFilter({ pageSize: value })} />
        </div>
        {filtered ? (
          <AppLink to={clearHref} className="btn">
            Clear filters
          </AppLink>
        ) : null}
      </div>
      <IgnoredParamsBanner ignored={ignored} />

      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the audit trail: {errorMessage(error)}
        </LoadError>
      ) : null}

      <PagedList
        page={search.page}
        pageSize={entries.pageSize}
        total={entries.total}
        totalIsLowerBound={entries.totalIsLowerBound}
        next={entries.next}
        previous={entries.previous}
        count={entries.items.length}
        hrefFor={(page, cursor) => auditHref({ ...search, page, next: cursor?.next ?? '', previous: cursor?.previous ?? '' })}
        label="Audit pages"
        noun="changes"
        empty={
          filtered ? (
            <NoMatchState title="No changes match these filters" clearTo={clearHref} clearLabel="Clear filters">
              Try another person or kind, or a wider range of days.
            </NoMatchState>
          ) : (
            <EmptyState icon="activity" title="No changes yet">
              Changes to members, owners, door access, stalls, menus, chat channels and accounts appear here as they are made.
            </EmptyState>
          )
        }
      >
        <div className="audit-table-box">
          <table className="audit-table" aria-busy={busy}>
            <caption className="visually-hidden">Audit trail, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {entries.items.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="When">
                    <time dateTime={entry.at}>{formatWhenExact(entry.at)}</time>
                  </td>
                  <td data-label="Who">
                    {/* One grid cell: on a phone the cell is a label column and a value column. */}
                    <div>
                      <span className="audit-strong">{entry.actor ? entry.actor.name : 'Command line or server'}</span>
                      {entry.actor ? (
                        <span className="audit-sub">
                          {entry.actor.email} · {entry.actor.role}
                        </span>
                      ) : null}
                    </div>
                  </td>
                  <td data-label="What">
                    <div>
                      <span className="audit-strong">
                        {KIND_NOUNS[entry.kind]} {entry.action}
                      </span>
                      <span className="audit-sub">{entry.subject}</span>
                    </div>
                  </td>
                  <td data-label="Changes">
                    <Changes entry={entry} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </PagedList>
    </div>
  );
}
