import type { ReactNode } from 'react';
import { Icon } from './icon';

/** A read that failed, said inside the page (`children`: what and why) with a retry button. */
export function LoadError({ children, onRetry, retrying, className }: { children: ReactNode; onRetry: () => void; retrying: boolean; className?: string }) {
  return (
    <div className={className ? `banner banner-danger ${className}` : 'banner banner-danger'} role="alert">
      <p>{children}</p>
      <button type="button" className="btn btn-small" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
        <Icon name="refresh" size={16} /> {retrying ? 'Trying…' : 'Try again'}
      </button>
    </div>
  );
}
