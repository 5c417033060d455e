import type { ReactNode } from 'react';
import { Icon } from '../../../components/icon';
import { Spinner } from '../../../components/spinner';

/** A Kisi read that failed (Kisi down: the proxy's 502/504, say), inside the page with a retry. */
export function KisiLoadError({ what, message, onRetry, retrying }: { what: string; message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div className="banner banner-danger kisi-load-error" role="alert">
      <p>
        Could not load {what} from Kisi: {message}
      </p>
      <button type="button" className="btn btn-small" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
        <Icon name="refresh" size={16} /> {retrying ? 'Trying…' : 'Try again'}
      </button>
    </div>
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
