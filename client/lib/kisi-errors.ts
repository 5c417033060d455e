import { errorMessage, isApiError } from './api-client';

/**
 * Kisi's own error bodies, passed through the BFF proxy unchanged (bff/contracts/kisi.contract.ts):
 * `{error, code}` and 422 `{errors: {field: [messages]}}`. The BFF's own refusals are problems.
 */

/** Kisi's 422 body `{errors: {field: [messages]}}` as one sentence per field ("Name can't be blank"). */
export function kisiFieldErrors(error: unknown): Record<string, string> | undefined {
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
