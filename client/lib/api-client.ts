import type { Problem } from '@contracts/problem.contract';

/**
 * The one fetch helper (spec §7): the body is read as text; a response that is not ok throws an
 * `ApiError` carrying the status and the body text (plus the parsed problem when the body is
 * problem JSON); an ok body is parsed as JSON, falling back to the text itself.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The raw response body text. */
  readonly body: string;
  /** The parsed `application/problem+json` body, when it is one. */
  readonly problem?: Problem;
  readonly url: string;

  constructor(status: number, body: string, url: string, problem?: Problem) {
    super(problem?.detail ?? problem?.title ?? (body.trim() || `Request failed with status ${status}`));
    this.status = status;
    this.body = body;
    this.url = url;
    this.problem = problem;
  }

  /** What the error screen prints as JSON. */
  toJSON() {
    return { name: this.name, status: this.status, url: this.url, message: this.message, ...(this.problem ? { problem: this.problem } : { body: this.body }) };
  }
}

/** A network failure (server unreachable, offline, aborted): no response at all. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(readonly url: string, cause: unknown) {
    super(`Could not reach the server (${cause instanceof Error ? cause.message : String(cause)})`);
  }
  toJSON() {
    return { name: this.name, url: this.url, message: this.message };
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

function asProblem(text: string): Problem | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && 'status' in value && 'title' in value) {
      const p = value as Problem;
      if (typeof p.status === 'number' && typeof p.title === 'string') return p;
    }
  } catch {
    // not JSON: the text stays the error body
  }
  return undefined;
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON with `Content-Type: application/json` (the BFF's CSRF rule). */
  json?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
};

/** An ok answer with what a caller may need beside the body (Kisi pages over `X-Collection-Range`). */
export type ApiResponse<T> = { data: T; status: number; headers: Headers };

/** The one fetch: `request` is this without the headers. */
export async function requestWithHeaders<T = unknown>(url: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  let response: Response;
  try {
    response = await fetch(url, { method: options.method ?? 'GET', headers, body, signal: options.signal, credentials: 'same-origin' });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new NetworkError(url, cause);
  }
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text, url, asProblem(text));
  const done = (data: unknown) => ({ data: data as T, status: response.status, headers: response.headers });
  if (text === '') return done(undefined);
  try {
    return done(JSON.parse(text));
  } catch {
    return done(text);
  }
}

export async function request<T = unknown>(url: string, options: RequestOptions = {}): Promise<T> {
  return (await requestWithHeaders<T>(url, options)).data;
}

export const api = {
  get: <T = unknown>(url: string, signal?: AbortSignal) => request<T>(url, { signal }),
  post: <T = unknown>(url: string, json?: unknown) => request<T>(url, { method: 'POST', json }),
  put: <T = unknown>(url: string, json?: unknown) => request<T>(url, { method: 'PUT', json }),
  patch: <T = unknown>(url: string, json?: unknown) => request<T>(url, { method: 'PATCH', json }),
  delete: <T = unknown>(url: string) => request<T>(url, { method: 'DELETE' }),
};

/** A short, human sentence for an error, for banners and toasts. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Something went wrong.';
}
