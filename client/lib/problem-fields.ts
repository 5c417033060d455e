import { isApiError, errorMessage } from './api-client';

/**
 * Splits a failed form submit into per-field messages and one form-level message. A problem's
 * `errors[].path` such as `body.email` lands on the field `email` when the form has it; anything
 * else (and the problem's detail) becomes the form message.
 */
export type FormErrors<F extends string> = { fields: Partial<Record<F, string>>; form?: string };

export function formErrors<F extends string>(error: unknown, fields: readonly F[], { conflictField }: { conflictField?: F } = {}): FormErrors<F> {
  const found = placeErrors(error, fields);
  // A conflict (409, a duplicate email say) is that field's problem.
  if (conflictField && isApiError(error, 409) && !found.fields[conflictField]) return { fields: { [conflictField]: found.form } as FormErrors<F>['fields'] };
  return found;
}

function placeErrors<F extends string>(error: unknown, fields: readonly F[]): FormErrors<F> {
  const result: FormErrors<F> = { fields: {} };
  if (!isApiError(error) || !error.problem) return { fields: {}, form: errorMessage(error) };
  const unplaced: string[] = [];
  for (const item of error.problem.errors ?? []) {
    const name = item.path.replace(/^body\./, '').split('.')[0] as F;
    if (fields.includes(name) && !result.fields[name]) result.fields[name] = item.message;
    else unplaced.push(item.message);
  }
  const placedAny = Object.keys(result.fields).length > 0;
  const detail = error.problem.detail ?? error.problem.title;
  if (unplaced.length) result.form = unplaced.join(' ');
  else if (!placedAny) result.form = detail;
  return result;
}
