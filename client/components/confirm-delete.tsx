import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { errorMessage } from '../lib/api-client';
import { FormActions } from './form-actions';

/**
 * The body of a "Delete …?" modal. The delete runs on confirm; when the server refuses (a 409
 * "still has members", say) its message stays in the modal with `onRefused` content beside it.
 */
export function ConfirmDelete({
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  refusedExtra,
}: {
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  onCancel: () => void;
  refusedExtra?: ReactNode;
}) {
  const [pending, setPending] = useState(false);
  const [refused, setRefused] = useState<string>();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setRefused(undefined);
    try {
      await onConfirm();
    } catch (error) {
      setRefused(errorMessage(error));
      setPending(false);
    }
  };

  return (
    <form className="confirm" onSubmit={(e) => void onSubmit(e)}>
      <div className="confirm-text">{children}</div>
      {refused ? (
        <div className="banner banner-danger" role="alert">
          <p>{refused}</p>
          {refusedExtra ? <div className="confirm-extra">{refusedExtra}</div> : null}
        </div>
      ) : null}
      <FormActions pending={pending} submitLabel={confirmLabel} pendingLabel="Deleting…" onCancel={onCancel} danger />
    </form>
  );
}
