import * as v from 'valibot';
import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import type { Endpoint, EndpointInput, EndpointOutput } from '@contracts/endpoint.contract';
import { fieldErrorOf, type Problem, type ProblemFieldError } from '@contracts/problem.contract';

/**
 * The fake BFF of client tests, at the network boundary: one msw server per test file (started
 * and reset in test-setup.ts), so the app's own fetch code runs as it does in a browser. Handlers
 * are written against the endpoint objects of `bff/contracts/` with `handle`, so a contract change
 * that the fake no longer fits fails `tsc`, and requests are checked by the same schemas the BFF
 * mounts them with.
 */
export const server = setupServer();

declare const bodyBrand: unique symbol;
/**
 * A whole answer with its own status or headers. Branded with the body it carries so a fake cannot
 * slip a body past its endpoint's response type by building a `Response` by hand: `reply(body)`
 * checks the body, a refusal (`problem`, `refuse`, `offline`) carries none and fits every endpoint.
 * The brand exists only for the compiler, so the four helpers below are the casts that give it.
 */
export type Reply<Body> = Response & { readonly [bodyBrand]: Body };

/** A success answer with a status or headers of its own (Kisi's `X-Collection-Range`, say); the body is the endpoint's. */
export const reply = <Body>(body: Body, init: { status?: number; headers?: Record<string, string> } = {}): Reply<Body> =>
  // `Body` is a contract's output type, which is JSON; msw's own bound for it is a looser JSON type.
  HttpResponse.json(body as Parameters<typeof HttpResponse.json>[0], init) as unknown as Reply<Body>;

/** An answer that is not the endpoint's success: any status and body (Kisi's own `{error, code}`, a proxy's text). */
export const refuse = (status: number, body: unknown, contentType = 'application/json'): Reply<never> =>
  new HttpResponse(JSON.stringify(body), { status, headers: { 'Content-Type': contentType } }) as unknown as Reply<never>;

/** The BFF's answer while its database is away (`bff/lib/error-handler.ts`): a 503 problem with Retry-After. */
export const unavailable = (retryAfterSeconds = 5): Reply<never> =>
  new HttpResponse(
    JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'The service is briefly unavailable. Try again in a few seconds.' } satisfies Problem),
    { status: 503, headers: { 'Content-Type': 'application/problem+json', 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'no-store' } },
  ) as unknown as Reply<never>;

/** The BFF's error shape (RFC 9457), as `bff/lib/problem.ts` writes it. */
export const problem = (status: number, title: string, detail?: string, errors?: ProblemFieldError[]): Reply<never> =>
  refuse(status, { type: 'about:blank', title, status, ...(detail ? { detail } : {}), ...(errors ? { errors } : {}) } satisfies Problem, 'application/problem+json');

/** A 400 naming fields, as the BFF answers input its schemas refuse. */
export const fieldProblem = (errors: ProblemFieldError[], detail = 'The request has invalid fields.', status = 400): Reply<never> =>
  problem(status, status === 409 ? 'Conflict' : 'Bad Request', detail, errors);

/** No answer at all: the connection dropped (fetch rejects with a TypeError, as a browser's does offline). */
export const offline = (): Reply<never> => HttpResponse.error() as unknown as Reply<never>;

/**
 * What a fake answers instead when it leaves this request to the next handler that matches (msw's own
 * fall-through): a test's handler that refuses one channel and lets the feature's fake answer the rest.
 */
export const passOn: unique symbol = Symbol('pass on to the next handler');

/** What a fake answers for an endpoint: its success body (sent with the contract's status; nothing for a 204), a whole `Reply`, or `passOn`. */
export type Answer<E extends Endpoint> = (E['status'] extends 204 ? void : EndpointOutput<E>) | Reply<EndpointOutput<E>> | typeof passOn;

/** What a fake is given: the request's params, query and body as the endpoint's schemas parse them, and the request itself. */
export type FakeInput<E extends Endpoint> = EndpointInput<E> & { request: Request };

type Part = 'params' | 'query' | 'body';

async function readBody(request: Request): Promise<unknown> {
  const text = await request.clone().text();
  // A request without a JSON body is checked as an empty object, so each field says what it needs (as the BFF does).
  return text === '' ? {} : (JSON.parse(text) as unknown);
}

/** Parses the request's parts with the endpoint's schemas: the parsed input, or the 400 the BFF would answer. */
async function parseInput(endpoint: Endpoint, request: Request, params: Record<string, string | readonly string[] | undefined>): Promise<Record<Part, unknown> | Reply<never>> {
  let body: unknown;
  try {
    body = endpoint.body ? await readBody(request) : undefined;
  } catch {
    return fieldProblem([{ path: 'body', message: 'Expected a JSON body' }], 'The body is not valid JSON.');
  }
  const raw: Record<Part, unknown> = { params, query: Object.fromEntries(new URL(request.url).searchParams), body };
  const input = {} as Record<Part, unknown>;
  const errors: ProblemFieldError[] = [];
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = endpoint[part];
    if (!schema) continue;
    const result = v.safeParse(schema, raw[part]);
    if (result.success) input[part] = result.output;
    // The BFF's own wording (the contracts'), field by field.
    else errors.push(...result.issues.map(fieldErrorOf(part, schema)));
  }
  return errors.length > 0 ? fieldProblem(errors) : input;
}

const METHODS = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete } as const;

/**
 * An msw handler for one endpoint of the contracts: its method and path come from the endpoint, the
 * request is parsed by its schemas (invalid input is the BFF's 400 problem, before the fake runs),
 * and the fake's answer must be the endpoint's response type. A plain body is sent as JSON with the
 * contract's status (a 204 with none); a `Reply` is sent as it is; `passOn` leaves the request to
 * the next handler. `once`: the handler answers one request, then steps aside (a failure that happens once).
 */
export function handle<E extends Endpoint>(endpoint: E, fake: (input: FakeInput<E>) => Answer<E> | Promise<Answer<E>>, options: { once?: boolean } = {}): RequestHandler {
  return METHODS[endpoint.method](
    endpoint.path,
    async ({ request, params }) => {
      const input = await parseInput(endpoint, request, params);
      if (input instanceof Response) return input;
      const answer: unknown = await fake({ ...input, request } as FakeInput<E>);
      if (answer === passOn) return undefined;
      if (answer instanceof Response) return answer;
      const status = endpoint.status ?? 200;
      return status === 204 ? new HttpResponse(null, { status }) : HttpResponse.json(answer as Parameters<typeof HttpResponse.json>[0], { status });
    },
    options,
  );
}

/** A request the app made, as the fake BFF saw it (path with its query; body parsed from JSON when there is one). */
export type SeenRequest = { method: string; path: string; body: unknown; headers: Headers };

const recorders = new Set<SeenRequest[]>();

/** A list that gets every request made from now until the end of the test, in order. */
export function recordRequests(): SeenRequest[] {
  const seen: SeenRequest[] = [];
  recorders.add(seen);
  return seen;
}

/** Ends every list of `recordRequests` (test-setup.ts, after each test). */
export const stopRecording = () => recorders.clear();

server.events.on('request:start', ({ request }) => {
  const url = new URL(request.url);
  const seen: SeenRequest = { method: request.method, path: url.pathname + url.search, body: undefined, headers: new Headers(request.headers) };
  for (const list of recorders) list.push(seen);
  // The body is read beside the handler; it is in long before the answer reaches the app.
  void request
    .clone()
    .text()
    .then((text) => {
      try {
        seen.body = text === '' ? undefined : (JSON.parse(text) as unknown);
      } catch {
        seen.body = text;
      }
    });
});
