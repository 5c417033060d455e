import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from './icon';

export type ModalOptions = {
  title: string;
  description?: string;
  /** The body; given a `close` function when it needs one. */
  content: ReactNode | ((close: () => void) => ReactNode);
  /** A centred dialog (default) or a panel sliding in from the right. */
  variant?: 'dialog' | 'panel';
};

/* The dialog the modal host (modal-host.tsx) shows: focus kept inside, page scroll locked, Escape and a backdrop click close it (the backdrop not once something was typed in it). */

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Locks page scroll while at least one caller holds the lock. */
let scrollLocks = 0;
let savedOverflow = '';
let savedPadding = '';
function lockScroll() {
  if (scrollLocks++ > 0) return;
  const body = document.body;
  const scrollbar = window.innerWidth - document.documentElement.clientWidth;
  savedOverflow = body.style.overflow;
  savedPadding = body.style.paddingRight;
  body.style.overflow = 'hidden';
  if (scrollbar > 0) body.style.paddingRight = `${scrollbar}px`;
}
function unlockScroll() {
  if (--scrollLocks > 0) return;
  scrollLocks = 0;
  document.body.style.overflow = savedOverflow;
  document.body.style.paddingRight = savedPadding;
}

export function Modal({ title, description, content, variant = 'dialog', onClose }: ModalOptions & { onClose: () => void }) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    lockScroll();
    const dialog = dialogRef.current;
    const first = dialog?.querySelector<HTMLElement>('[data-autofocus]') ?? dialog?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? dialog)?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab' || !dialog) return;
      const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (focusable.length === 0) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const firstEl = focusable[0]!;
      const lastEl = focusable[focusable.length - 1]!;
      const active = document.activeElement;
      if (event.shiftKey && (active === firstEl || active === dialog)) {
        event.preventDefault();
        lastEl.focus();
      } else if (!event.shiftKey && active === lastEl) {
        event.preventDefault();
        firstEl.focus();
      } else if (!dialog.contains(active)) {
        event.preventDefault();
        firstEl.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      unlockScroll();
      // The opener may be gone (the row it deleted): then the page's main region, not the document body.
      if (opener?.isConnected) opener.focus();
      else document.querySelector<HTMLElement>('main[tabindex]')?.focus({ preventScroll: true });
    };
  }, []);

  // Once something was typed in it, a tap beside the dialog (easily made on a phone) leaves it
  // open: only Escape, Close or Cancel, chosen on purpose, throw the typing away.
  const typedIn = useRef(false);
  return createPortal(
    <div
      className={`modal-backdrop modal-${variant}`}
      data-testid="modal-backdrop"
      onClick={(event) => {
        if (event.target === event.currentTarget && !typedIn.current) onClose();
      }}
      onInput={() => (typedIn.current = true)}
    >
      <div
        ref={dialogRef}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        <div className="modal-header">
          <div>
            <h2 id={titleId}>{title}</h2>
            {description ? <p id={descriptionId} className="muted">{description}</p> : null}
          </div>
          <button type="button" className="icon-button" onClick={onClose} aria-label="Close">
            <Icon name="close" />
          </button>
        </div>
        <div className="modal-body">{typeof content === 'function' ? content(onClose) : content}</div>
      </div>
    </div>,
    document.body,
  );
}
