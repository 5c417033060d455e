import type * as v from 'valibot';

/**
 * An endpoint is a value: its method, path, who may call it, and the valibot schemas of its
 * params, query, body and response. The BFF mounts its handler from it (`bff/lib/endpoint-router.ts`),
 * the client calls it (`client/lib/api-client.ts`), SWR keys and invalidation name it, and
 * `GET /api/openapi.json` is generated from it. Nothing about an endpoint is written twice.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The roles of an account: `admin` may do everything, `staff` runs the front desk, `runner` the food-court board. */
export const ROLES = ['admin', 'staff', 'runner'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who may call: everyone (`public`), any signed-in account (`user`), or the listed roles — admins
 * may always, so `['admin']` means admins only.
 */
export type Access = 'public' | 'user' | readonly Role[];

// Schemas here are synchronous (no async checks), so parsing never needs a promise.
type Schema = v.GenericSchema;

export interface EndpointDefinition {
  method: HttpMethod;
  /** The whole path from the origin, `:name` for each path parameter (`/api/gym/users/:id`). */
  path: `/api${string}`;
  /** One line for the OpenAPI document. */
  summary: string;
  access: Access;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /**
   * A body read as raw bytes (it is signed): this schema documents it; the handler parses it after
   * checking the signature, so the mount helper does not.
   */
  rawBody?: Schema;
  /** What a success answers (for a `stream`, one event's data). */
  response: Schema;
  /** The success status: 200 unless said. 204 answers no body. */
  status?: 200 | 201 | 204;
  /**
   * Error statuses beyond the ones the description already implies (400 for invalid input, 401
   * and 403 when not public).
   */
  errors?: readonly number[];
  /** `sse`: the answer is a Server-Sent Events stream of `response` items; `file`: the bytes of a file (the handler sends them). */
  stream?: 'sse' | 'file';
  /** `collection-range`: a bare array paged by `X-Collection-Range` (Kisi's lists). */
  paging?: 'collection-range';
}

declare const endpointBrand: unique symbol;
export type Endpoint<D extends EndpointDefinition = EndpointDefinition> = D & { readonly [endpointBrand]: true };

/** Declares an endpoint; the literal types of its method and path are kept. */
export const endpoint = <const D extends EndpointDefinition>(definition: D): Endpoint<D> => definition as Endpoint<D>;

export const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value && 'access' in value;

// ---- typed inputs and outputs -------------------------------------------------------------

/** `'/api/gym/users/:id/access'` → `'id'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type Out<S> = S extends Schema ? v.InferOutput<S> : never;
type In<S> = S extends Schema ? v.InferInput<S> : never;

/** The parsed input a handler receives: only the parts the endpoint describes. */
export type EndpointInput<E extends EndpointDefinition> = (E['params'] extends Schema ? { params: Out<E['params']> } : unknown) &
  (E['query'] extends Schema ? { query: Out<E['query']> } : unknown) &
  (E['body'] extends Schema ? { body: Out<E['body']> } : unknown);

export type EndpointOutput<E extends EndpointDefinition> = Out<E['response']>;

/**
 * A query as a caller writes it: the schema's parsed value types (numbers for pages, say), each key
 * optional where the schema has a default.
 */
export type QueryValues<S> = { [K in keyof In<S>]: K extends keyof Out<S> ? Out<S>[K] : never };

type ParamsArg<E extends EndpointDefinition> = [PathParamNames<E['path']>] extends [never]
  ? unknown
  : { params: Record<PathParamNames<E['path']>, string | number> };
type QueryArg<E extends EndpointDefinition> = E['query'] extends Schema
  ? object extends QueryValues<E['query']>
    ? { query?: QueryValues<E['query']> }
    : { query: QueryValues<E['query']> }
  : unknown;
type BodyArg<E extends EndpointDefinition> = E['body'] extends Schema ? { body: In<E['body']> } : unknown;

/** What a caller passes to reach an endpoint: path params, query and body, each only when described. */
export type CallInput<E extends EndpointDefinition> = ParamsArg<E> & QueryArg<E> & BodyArg<E>;

/** `[]` when the endpoint needs no input, else `[input]`. */
export type CallArgs<E extends EndpointDefinition> = object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

/**
 * One read with its input, spelled once where both sides need the same URL: a page's first read is
 * the client's cache key and the BFF's preload link for that page (pages/reads.ts).
 */
export type Read<E extends Endpoint = Endpoint> = { readonly endpoint: E; readonly input: CallInput<E> };
export const read = <E extends Endpoint>(endpoint: E, ...[input]: CallArgs<E>): Read<E> => ({ endpoint, input: (input ?? {}) as CallInput<E> });

// ---- building URLs -------------------------------------------------------------------------

type Scalar = string | number | boolean | null | undefined;

/** The path with its params filled in (each encoded). */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * The URL of a call: the path with its params, then the query in the order given, leaving out
 * empty values. The same input always spells the same URL (it doubles as the SWR key).
 */
export function urlOf(endpoint: { path: string }, input: { params?: Record<string, string | number>; query?: object } = {}): string {
  const path = fillPath(endpoint.path, input.params);
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, Scalar>)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** `GET /api/gym/users/:id` for messages. */
export const describeEndpoint = (endpoint: Pick<EndpointDefinition, 'method' | 'path'>) => `${endpoint.method} ${endpoint.path}`;

/**
 * Every GET answer of the API names the live-event position read before it was made (decision
 * 0089): a live stream opened from there hears every event the answer may not show yet.
 */
export const LIVE_POSITION_HEADER = 'Live-Event-Position';
