import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Icon } from './icon';

/** Toasts vanish on their own after this long (docs/ARCHITECTURE.md "Client conventions"). */
export const TOAST_LIFETIME_MS = 5000;

export type ToastTone = 'info' | 'success' | 'error';
export type ToastOptions = { title?: string; message: string; tone?: ToastTone };
type Toast = ToastOptions & { id: number };

type ToastApi = { show: (toast: ToastOptions) => number; dismiss: (id: number) => void };
const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const toast = useContext(ToastContext);
  if (!toast) throw new Error('useToast() needs a <ToastProvider> above it');
  return toast;
}

let seq = 0;

/** The toast host: a polite live region in a corner, newest last. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback((toast: ToastOptions) => {
    const id = ++seq;
    setToasts((list) => [...list.slice(-3), { ...toast, id }]);
    return id;
  }, []);
  const value = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <section className="toasts" aria-label="Notifications">
        {/* The live region wraps the list: a list may not take the status role itself (it would stop being a list). */}
        <div role="status" aria-live="polite">
          <ol>
            {toasts.map((toast) => (
              <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
            ))}
          </ol>
        </div>
      </section>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const onDismissRef = useRef(onDismiss);
  useEffect(() => {
    const timer = setTimeout(() => onDismissRef.current(toast.id), TOAST_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [toast.id]);
  const tone = toast.tone ?? 'info';
  return (
    <li className={`toast toast-${tone}`}>
      <span className="toast-icon" aria-hidden="true">
        <Icon name={tone === 'error' ? 'alert' : tone === 'success' ? 'check' : 'info'} size={18} />
      </span>
      <div className="toast-text">
        {toast.title ? <strong>{toast.title}</strong> : null}
        <span>{toast.message}</span>
      </div>
      <button type="button" className="icon-button" onClick={() => onDismiss(toast.id)} aria-label="Dismiss notification">
        <Icon name="close" size={16} />
      </button>
    </li>
  );
}
