import { EVENT_RESULTS } from '@contracts/webhook.contract';
import type { InboxSearch } from '@pages/webhooks.reads';
import { DayRangeFields, PageSizeField } from '@/components/list-filter-fields';
import { SearchBox } from '@/components/search-box';
import { AppLink } from '@/lib/app-link';
import { useRead } from '@/lib/reads';
import { RESULT_LABELS, eventTypeLabel, filterChoices, isFiltered, type InboxFilterName } from '../webhooks.api';

/**
 * The inbox's filters, each one a search param of the page. The door is a select of the doors seen
 * in events (by lock id): a desk knows its few doors by name, a pick cannot be mistyped, and a
 * renamed door keeps its events together. The choices load beside the list, never in its way.
 */
export function EventFilters({
  search,
  busy,
  onChange,
  clearHref,
}: {
  search: InboxSearch;
  busy: boolean;
  onChange: (changes: Partial<Record<InboxFilterName | 'pageSize', string>>) => void;
  clearHref: string;
}) {
  const choices = useRead(filterChoices).data;
  const doors = choices?.doors ?? [];
  const types = choices?.types ?? [];

  return (
    <div className="toolbar inbox-filters">
      <SearchBox value={search.person} onSearch={(q) => onChange({ person: q })} label="Search by person" placeholder="Person: name or email" busy={busy} />
      <div className="toolbar-filters">
        <label className="field-inline">
          <span>Door</span>
          <select value={search.doorId ? String(search.doorId) : ''} onChange={(e) => onChange({ doorId: e.target.value })}>
            <option value="">All doors</option>
            {search.doorId && !doors.some((d) => d.id === search.doorId) ? <option value={search.doorId}>Door #{search.doorId}</option> : null}
            {doors.map((door) => (
              <option key={door.id} value={door.id}>
                {door.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field-inline">
          <span>Result</span>
          <select value={search.result} onChange={(e) => onChange({ result: e.target.value })}>
            <option value="">Any</option>
            {EVENT_RESULTS.map((result) => (
              <option key={result} value={result}>
                {RESULT_LABELS[result]}
              </option>
            ))}
          </select>
        </label>
        <label className="field-inline">
          <span>Type</span>
          <select value={search.type} onChange={(e) => onChange({ type: e.target.value })}>
            <option value="">Any type</option>
            {search.type && !types.includes(search.type) ? <option value={search.type}>{eventTypeLabel(search.type)}</option> : null}
            {types.map((type) => (
              <option key={type} value={type}>
                {eventTypeLabel(type)}
              </option>
            ))}
          </select>
        </label>
        <DayRangeFields from={search.from} to={search.to} onChange={onChange} />
        <PageSizeField value={search.pageSize} onChange={(value) => onChange({ pageSize: value })} />
      </div>
      {isFiltered(search) ? (
        <AppLink to={clearHref} className="btn">
          Clear filters
        </AppLink>
      ) : null}
      <p className="muted small inbox-filters-note">Days are the venue’s local days; the last one is included.</p>
    </div>
  );
}
