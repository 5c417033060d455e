import type { ReactNode } from 'react';
import type { SWRResponse } from 'swr';
import { LoadError } from '@/components/load-error';
import { SearchBox } from '@/components/search-box';
import { AppLink } from '@/lib/app-link';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useSetSearchParam } from '@/lib/search-params';

/** A filter of the list kept in the URL (`param`); choosing `defaultValue` leaves it out of the URL. */
export function FilterSelect({ label, param, value, defaultValue = '', children }: { label: string; param: string; value: string; defaultValue?: string; children: ReactNode }) {
  const setSearchParam = useSetSearchParam();
  return (
    <label className="field-inline">
      <span>{label}</span>
      <select value={value} onChange={(e) => setSearchParam(param, e.target.value === defaultValue ? '' : e.target.value)}>
        {children}
      </select>
    </label>
  );
}

/** The category list could not be read: the list still works, the filter says why it is short. */
export function CategoryLoadError({ error, read }: { error: unknown; read: Pick<SWRResponse, 'mutate' | 'isValidating'> }) {
  if (!error) return null;
  return (
    <p className="muted small">
      The category list could not be loaded ({errorMessage(error)}).{' '}
      <button type="button" className="link-button" onClick={() => void read.mutate()} disabled={read.isValidating}>
        Load it again
      </button>
    </p>
  );
}

/**
 * One tab of the catalogue's list page: the search box and filters, a failed read shown inside the
 * page (with the search still there to change it), what the search found said politely, then the
 * list itself (`children`).
 */
export function CatalogueResults(props: {
  searchLabel: string;
  /** Short enough for a phone's box, about 25 characters ("Search by number (10109-1) or name" was cut): the label says it is a search. */
  placeholder: string;
  query: string;
  busy: boolean;
  filters: ReactNode;
  categoryFailure: ReactNode;
  failure: unknown;
  read: Pick<SWRResponse, 'mutate' | 'isValidating'>;
  /** A list is on the page (a failure is then a refresh that failed). */
  shown: boolean;
  what: 'pieces' | 'parts';
  clearTo: string;
  filtered: boolean;
  summary: string;
  children: ReactNode;
}) {
  const { failure, read, what, shown } = props;
  const setSearchParam = useSetSearchParam();
  return (
    <>
      <div className="toolbar">
        <SearchBox value={props.query} onSearch={(query) => setSearchParam('query', query, { replace: true })} label={props.searchLabel} placeholder={props.placeholder} busy={props.busy} />
        <div className="toolbar-filters">{props.filters}</div>
      </div>
      {props.categoryFailure}
      {failure ? (
        <LoadError onRetry={() => void read.mutate()} retrying={read.isValidating}>
          {shown ? `Could not refresh the ${what}: ` : `Could not load the ${what}: `}
          {errorMessage(failure)}
          {!shown && props.filtered && isApiError(failure, 400) ? (
            <>
              {' '}
              <AppLink to={props.clearTo}>Clear the search and filter</AppLink>
            </>
          ) : null}
        </LoadError>
      ) : null}
      {/* Announced when it changes: what the search found. */}
      <p className="cat-count" role="status">
        {props.summary}
      </p>
      {props.children}
    </>
  );
}
