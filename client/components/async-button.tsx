import { useState } from 'react';
import type { ReactNode } from 'react';

/**
 * A button that runs an async action and shows its own pending state until it settles (the
 * action reports its outcome itself, with a toast). A second press while pending does nothing.
 */
export function AsyncButton({
  run,
  children,
  pendingLabel,
  className = 'btn btn-small',
  'aria-label': ariaLabel,
}: {
  run: () => Promise<unknown>;
  children: ReactNode;
  /** What the button says while the action runs ("Saving…"). */
  pendingLabel: ReactNode;
  className?: string;
  'aria-label'?: string;
}) {
  const [pending, setPending] = useState(false);
  const onClick = async () => {
    if (pending) return;
    setPending(true);
    try {
      await run();
    } finally {
      setPending(false);
    }
  };
  return (
    // aria-disabled rather than disabled while pending: the button keeps the keyboard focus.
    <button type="button" className={className} onClick={() => void onClick()} aria-disabled={pending || undefined} aria-busy={pending} aria-label={ariaLabel}>
      {pending ? <span className="spinner" aria-hidden="true" /> : null}
      {pending ? pendingLabel : children}
    </button>
  );
}
