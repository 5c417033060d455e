import { useId } from 'react';
import type { ComponentPropsWithRef, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import type { FormBinding } from '@/lib/form-state';

type Common = { label: string; error?: string; hint?: ReactNode };

type ControlProps = { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };

/**
 * The frame of a field: label, the control, hint and error; the control gets the ids that tie them
 * together. The fields below are this frame around one element; a control of one's own (an input
 * between two buttons) uses it directly.
 */
export function Field({ label, error, hint, control }: Common & { control: (props: ControlProps) => ReactNode }) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
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

/** A labelled input whose error is announced and tied to it (aria-describedby); a `ref` reaches the input itself. */
export function TextField({ label, error, hint, ...input }: Common & ComponentPropsWithRef<'input'>) {
  return <Field label={label} error={error} hint={hint} control={(props) => <input {...props} {...input} />} />;
}

/** A labelled multi-line text (a description, a note), wired like `TextField`. */
export function TextAreaField({ label, error, hint, ...textarea }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <Field label={label} error={error} hint={hint} control={(props) => <textarea rows={3} {...props} {...textarea} />} />;
}

export function SelectField({ label, error, hint, children, ...select }: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      control={(props) => (
        <select {...props} {...select}>
          {children}
        </select>
      )}
    />
  );
}

/** The element of a modal create/edit form (see `useForm`), with the form-level message as its alert above the fields. */
export function ModalForm({ form, children }: { form: FormBinding; children: ReactNode }) {
  return (
    <form ref={form.ref} className="form form-modal" noValidate onSubmit={form.onSubmit}>
      {form.errors.form ? (
        <div className="banner banner-danger" role="alert" tabIndex={-1}>
          {form.errors.form}
        </div>
      ) : null}
      {children}
    </form>
  );
}

/** The submit row of a modal form: cancel and a primary button that shows its pending state. */
export function FormActions({
  pending,
  submitLabel,
  pendingLabel,
  onCancel,
  cancelLabel = 'Cancel',
  danger = false,
}: {
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  onCancel: () => void;
  cancelLabel?: string;
  danger?: boolean;
}) {
  // A destructive dialog opens with focus on Cancel, the safe choice.
  return (
    <div className="form-actions">
      <button type="button" className="btn" onClick={onCancel} data-autofocus={danger ? true : undefined}>
        {cancelLabel}
      </button>
      <button type="submit" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} disabled={pending} aria-busy={pending}>
        {pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
        {pending ? pendingLabel : submitLabel}
      </button>
    </div>
  );
}
