import { AppLink } from '@/lib/app-link';
import { formatCount } from '@/lib/format';
import { pageCount } from '@pages/search-params';

/**
 * "Showing 11–20 of 57 · Previous · Page 2 of 6 · Next" for a paged list. `page` is the 1-based
 * URL page; `hrefFor` builds the link of another page (keeping the other search params).
 */
export function Pagination({
  page,
  pageSize,
  total,
  totalIsLowerBound = false,
  hrefFor,
  label,
  noun = 'items',
}: {
  page: number;
  pageSize: number;
  total: number;
  /** There are at least `total`: "of 1,000+", "Page 1 of 42+", and a next page past the last counted. */
  totalIsLowerBound?: boolean;
  hrefFor: (page: number) => string;
  label: string;
  noun?: string;
}) {
  const pages = pageCount(total, pageSize);
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const pastTheEnd = total > 0 && first > total;
  return (
    <nav className="pagination" aria-label={label}>
      <p className="pagination-count muted small">
        {total === 0 ? `No ${noun}` : pastTheEnd ? `Past the end of ${formatCount(total)} ${noun}` : `Showing ${formatCount(first)}–${formatCount(last)} of ${formatCount(total, totalIsLowerBound)} ${noun}`}
      </p>
      <div className="pagination-controls">
        {page > 1 ? (
          <AppLink className="btn btn-small" to={hrefFor(Math.min(page - 1, pages))} rel="prev">
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
        {page < pages || (totalIsLowerBound && !pastTheEnd) ? (
          <AppLink className="btn btn-small" to={hrefFor(page + 1)} rel="next">
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
