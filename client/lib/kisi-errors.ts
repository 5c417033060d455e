import { errorMessage, isApiError } from './api-client';
import type { FormErrors } from './problem-fields';

/**
 * Kisi's own error bodies, passed through the BFF proxy unchanged (bff/contracts/kisi.contract.ts):
 * `{error, code}` and 422 `{errors: {field: [messages]}}`. The BFF's own refusals are problems.
 */

/** Kisi's 422 body `{errors: {field: [messages]}}` as one sentence per field ("Name can't be blank"). */
function kisiFieldErrors(error: unknown): Record<string, string> | undefined {
  if (!isApiError(error) || error.problem) return undefined;
  try {
    const parsed = JSON.parse(error.body) as { errors?: Record<string, unknown> };
    if (!parsed.errors || typeof parsed.errors !== 'object') return undefined;
    const out: Record<string, string> = {};
    for (const [field, messages] of Object.entries(parsed.errors)) {
      const list = Array.isArray(messages) ? messages.map(String) : [String(messages)];
      out[field] = `${field.replace(/_/g, ' ')} ${list.join(', ')}`.replace(/^./, (c) => c.toUpperCase());
    }
    return out;
  } catch {
    return undefined;
  }
}

/** A sentence for a failed Kisi call: Kisi's `{error}` text, a BFF problem's detail, or the usual. */
export function kisiErrorMessage(error: unknown): string {
  if (isApiError(error) && !error.problem) {
    try {
      const parsed = JSON.parse(error.body) as { error?: unknown };
      if (typeof parsed.error === 'string') return parsed.error;
    } catch {
      // not JSON
    }
  }
  return errorMessage(error);
}

/**
 * A failed Kisi write as form errors: each 422 message on the form's field for that Kisi field
 * (`fields` maps Kisi's names to the form's), the others together as the form message; any other
 * failure is the form message.
 */
export function kisiFormErrors<F extends string>(error: unknown, fields: Record<string, F>): FormErrors<F> {
  const kisi = kisiFieldErrors(error);
  if (!kisi) return { fields: {}, form: kisiErrorMessage(error) };
  const result: FormErrors<F> = { fields: {} };
  const unplaced: string[] = [];
  for (const [name, message] of Object.entries(kisi)) {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (field) result.fields[field] = message;
    else unplaced.push(message);
  }
  return { ...result, form: unplaced.join(' ') || undefined };
}
