import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Pagination, type PageCursor } from './pagination';

/** `/list?page=…&next=|previous=…`, as a list paged by cursor builds its links. */
const hrefFor = (page: number, cursor?: PageCursor) => {
  const params = new URLSearchParams();
  if (page > 1) params.set('page', String(page));
  if (page > 1 && cursor?.next) params.set('next', cursor.next);
  if (page > 1 && cursor?.previous) params.set('previous', cursor.previous);
  return `/list${params.size ? `?${params}` : ''}`;
};

function renderPagination(props: Partial<Parameters<typeof Pagination>[0]>) {
  const router = createMemoryRouter([{ path: '/list', element: <Pagination page={1} pageSize={10} total={1000} hrefFor={hrefFor} label="Pages" noun="events" {...props} /> }], {
    initialEntries: ['/list'],
  });
  render(<RouterProvider router={router} />);
}

describe('Pagination by cursor', () => {
  it('reads "1,000+" naturally and carries the next cursor in its Next link', () => {
    renderPagination({ totalIsLowerBound: true, next: 'n3xt' });
    expect(screen.getByText('Showing 1–10 of 1,000+ events')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 100+')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute('href', '/list?page=2&next=n3xt');
    expect(screen.queryByRole('link', { name: 'Previous' })).toBeNull();
  });

  it('goes back by the previous cursor, and to the plain first page from page 2', () => {
    renderPagination({ page: 5, total: 1040, totalIsLowerBound: true, next: 'n3xt', previous: 'pr3v' });
    expect(screen.getByRole('link', { name: 'Previous' })).toHaveAttribute('href', '/list?page=4&previous=pr3v');
    expect(screen.getByText('Showing 41–50 of 1,040+ events')).toBeInTheDocument();
  });

  it('offers no Next on the last page even when the count stopped, and page 2 goes back to the first page without a cursor', () => {
    renderPagination({ page: 2, total: 17, previous: 'pr3v' });
    expect(screen.queryByRole('link', { name: 'Next' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Previous' })).toHaveAttribute('href', '/list');
  });
});
