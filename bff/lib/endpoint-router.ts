import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import * as v from 'valibot';
import { describeEndpoint, type Access, type Endpoint, type EndpointInput, type EndpointOutput } from '../contracts/endpoint.contract';
import { fieldErrorOf, type ProblemFieldError } from '../contracts/problem.contract';
import type { SessionUser } from '../contracts/auth.contract';
import { badRequest, forbidden, unauthorized } from './http-error';
import { nameRoute } from './route-name';

type Part = 'params' | 'query' | 'body';

/** The request and response, for the few handlers that need more than their input (cookies, streams). */
export interface HandlerContext {
  req: Request;
  res: Response;
}

/** A stream handler writes its own answer, a 204 has none; every other handler returns the response body. */
type HandlerResult<E extends Endpoint> = E['stream'] extends 'sse' | 'file' ? void : E['status'] extends 204 ? void : EndpointOutput<E>;
export type Handler<E extends Endpoint> = (input: EndpointInput<E>, context: HandlerContext) => HandlerResult<E> | Promise<HandlerResult<E>>;

/** An endpoint with its handler, ready to mount. */
export interface Route {
  endpoint: Endpoint;
  /** Runs after the access guard, before the body is read and validated (rate limits, a raw body parser). */
  before: RequestHandler[];
  handle: (input: Record<Part, unknown>, context: HandlerContext) => unknown;
}

export function route<E extends Endpoint>(endpoint: E, handler: Handler<E>, options: { before?: RequestHandler[] } = {}): Route {
  return { endpoint, before: options.before ?? [], handle: handler as Route['handle'] };
}

/**
 * The fields of `value` (a request part) whose text holds a NUL character. No one types one, and
 * PostgreSQL can neither store nor compare text that holds it, so it is refused on either engine.
 */
export function textWithNul(part: Part, value: unknown, path: string = part): ProblemFieldError[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [{ path, message: 'Text may not contain a NUL character' }] : [];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => textWithNul(part, item, `${path}.${key}`));
}

/** Parses params, query and body against the endpoint's schemas; anything invalid is one 400 listing each field. */
export function parseInput(endpoint: Endpoint, req: Pick<Request, Part>): Record<Part, unknown> {
  const input = {} as Record<Part, unknown>;
  const errors: ProblemFieldError[] = [];
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = endpoint[part];
    if (!schema) continue;
    // A missing JSON body arrives as undefined; validate it as an empty object so each field says what it needs.
    const raw = part === 'body' ? (req.body ?? {}) : req[part];
    const result = v.safeParse(schema, raw);
    if (result.success) errors.push(...textWithNul(part, (input[part] = result.output)));
    else errors.push(...result.issues.map(fieldErrorOf(part, schema)));
  }
  if (errors.length > 0) throw badRequest('The request has invalid fields.', errors);
  return input;
}

/** 401 without a session, 403 when the role may not call. Admins may call everything. */
export function assertAccess(access: Access, user: SessionUser | undefined): void {
  if (access === 'public') return;
  if (!user) throw unauthorized();
  if (access !== 'user' && user.role !== 'admin' && !access.includes(user.role)) throw forbidden();
}

const accessGuard =
  (access: Access): RequestHandler =>
  (req, _res, next) => {
    assertAccess(access, req.user);
    next();
  };

/** A response that does not match its schema is the server's bug: in tests it fails loudly, naming the endpoint and field. */
function checkResponse(endpoint: Endpoint, body: unknown) {
  const result = v.safeParse(endpoint.response, body);
  if (!result.success) {
    const where = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}`).join('; ');
    throw new Error(`${describeEndpoint(endpoint)} answered a body its contract does not allow: ${where}`);
  }
}

export interface RouterOptions {
  /** Validate every answer against its endpoint's response schema (tests do; production does not pay for it). */
  checkResponses?: boolean;
  /** Reads a JSON body, for endpoints that take one, once their access and own middleware have let the request on. */
  jsonBody: RequestHandler;
  /** Where the router is mounted (`/api`): endpoint paths are written from the origin. */
  prefix?: string;
}

/**
 * An Express router with every route at its contract path: the access guard (the session is read
 * before, for the whole API), the route's own middleware, the JSON body when the endpoint takes one,
 * validation, the handler and the answer. Matching is Express's own: any case, one trailing slash,
 * HEAD as GET, params percent-decoded (a `%ZZ` is the client's 400, see the error handler).
 */
export function endpointRouter(routes: readonly Route[], { checkResponses = false, jsonBody, prefix = '/api' }: RouterOptions): Router {
  // A feature's routes sit under the path they share (`/gym`): a request for another feature passes
  // them with one prefix test instead of trying each of their paths in turn.
  const shared = sharedSegments(routes.map((r) => r.endpoint.path.slice(prefix.length)));
  const router = express.Router();
  for (const { endpoint, before, handle } of routes) {
    const answer: RequestHandler = async (req: Request, res: Response) => {
      const body = await handle(parseInput(endpoint, req), { req, res });
      if (endpoint.stream || res.headersSent) return;
      if (checkResponses) checkResponse(endpoint, body);
      if (endpoint.status === 204) return void res.status(204).end();
      res.status(endpoint.status ?? 200);
      res.json(body);
    };
    const named: RequestHandler = (_req, res, next) => {
      nameRoute(res, endpoint.path);
      next();
    };
    const chain = [named, ...(endpoint.access === 'public' ? [] : [accessGuard(endpoint.access)]), ...before, ...(endpoint.body ? [jsonBody] : []), answer];
    const method = endpoint.method.toLowerCase() as Lowercase<Endpoint['method']>;
    router[method](endpoint.path.slice(prefix.length + shared.length) || '/', ...chain);
  }
  if (shared === '') return router;
  const feature = express.Router();
  feature.use(shared, router);
  return feature;
}

/** The whole path segments every one of `paths` starts with (`/gym` of `/gym/users` and `/gym/owners/:id`), up to a parameter. */
function sharedSegments(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const split = paths.map((path) => path.split('/').slice(1));
  const shared: string[] = [];
  for (const [i, segment] of split[0]!.entries()) {
    if (segment === '' || /[^\w.-]/.test(segment) || split.some((segments) => segments.length <= i + 1 || segments[i] !== segment)) break;
    shared.push(segment);
  }
  return shared.map((segment) => `/${segment}`).join('');
}
