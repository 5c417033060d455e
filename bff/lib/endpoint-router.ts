import { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import * as v from 'valibot';
import { describeEndpoint, type Access, type Endpoint, type EndpointInput, type EndpointOutput } from '../contracts/endpoint.contract';
import type { ProblemFieldError } from '../contracts/problem.contract';
import type { SessionUser } from '../contracts/auth.contract';
import type { AnswerCache, KeptAnswer } from './answer-cache';
import { badRequest, forbidden, unauthorized, undecodablePath } from './http-error';

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
  /** Runs before validation (rate limits, a raw body parser). */
  before: RequestHandler[];
  /**
   * The answer is kept and sent again while the database is unchanged (see `answerCache`). Only for
   * a GET whose answer depends on nothing but its URL and the database: not on who asks (past the
   * access guard), not on the time, and whose handler sets no header of its own.
   */
  keepAnswer: boolean;
  handle: (input: Record<Part, unknown>, context: HandlerContext) => unknown;
}

export function route<E extends Endpoint>(endpoint: E, handler: Handler<E>, options: { before?: RequestHandler[]; keepAnswer?: boolean } = {}): Route {
  if (options.keepAnswer && endpoint.method !== 'GET') throw new Error(`${describeEndpoint(endpoint)}: only a GET's answer can be kept`);
  return { endpoint, before: options.before ?? [], keepAnswer: options.keepAnswer ?? false, handle: handler as Route['handle'] };
}

const issueToError = (part: Part) => (issue: v.BaseIssue<unknown>): ProblemFieldError => {
  const path = v.getDotPath(issue);
  // valibot words a missing key as 'Invalid key: Expected "x" but received undefined'; users read "Required".
  const message = issue.kind === 'schema' && issue.received === 'undefined' ? 'Required' : issue.message;
  return { path: path ? `${part}.${path}` : part, message };
};

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
    // A missing JSON body arrives as undefined; validate it as an empty object so fields report "Required".
    const raw = part === 'body' ? (req.body ?? {}) : req[part];
    const result = v.safeParse(schema, raw);
    if (result.success) errors.push(...textWithNul(part, (input[part] = result.output)));
    else errors.push(...result.issues.map(issueToError(part)));
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

export interface MountOptions {
  /** Validate every answer against its endpoint's response schema (tests do; production does not pay for it). */
  checkResponses?: boolean;
  /** The mount point of `router` (`/api`): endpoint paths are written from the origin. */
  prefix?: string;
  /** Reads the session (sets `req.user`) before the access guard. */
  session?: RequestHandler;
  /** Reads a JSON body, for endpoints that take one, once their access and own middleware have let the request on. */
  jsonBody?: RequestHandler;
  /** Where the answers of routes marked `keepAnswer` are kept (none: every request runs its handler). */
  answers?: AnswerCache;
}

type Method = Endpoint['method'];
interface Mounted {
  method: Method;
  /** The path's segments from the mount point: `:name` for a param, the others lower-cased. */
  segments: string[];
  chain: RequestHandler[];
}

/**
 * Finds the route for a request the way Express would (case-insensitive, one trailing slash allowed,
 * a param is one non-empty segment, percent-decoded), without walking a router's layers: paths
 * without params by one lookup, the others by comparing segments. It is the router of every
 * endpoint in the contracts, so it runs on every API request; Express's own layers cost tens of µs
 * a request here (README Decisions, hot paths).
 */
function routeTable(mounted: readonly Mounted[]) {
  const fixed = new Map<string, Mounted>();
  const withParams: Mounted[] = [];
  for (const entry of mounted) {
    if (entry.segments.some((segment) => segment.startsWith(':'))) withParams.push(entry);
    else fixed.set(`${entry.method} ${entry.segments.join('/')}`, entry);
  }
  // `path` without its trailing slash: a path without params is one lookup, before any splitting.
  const find = (method: string, path: string): { entry: Mounted; params: Record<string, string> } | undefined => {
    const entry = fixed.get(`${method} ${path.toLowerCase()}`);
    if (entry) return { entry, params: {} };
    const segments = path.split('/');
    for (const candidate of withParams) {
      if (candidate.method !== method || candidate.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const matches = candidate.segments.every((want, i) => {
        const given = segments[i]!;
        if (!want.startsWith(':')) return want === given.toLowerCase();
        params[want.slice(1)] = given;
        return given !== '';
      });
      if (matches) return { entry: candidate, params };
    }
    return undefined;
  };
  const withoutTrailingSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
  return {
    /** The route and its decoded params for `method` and a path from the mount point (its query left off). */
    match(method: string, path: string) {
      const found = find(method === 'HEAD' ? 'GET' : method, withoutTrailingSlash(path));
      if (!found) return undefined;
      for (const name in found.params) {
        try {
          found.params[name] = decodeURIComponent(found.params[name]!);
        } catch {
          throw undecodablePath();
        }
      }
      return found;
    },
    /** The methods a path answers, for `OPTIONS` and its `Allow` header. */
    methodsOf(path: string): string[] {
      const methods = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter((method) => find(method, withoutTrailingSlash(path)));
      return methods.includes('GET') ? [...methods.slice(0, 1), 'HEAD', ...methods.slice(1)] : methods;
    },
  };
}

/** Runs Express middleware in turn, as a router would for one route: an error, thrown or rejected, goes to `done`. */
function runChain(chain: readonly RequestHandler[], index: number, req: Request, res: Response, done: NextFunction): void {
  const handler = chain[index];
  if (!handler) return done();
  try {
    // An unnamed callback: a named one made here, on every request, would have its name set at run time (tsx keeps names).
    const result: unknown = handler(req, res, (err?: unknown) => (err !== undefined && err !== null ? done(err) : runChain(chain, index + 1, req, res, done)));
    if (result instanceof Promise) result.catch((error: unknown) => done(error ?? new Error('Rejected promise')));
  } catch (error) {
    done(error);
  }
}

/** The ETag Express would give `body` (its `etag` setting), made once for a kept answer. */
const etagOf = (req: Request, body: Buffer): string | undefined => (req.app.get('etag fn') as ((body: Buffer) => string) | undefined)?.(body);

/** Sends a kept answer as `res.json` would have, without serialising or hashing it again (a 304 when the client has it). */
function sendKept(res: Response, status: number, answer: KeptAnswer): void {
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  if (answer.etag) res.setHeader('ETag', answer.etag);
  res.send(answer.body);
}

/**
 * Mounts every route on `router` as one middleware: it finds the route (see `routeTable`), then runs
 * the session read, the access guard, the route's own middleware (rate limits, a raw body parser),
 * the JSON body parser when the endpoint takes a body, validation, the handler and the answer.
 * A request no route matches goes on to the router's next middleware.
 */
export function mountRoutes(router: Router, routes: readonly Route[], { checkResponses = false, prefix = '/api', session, jsonBody, answers }: MountOptions = {}): void {
  const table = routeTable(
    routes.map(({ endpoint, before, keepAnswer, handle }): Mounted => {
      const kept = keepAnswer ? answers : undefined;
      const run: RequestHandler = async (req: Request, res: Response) => {
        // The URL was valid when its answer was made, so a kept answer needs no validation either.
        const found = kept?.find(req.url);
        if (found?.answer) return sendKept(res, endpoint.status ?? 200, found.answer);
        const body = await handle(parseInput(endpoint, req), { req, res });
        if (endpoint.stream || res.headersSent) return;
        if (checkResponses) checkResponse(endpoint, body);
        if (endpoint.status === 204) return void res.status(204).end();
        if (found) {
          const json = Buffer.from(JSON.stringify(body));
          const answer = { body: json, etag: etagOf(req, json) };
          kept!.keep(req.url, found.marker, answer);
          return sendKept(res, endpoint.status ?? 200, answer);
        }
        res.status(endpoint.status ?? 200).json(body);
      };
      const chain = [
        ...(session ? [session] : []),
        ...(endpoint.access === 'public' ? [] : [accessGuard(endpoint.access)]),
        ...before,
        ...(endpoint.body && jsonBody ? [jsonBody] : []),
        run,
      ];
      return {
        method: endpoint.method,
        segments: (endpoint.path.slice(prefix.length) || '/').split('/').map((segment) => (segment.startsWith(':') ? segment : segment.toLowerCase())),
        chain,
      };
    }),
  );
  router.use((req, res, next) => {
    const query = req.url.indexOf('?');
    const path = query < 0 ? req.url : req.url.slice(0, query);
    const found = table.match(req.method, path);
    if (found) {
      req.params = found.params;
      return runChain(found.entry.chain, 0, req, res, next);
    }
    if (req.method === 'OPTIONS') {
      const methods = table.methodsOf(path);
      if (methods.length > 0) return void res.set('Allow', methods.join(', ')).status(204).end();
    }
    next();
  });
}
