import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useModal } from './modal-host';
import { useToast } from './toast-host';
import { errorMessage } from '@/lib/api-client';
import { FormActions } from './form-fields';
import { Icon } from './icon';

/**
 * The body of a "Delete …?" (or any "Do this for good?") modal. The action runs on confirm; when
 * the server refuses (a 409 "still has members", say) its message stays in the modal with
 * `refusedExtra` beside it.
 */
export function ConfirmDelete({
  children,
  confirmLabel,
  pendingLabel = 'Deleting…',
  cancelLabel,
  onConfirm,
  onCancel,
  refusedExtra,
  refusal = errorMessage,
}: {
  children: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  cancelLabel?: string;
  onConfirm: () => Promise<void>;
  onCancel: () => void;
  refusedExtra?: ReactNode;
  refusal?: (error: unknown) => string;
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
      setRefused(refusal(error));
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
      <FormActions pending={pending} submitLabel={confirmLabel} pendingLabel={pendingLabel} cancelLabel={cancelLabel} onCancel={onCancel} danger />
    </form>
  );
}

/** The trash button of a row that opens its "Delete …?" modal; `label` names the row ("Delete Ada Lovelace"). */
export function DeleteButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="icon-button danger-hover" onClick={onClick} aria-label={label}>
      <Icon name="trash" size={18} />
    </button>
  );
}

export type DeleteOptions = {
  /** The modal's title, "Delete …?". */
  title: string;
  confirmLabel: string;
  /** What the delete takes with it, in words. */
  body: ReactNode;
  remove: () => Promise<void>;
  /** The success toast. */
  deleted: string;
  refusedExtra?: ReactNode;
  /**
   * Why it cannot be deleted now, when that is known before asking (an owner who still has members):
   * the modal says so, with no delete button. The server still refuses if it changed meanwhile.
   */
  blocked?: ReactNode;
  /** The refusal in words when the usual message would not do (Kisi's own `{error}`, say). */
  refusal?: (error: unknown) => string;
  /** After the toast; by default the modal closes. A page of the deleted thing navigates away instead (that closes the modal). */
  afterDelete?: (close: () => void) => void;
};

/** Opens the "Delete …?" modal: the delete runs on confirm, then a success toast (the api's delete has invalidated the lists). */
export function useConfirmDelete() {
  const modal = useModal();
  const toast = useToast();
  return ({ title, confirmLabel, body, remove, deleted, refusedExtra, blocked, refusal, afterDelete = (close) => close() }: DeleteOptions) =>
    modal.open({
      title,
      content: (close) =>
        blocked ? (
          <div className="confirm">
            <div className="banner banner-warning" role="alert">
              {blocked}
            </div>
            <div className="form-actions">
              <button type="button" className="btn" onClick={close}>
                Close
              </button>
            </div>
          </div>
        ) : (
        <ConfirmDelete
          confirmLabel={confirmLabel}
          onCancel={close}
          refusedExtra={refusedExtra}
          refusal={refusal}
          onConfirm={async () => {
            await remove();
            toast.show({ tone: 'success', message: deleted });
            afterDelete(close);
          }}
        >
          {body}
        </ConfirmDelete>
        ),
    });
}
