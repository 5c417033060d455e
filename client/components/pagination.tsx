import { AppLink } from '@/lib/app-link';
import { formatCount } from '@/lib/format';
import { pageCount } from '@pages/search-params';

/** The cursor of a list paged by cursor that a page's link carries (none for the first page). */
export type PageCursor = { next?: string; previous?: string };

/**
 * "Showing 11–20 of 57 · Previous · Page 2 of 6 · Next" for a paged list. `page` is the 1-based
 * URL page; `hrefFor` builds the link of another page (keeping the other search params). A list
 * paged by cursor passes the answer's `next` and `previous`: its links then carry them, and Next is
 * offered exactly when there is a next page.
 */
export function Pagination({
  page,
  pageSize,
  total,
  totalIsLowerBound = false,
  next,
  previous,
  hrefFor,
  label,
  noun = 'items',
}: {
  page: number;
  pageSize: number;
  total: number;
  /** There are at least `total`: "of 1,000+", "Page 1 of 42+", and a next page past the last counted. */
  totalIsLowerBound?: boolean;
  /** Paged by cursor: the cursors of the pages after and before this one. */
  next?: string;
  previous?: string;
  hrefFor: (page: number, cursor?: PageCursor) => string;
  label: string;
  noun?: string;
}) {
  const pages = pageCount(total, pageSize);
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const pastTheEnd = total > 0 && first > total;
  const byCursor = next !== undefined || previous !== undefined;
  const hasNext = byCursor ? next !== undefined : page < pages || (totalIsLowerBound && !pastTheEnd);
  const nextHref = () => (next ? hrefFor(page + 1, { next }) : hrefFor(page + 1));
  // The first page has no cursor: its address is the list's own.
  const previousHref = () => (page - 1 > 1 && previous ? hrefFor(page - 1, { previous }) : hrefFor(Math.max(1, Math.min(page - 1, pages))));
  return (
    <nav className="pagination" aria-label={label}>
      <p className="pagination-count muted small">
        {total === 0 ? `No ${noun}` : pastTheEnd ? `Past the end of ${formatCount(total)} ${noun}` : `Showing ${formatCount(first)}–${formatCount(last)} of ${formatCount(total, totalIsLowerBound)} ${noun}`}
      </p>
      <div className="pagination-controls">
        {page > 1 ? (
          <AppLink className="btn btn-small" to={previousHref()} rel="prev">
            Previous
          </AppLink>
        ) : (
          <span className="btn btn-small" aria-disabled="true">
            Previous
          </span>
        )}
        <span className="pagination-page tabular" aria-current="page">
          {pastTheEnd ? `${formatCount(pages)} ${pages === 1 ? 'page' : 'pages'} in all` : `Page ${formatCount(page)} of ${formatCount(pages, totalIsLowerBound)}`}
        </span>
        {hasNext ? (
          <AppLink className="btn btn-small" to={nextHref()} rel="next">
            Next
          </AppLink>
        ) : (
          <span className="btn btn-small" aria-disabled="true">
            Next
          </span>
        )}
      </div>
    </nav>
  );
}
