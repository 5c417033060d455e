import type { ReactNode } from 'react';
import { LoadError } from '@/components/load-error';
import { Spinner } from '@/components/spinner';

/** A Kisi read that failed (Kisi down: the proxy's 502/504, say), inside the page with a retry. */
export function KisiLoadError({ what, message, onRetry, retrying }: { what: string; message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <LoadError className="kisi-load-error" onRetry={onRetry} retrying={retrying}>
      Could not load {what} from Kisi: {message}
    </LoadError>
  );
}

/**
 * A Kisi read (`useKisi`) on the page: its failure with a retry, a spinner until the first
 * answer, then `children` with the data. Data already shown stays under a failed refresh.
 */
export function KisiLoaded<T>({ what, read, children }: { what: string; read: { data?: T; failure?: string; isValidating: boolean; retry: () => void }; children: (data: T) => ReactNode }) {
  const { data, failure, isValidating, retry } = read;
  return (
    <>
      {failure ? <KisiLoadError what={what} message={failure} onRetry={retry} retrying={isValidating} /> : null}
      {data !== undefined ? children(data) : failure ? null : <Spinner />}
    </>
  );
}
