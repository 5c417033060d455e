import { LIVE_POSITION_HEADER, describeEndpoint, urlOf, type CallArgs, type CallInput, type Endpoint, type EndpointOutput } from '@contracts/endpoint.contract';
import type { Problem } from '@contracts/problem.contract';

/**
 * The one fetch helper (docs/ARCHITECTURE.md "Client conventions", the fetch rule): the body is read as text; a response that is not ok throws an
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
  /** The server's `Retry-After`, in milliseconds (a 503 while the database is away, a 429): when to try again. */
  readonly retryAfterMs?: number;

  constructor(status: number, body: string, url: string, problem?: Problem, retryAfterMs?: number) {
    super(problem?.detail ?? problem?.title ?? (body.trim() || `Request failed with status ${status}`));
    this.status = status;
    this.body = body;
    this.url = url;
    this.problem = problem;
    this.retryAfterMs = retryAfterMs;
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

/** When a 503 does not say (or says something unreadable), a retry waits this long. */
export const DEFAULT_UNAVAILABLE_RETRY_MS = 5_000;

/**
 * The service is briefly unavailable (503: the database is away, the instance is stopping): not a
 * fault to show as one, but a wait; the page says so and tries again by itself after `unavailableRetryMs`.
 */
export function isServiceUnavailable(error: unknown): error is ApiError {
  return isApiError(error, 503);
}

/** How long to wait before asking again after `error` (a 503's Retry-After, at least 1 s and at most a minute). */
export const unavailableRetryMs = (error: ApiError): number => Math.min(Math.max(error.retryAfterMs ?? DEFAULT_UNAVAILABLE_RETRY_MS, 1_000), 60_000);

/** Retry-After as seconds or an HTTP date (RFC 9110), in milliseconds from now. */
function retryAfterOf(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(at - Date.now(), 0);
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

/**
 * The answer, checked against the endpoint's schema in development and tests (client/lib/answer-check.ts).
 * Production trusts the server it is built with and skips the check (Vite replaces process.env.NODE_ENV
 * at build time, so the branch leaves the bundle).
 */
async function checked<E extends Endpoint>(endpoint: E, data: unknown): Promise<EndpointOutput<E>> {
  if (process.env.NODE_ENV !== 'production' && endpoint.status !== 204) {
    const { checkAnswer } = await import('./answer-check');
    checkAnswer(endpoint, data);
  }
  return data as EndpointOutput<E>;
}

/** An ok answer with what a caller may need beside the body (Kisi pages over `X-Collection-Range`). */
export type ApiResponse<T> = { data: T; status: number; headers: Headers };

/**
 * Headers a call adds beside the ones `send` sets (an `Idempotency-Key`, say). Accept and
 * Content-Type stay the helper's: the BFF's CSRF rule depends on them.
 */
export type RequestHeaders = Readonly<Record<string, string>>;

/** Reads sent and not yet answered, and the lowest live-event position the answers named (decision 0089). */
let readsOnTheirWay = 0;
let lowestReadPosition: number | undefined;

function notePosition(response: Response) {
  const position = Number(response.headers.get(LIVE_POSITION_HEADER) ?? NaN);
  if (Number.isSafeInteger(position) && position >= 0) lowestReadPosition = Math.min(lowestReadPosition ?? position, position);
}

/**
 * Where a live stream can start and hear everything the tab's reads so far may not show: the lowest
 * position their answers named. None while a read is still on its way (its answer may be older than
 * that), nor when no answer named one.
 */
export const positionOfReads = (): string | undefined => (readsOnTheirWay === 0 && lowestReadPosition !== undefined ? String(lowestReadPosition) : undefined);

/** Told of every 401: the session a page was shown with may be gone (lib/session.ts says so on the page). */
export const sessionRefused = new EventTarget();

/** The one fetch (the spec's rules): body read as text; not ok → ApiError; else JSON, falling back to the text. */
async function send(method: string, url: string, json: unknown, extraHeaders: RequestHeaders = {}): Promise<ApiResponse<unknown>> {
  const headers: Record<string, string> = { ...extraHeaders, Accept: 'application/json' };
  let body: string | undefined;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  }
  const reading = method === 'GET';
  if (reading) readsOnTheirWay++;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method, headers, body, credentials: 'same-origin' });
    text = await response.text();
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new NetworkError(url, cause);
  } finally {
    if (reading) readsOnTheirWay--;
  }
  if (reading) notePosition(response);
  if (response.status === 401) sessionRefused.dispatchEvent(new Event('refused'));
  if (!response.ok) throw new ApiError(response.status, text, url, asProblem(text), retryAfterOf(response.headers.get('Retry-After')));
  const done = (data: unknown) => ({ data, status: response.status, headers: response.headers });
  if (text === '') return done(undefined);
  try {
    return done(JSON.parse(text));
  } catch {
    return done(text);
  }
}

/** Calls an endpoint: its URL from the params and query, the body as JSON, the answer checked in development. */
async function sendChecked<E extends Endpoint>(endpoint: E, url: string, body?: unknown, headers?: RequestHeaders): Promise<ApiResponse<EndpointOutput<E>>> {
  const answer = await send(endpoint.method, url, body, headers);
  return { ...answer, data: await checked(endpoint, answer.data) };
}

/** A call's input (params, query, body as the endpoint describes them) plus any `headers` of its own. */
export type CallOptions<E extends Endpoint> = object extends CallInput<E>
  ? [input?: CallInput<E> & { headers?: RequestHeaders }]
  : [input: CallInput<E> & { headers?: RequestHeaders }];

export async function callWithResponse<E extends Endpoint>(endpoint: E, ...[input]: CallOptions<E>): Promise<ApiResponse<EndpointOutput<E>>> {
  const parts = input as { body?: unknown; headers?: RequestHeaders } | undefined;
  return sendChecked(endpoint, urlOf(endpoint, input as Parameters<typeof urlOf>[1]), parts?.body, parts?.headers);
}

export async function call<E extends Endpoint>(endpoint: E, ...args: CallOptions<E>): Promise<EndpointOutput<E>> {
  return (await callWithResponse(endpoint, ...args)).data;
}

/**
 * The cache key of a read: the endpoint (`GET /api/gym/users/:id`) and the params and query that
 * pick one of its answers, each value as the URL spells it (empty query values left out, as
 * `urlOf` does), so the same read always has the same key and an endpoint's reads are found by
 * looking at the key, not by parsing URLs.
 */
export type QueryKey = readonly [endpoint: string, input: { readonly params: Readonly<Record<string, string>>; readonly query: Readonly<Record<string, string>> }];

const spelled = (values: object = {}): Record<string, string> =>
  Object.fromEntries(
    Object.entries(values as Record<string, unknown>)
      .filter(([, value]) => value !== undefined && value !== null && value !== '')
      .map(([name, value]) => [name, String(value)]),
  );

export const keyFor = <E extends Endpoint>(endpoint: E, ...[input]: CallArgs<E>): QueryKey => {
  const parts = (input ?? {}) as { params?: object; query?: object };
  return [describeEndpoint(endpoint), { params: spelled(parts.params), query: spelled(parts.query) }];
};

/** Like `fetcherFor`, with the response headers (Kisi's lists page by `X-Collection-Range`). */
export const responseFetcherFor =
  <E extends Endpoint>(endpoint: E) =>
  ([, input]: QueryKey): Promise<ApiResponse<EndpointOutput<E>>> =>
    sendChecked(endpoint, urlOf(endpoint, input));

/** The fetcher of keys made by `keyFor` of the same endpoint. */
export const fetcherFor = <E extends Endpoint>(endpoint: E) => {
  const fetchWithHeaders = responseFetcherFor(endpoint);
  return async (key: QueryKey): Promise<EndpointOutput<E>> => (await fetchWithHeaders(key)).data;
};

/** A short, human sentence for an error, for banners and toasts. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Something went wrong.';
}
