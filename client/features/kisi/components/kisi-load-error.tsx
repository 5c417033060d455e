import { Icon } from '../../../components/icon';

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
