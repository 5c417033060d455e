import { useEffect, useRef, useState } from 'react';
import type { FormEvent, RefObject } from 'react';
import * as v from 'valibot';
import { firstKeyIn, formErrors, placeMessages, type FieldOf, type FormErrors } from './problem-fields';

/**
 * A message box after `sent` went out: the box stays open while a send is on its way, so what was
 * typed meanwhile (after the sent text, or instead of it) stays; only the sent text goes.
 */
export const withoutSent = (now: string, sent: string): string => (now.startsWith(sent) ? now.slice(sent.length).replace(/^\s+/, '') : now);

/**
 * Checks `input` with a contract's schema (an endpoint's body, as the server will): each message on
 * the field its path names, the others as the form message. The messages are the contract's own, the
 * words the server's 400 would use.
 */
export function checkInput<F extends string>(schema: v.GenericSchema, input: unknown, fieldOf: FieldOf<F>): FormErrors<F> {
  const result = v.safeParse(schema, input);
  return result.success ? { fields: {} } : issuesOn(result.issues, fieldOf);
}

const issuesOn = <F extends string>(issues: readonly v.BaseIssue<unknown>[], fieldOf: FieldOf<F>) =>
  placeMessages(
    issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message })),
    fieldOf,
  );

const hasErrors = (errors: FormErrors<string>) => Boolean(errors.form) || Object.keys(errors.fields).length > 0;

/** What `<ModalForm>` needs from `useForm` to render the form element and its alert. */
export type FormBinding = { ref: RefObject<HTMLFormElement | null>; onSubmit: (event: FormEvent) => void; errors: { form?: string } };

/**
 * The state of a form that sends to an endpoint: its values (the fields' text), the `{fields, form}`
 * messages and the pending submit. On submit the values become the body (`toInput`), which the
 * endpoint's own body schema (`schema`) checks before anything is sent; then `send` runs with the
 * checked body (what the server makes of it too: trimmed, blanks as null) and the button pending.
 * When it throws, `failed` places the error (by default the server's 400 problem on the same
 * fields, a 409 on `conflictField`). The form stays pending after a success: the caller closes or
 * replaces it.
 */
export function useForm<V extends Record<string, string>, S extends v.GenericSchema>({
  schema,
  initial,
  toInput,
  fieldOf,
  send,
  conflictField,
  failed,
  clearOnFailure = [],
}: {
  /** The schema the server checks the body with (`someApi.someWrite.body`), or the contract's schema of the part the form makes. */
  schema: S;
  initial: V;
  /**
   * The fields' text as the body's parts: numbers parsed, say. Each part is left for the schema to
   * judge (an owner not chosen is `undefined`, and the contract's message asks for one).
   */
  toInput: (values: V) => { [K in keyof v.InferInput<S>]: unknown };
  /** Which field a body path belongs to; by default its first key, when that is a field's name. */
  fieldOf?: FieldOf<keyof V & string>;
  send: (body: v.InferOutput<S>, values: V) => Promise<void>;
  conflictField?: keyof V & string;
  failed?: (error: unknown) => FormErrors<keyof V & string>;
  /** Fields emptied when the send fails (a password: the next try starts from a clean field). */
  clearOnFailure?: readonly (keyof V & string)[];
}) {
  type F = keyof V & string;
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors<F>>({ fields: {} });
  const [pending, setPending] = useState(false);
  const ref = useRef<HTMLFormElement>(null);
  const placeOn = fieldOf ?? firstKeyIn(Object.keys(initial) as F[]);

  // After a failed submit, focus moves to the first field with an error (or the form's alert).
  useEffect(() => {
    const form = ref.current;
    if (!form || !hasErrors(errors)) return;
    const target = form.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.querySelector<HTMLElement>('[role="alert"]');
    target?.focus();
  }, [errors]);

  const run = async () => {
    const checked = v.safeParse(schema, toInput(values));
    if (!checked.success) return setErrors(issuesOn(checked.issues, placeOn));
    setPending(true);
    setErrors({ fields: {} });
    try {
      await send(checked.output, values);
    } catch (error) {
      setErrors(failed ? failed(error) : formErrors(error, placeOn, { conflictField }));
      if (clearOnFailure.length) setValues((old) => ({ ...old, ...Object.fromEntries(clearOnFailure.map((name) => [name, ''])) }));
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
    if (pending) return;
    void run();
  };

  return { values, errors, pending, field, ref, onSubmit };
}
