import type { ReactNode } from 'react';
import { AppLink } from '@/lib/app-link';
import { pageCount } from '@pages/search-params';
import { EmptyState } from './empty-state';
import { Pagination, type PageCursor } from './pagination';

/**
 * A page of a list: its rows (`children`) and the pagination below. A page without rows shows, in
 * a card, the list's own `empty` state, or past the last page a link back to that page.
 */
export function PagedList({
  page,
  pageSize,
  total,
  totalIsLowerBound,
  next,
  previous,
  count,
  hrefFor,
  label,
  noun,
  empty,
  children,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** There are at least `total` (a search stopped counting there). */
  totalIsLowerBound?: boolean;
  /** Paged by cursor: the answer's cursors of the pages after and before this one. */
  next?: string;
  previous?: string;
  /** How many rows this page has. */
  count: number;
  hrefFor: (page: number, cursor?: PageCursor) => string;
  /** The pagination's accessible name. */
  label: string;
  noun: string;
  empty: ReactNode;
  children: ReactNode;
}) {
  const pages = pageCount(total, pageSize);
  return (
    <>
      {count > 0 ? (
        children
      ) : (
        <section className="card">
          {total > 0 && totalIsLowerBound ? (
            // Counted only so far (a list of years): its start is the page to offer.
            <EmptyState
              title="This page is past the end"
              action={
                <AppLink to={hrefFor(1)} className="btn btn-primary">
                  Go to the first page
                </AppLink>
              }
            >
              The list has changed since this link was made.
            </EmptyState>
          ) : total > 0 ? (
            <EmptyState
              title="This page is past the end"
              action={
                <AppLink to={hrefFor(pages)} className="btn btn-primary">
                  Go to page {pages}
                </AppLink>
              }
            >
              There are {total} {noun} on {pages} {pages === 1 ? 'page' : 'pages'}.
            </EmptyState>
          ) : (
            empty
          )}
        </section>
      )}
      <Pagination page={page} pageSize={pageSize} total={total} totalIsLowerBound={totalIsLowerBound} next={next} previous={previous} hrefFor={hrefFor} label={label} noun={noun} />
    </>
  );
}
