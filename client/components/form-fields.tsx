import { useEffect, useId, useRef } from 'react';
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';

type Common = { label: string; error?: string; hint?: ReactNode };

/** A labelled input whose error is announced and tied to it (aria-describedby). */
export function TextField({ label, error, hint, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

export function SelectField({ label, error, hint, children, ...select }: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...select}>
        {children}
      </select>
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** After a failed submit, focus moves to the first field with an error (or the form's alert). */
export function useFocusFirstInvalid(errors: { fields: object; form?: string }) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const form = ref.current;
    if (!form || (!errors.form && Object.keys(errors.fields).length === 0)) return;
    const target = form.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.querySelector<HTMLElement>('[role="alert"]');
    target?.focus();
  }, [errors]);
  return ref;
}

/** The submit row of a modal form: cancel and a primary button that shows its pending state. */
export function FormActions({ pending, submitLabel, pendingLabel, onCancel, danger = false }: { pending: boolean; submitLabel: string; pendingLabel: string; onCancel: () => void; danger?: boolean }) {
  // A destructive dialog opens with focus on Cancel, the safe choice.
  return (
    <div className="form-actions">
      <button type="button" className="btn" onClick={onCancel} data-autofocus={danger ? true : undefined}>
        Cancel
      </button>
      <button type="submit" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} disabled={pending} aria-busy={pending}>
        {pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
        {pending ? pendingLabel : submitLabel}
      </button>
    </div>
  );
}
