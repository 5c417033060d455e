import { useEffect, useRef, useState } from 'react';
import type { FormEvent, RefObject } from 'react';
import type { FormErrors } from './problem-fields';

/**
 * A message box after `sent` went out: the box stays open while a send is on its way, so what was
 * typed meanwhile (after the sent text, or instead of it) stays; only the sent text goes.
 */
export const withoutSent = (now: string, sent: string): string => (now.startsWith(sent) ? now.slice(sent.length).replace(/^\s+/, '') : now);

/** What `<ModalForm>` needs from `useForm` to render the form element and its alert. */
export type FormBinding = { ref: RefObject<HTMLFormElement | null>; onSubmit: (event: FormEvent) => void; errors: { form?: string } };

/**
 * The state of a create/edit form: its values, the `{fields, form}` errors and the pending
 * submit. `check` runs first and stops the submit with its messages; `send` runs with the button
 * pending; when it throws, `failed` turns the error into messages (problem-fields or kisi-errors).
 * The form stays pending after a success: the caller closes or replaces it.
 */
export function useForm<V extends Record<string, string>>({
  initial,
  check,
  send,
  failed,
}: {
  initial: V;
  check?: (values: V) => Partial<Record<keyof V & string, string>>;
  send: (values: V) => Promise<void>;
  failed: (error: unknown) => FormErrors<keyof V & string>;
}) {
  type F = keyof V & string;
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors<F>>({ fields: {} });
  const [pending, setPending] = useState(false);
  const ref = useRef<HTMLFormElement>(null);

  // After a failed submit, focus moves to the first field with an error (or the form's alert).
  useEffect(() => {
    const form = ref.current;
    if (!form || (!errors.form && Object.keys(errors.fields).length === 0)) return;
    const target = form.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.querySelector<HTMLElement>('[role="alert"]');
    target?.focus();
  }, [errors]);

  const run = async () => {
    const missing = check?.(values) ?? {};
    if (Object.keys(missing).length) return setErrors({ fields: missing });
    setPending(true);
    setErrors({ fields: {} });
    try {
      await send(values);
    } catch (error) {
      setErrors(failed(error));
      setPending(false);
    }
  };

  /** The props of a field bound to `values[name]` and its error. */
  const field = <K extends F>(name: K) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((old) => ({ ...old, [name]: event.target.value })),
    error: errors.fields[name],
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };

  return { values, errors, pending, field, ref, onSubmit };
}
