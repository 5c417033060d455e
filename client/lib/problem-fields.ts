import { isApiError, errorMessage } from './api-client';

/**
 * A form's messages: one per field, and one for the form as a whole. Client-side checks (the
 * endpoint's body schema, see `useForm`) and the server's 400 problem place their messages the same
 * way, so a message lands on the same field whichever side found it.
 */
export type FormErrors<F extends string> = { fields: Partial<Record<F, string>>; form?: string };

/** Which form field a body path (`email`, `group_link.name`, `cart.0.quantity`) belongs to, if any. */
export type FieldOf<F extends string> = (path: string) => F | undefined;

/** The usual mapping: the path's first key, when the form has a field of that name (the form's names are the body's). */
export const firstKeyIn =
  <F extends string>(fields: readonly F[]): FieldOf<F> =>
  (path) => {
    const name = path.split('.')[0] as F;
    return fields.includes(name) ? name : undefined;
  };

/** Messages by body path placed on their fields (the first per field); the others together become the form message. */
export function placeMessages<F extends string>(issues: readonly { path: string; message: string }[], fieldOf: FieldOf<F>): FormErrors<F> {
  const result: FormErrors<F> = { fields: {} };
  const unplaced: string[] = [];
  for (const { path, message } of issues) {
    const field = fieldOf(path);
    if (field && !result.fields[field]) result.fields[field] = message;
    else if (!field) unplaced.push(message);
  }
  if (unplaced.length) result.form = unplaced.join(' ');
  return result;
}

/**
 * Splits a failed submit into field messages and a form message: a problem's `errors[].path` such
 * as `body.email` lands on its field; anything else (and the problem's detail) is the form message.
 * `fields` is the form's field names (the body's first keys) or a mapping of its own.
 */
export function formErrors<F extends string>(error: unknown, fields: readonly F[] | FieldOf<F>, { conflictField }: { conflictField?: F } = {}): FormErrors<F> {
  if (!isApiError(error) || !error.problem) return { fields: {}, form: errorMessage(error) };
  const fieldOf = typeof fields === 'function' ? fields : firstKeyIn(fields);
  const bodyIssues = (error.problem.errors ?? []).map(({ path, message }) => ({ path: path.replace(/^body\./, ''), message }));
  const found = placeMessages(bodyIssues, fieldOf);
  if (!found.form && Object.keys(found.fields).length === 0) found.form = error.problem.detail ?? error.problem.title;
  // A conflict (409, a duplicate email say) is that field's problem.
  if (conflictField && isApiError(error, 409) && !found.fields[conflictField]) return { fields: { [conflictField]: found.form } as FormErrors<F>['fields'] };
  return found;
}
