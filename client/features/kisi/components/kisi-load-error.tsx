import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { PagedList } from '@/components/paged-list';
import { Spinner } from '@/components/spinner';
import { kisiErrorMessage, type KisiPage } from '@/lib/kisi';
import type { InPageRead } from '@/lib/route-reads';
import { pageHref } from '../kisi.api';

/** A Kisi read that failed (Kisi down: the proxy's 502/504, say), inside the page with a retry. */
export function KisiLoadError({ what, message, onRetry, retrying }: { what: string; message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <LoadError className="kisi-load-error" onRetry={onRetry} retrying={retrying}>
      Could not load {what} from Kisi: {message}
    </LoadError>
  );
}

/**
 * A Kisi read on the page: its failure with a retry, a spinner until the first answer, then
 * `children` with the data. Data already shown stays under a failed refresh.
 */
export function KisiLoaded<T>({ what, read, children }: { what: string; read: InPageRead<T>; children: (data: T) => ReactNode }) {
  const { data, error, isValidating, mutate } = read;
  return (
    <>
      {error ? <KisiLoadError what={what} message={kisiErrorMessage(error)} onRetry={() => void mutate()} retrying={isValidating} /> : null}
      {data !== undefined ? children(data) : error ? null : <Spinner />}
    </>
  );
}

/** A paged Kisi list on its page: the read's failure or spinner, then the rows of this page, its empty state and the pagination. */
export function KisiPages<T>({
  what,
  read,
  search,
  path,
  label,
  noun,
  empty,
  children,
}: {
  what: string;
  read: InPageRead<KisiPage<T>>;
  search: { page: number; query?: string };
  /** The list's own route path (pagination links keep the search). */
  path: string;
  label: string;
  noun: string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <KisiLoaded what={what} read={read}>
      {(page) => (
        <PagedList
          page={search.page}
          pageSize={page.limit}
          total={page.total}
          count={page.items.length}
          hrefFor={(n) => pageHref(path, { ...search, page: n })}
          label={label}
          noun={noun}
          empty={empty}
        >
          {children(page.items)}
        </PagedList>
      )}
    </KisiLoaded>
  );
}
