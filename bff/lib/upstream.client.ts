import * as v from 'valibot';
import { HttpError } from './http-error';
import { singleFlight } from './single-flight';

/**
 * The one client the BFF uses to reach a public service it does not control — the sample pages'
 * PokeAPI, Rick and Morty API and JSONPlaceholder, and the picture hosts of the samples and the
 * catalogue (`picture-proxy.ts`): Node's fetch with a timeout (no answer in time → 504 problem),
 * unreachable → 502 problem, identical JSON requests in flight share one call, bodies capped, and
 * answers checked against the upstream's shape (a change is a 502 naming the field, never a crash).
 */

/** A JSON body larger than this is not an answer we use (PokeAPI's biggest Pokémon is about 300 kB). */
const MAX_JSON_BYTES = 4 * 1024 * 1024;

export type UpstreamJson<T> = { status: 200; value: T; totalCount: string | null } | { status: 404; body: unknown };

interface RawAnswer {
  status: number;
  /** The parsed body; undefined when it was empty or not JSON (`notJson`). */
  body: unknown;
  notJson: boolean;
  totalCount: string | null;
}

/** `results[0].name` for the issue's place in the upstream's body. */
function whereOf(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => (typeof item.key === 'number' ? `[${item.key}]` : `.${String(item.key)}`)).join('').replace(/^\./, '');
}

/** The upstream answered a shape we do not know: a 502 that names the field. */
export function shapeError(provider: string, issue: v.BaseIssue<unknown>): HttpError {
  const where = whereOf(issue);
  if (!where) return new HttpError(502, `${provider} answered a body Frontdesk does not understand (${issue.message}).`);
  if (issue.received === 'undefined') return new HttpError(502, `${provider} answered without ${where}.`);
  return new HttpError(502, `${provider} answered ${where} as ${issue.received}, where Frontdesk expects ${issue.expected ?? 'something else'}.`);
}

export function upstreamClient({ timeoutMs }: { timeoutMs: number }) {
  const flights = singleFlight<RawAnswer>();

  /** What a failed fetch or body read means to the browser: 504 for silence, 502 for anything else. */
  const failure = (provider: string, err: unknown): HttpError => {
    if (err instanceof HttpError) return err;
    // By name, not instanceof: fetch's DOMException may come from another realm (Jest's sandbox).
    const name = typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
    if (name === 'TimeoutError' || name === 'AbortError') return new HttpError(504, `${provider} did not answer within ${timeoutMs} ms.`);
    return new HttpError(502, `${provider} could not be reached. Try again in a moment.`);
  };

  /** The body's bytes, at most `maxBytes` (a longer body is a 502 and is not read on). */
  async function readCapped(provider: string, res: Response, maxBytes: number): Promise<Buffer> {
    const tooBig = () => new HttpError(502, `${provider} answered more than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw tooBig();
    }
    if (!res.body) return Buffer.alloc(0);
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => {});
          throw tooBig();
        }
        chunks.push(Buffer.from(value));
      }
    } catch (err) {
      throw failure(provider, err);
    }
    return Buffer.concat(chunks, size);
  }

  /** GET `url` (with the caller's signal, or the timeout); connection and timeout failures become problems. */
  async function open(provider: string, url: string, init: { accept: string; redirect?: RequestRedirect; signal?: AbortSignal }): Promise<Response> {
    try {
      return await fetch(url, { headers: { Accept: init.accept }, redirect: init.redirect ?? 'follow', signal: init.signal ?? AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw failure(provider, err);
    }
  }

  /**
   * GET JSON from `url`, checked against `schema`. A 404 is handed back (what it means is the
   * caller's to say); any other non-2xx, a body that is not JSON or not of the expected shape is a 502.
   */
  async function json<S extends v.GenericSchema>(provider: string, url: string, schema: S): Promise<UpstreamJson<v.InferOutput<S>>> {
    const raw = await flights(url, async () => {
      const signal = AbortSignal.timeout(timeoutMs);
      const res = await open(provider, url, { accept: 'application/json', signal });
      const text = (await readCapped(provider, res, MAX_JSON_BYTES)).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        return { status: res.status, body: undefined, notJson: true, totalCount: null };
      }
      return { status: res.status, body, notJson: false, totalCount: res.headers.get('x-total-count') };
    });
    if (raw.status === 404) return { status: 404, body: raw.body };
    if (raw.status < 200 || raw.status >= 300) throw new HttpError(502, `${provider} answered ${raw.status}. Try again in a moment.`);
    if (raw.notJson) throw new HttpError(502, `${provider} answered something that is not JSON.`);
    const parsed = v.safeParse(schema, raw.body);
    if (!parsed.success) throw shapeError(provider, parsed.issues[0]);
    return { status: 200, value: parsed.output, totalCount: raw.totalCount };
  }

  return { json, open, readCapped, timeoutMs };
}
export type UpstreamClient = ReturnType<typeof upstreamClient>;

/** The found answer of `json()`; a 404 where the caller expects none is the upstream's fault (502). */
export function found<T>(answer: UpstreamJson<T>, provider: string, url: string): { value: T; totalCount: string | null } {
  if (answer.status === 404) throw new HttpError(502, `${provider} answered 404 to ${new URL(url).pathname}.`);
  return answer;
}
