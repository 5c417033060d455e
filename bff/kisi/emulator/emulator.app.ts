import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { EmulatorStore, ListParams } from './emulator.store';

/**
 * The stand-in Kisi API (DESIGN §6, reference/kisi-api.md): the endpoints Frontdesk uses, with
 * Kisi's conventions — KISI-LOGIN auth, bare arrays with X-Collection-Range, per-endpoint
 * limit/offset defaults and maxima, 200 on create, 204 on PATCH/DELETE, `{error, code}` for
 * 401/403/404/409/503 and `{errors: {field: [...]}}` for 422.
 */

export const OFFSET_MAX = 20_000;
/** Kisi's per-endpoint `limit` default and maximum (kisi-api.md §4). */
export const LIMITS = {
  users: [50, 100],
  members: [50, 100],
  locks: [50, 250],
  groups: [10, 250],
  group_links: [10, 250],
  role_assignments: [10, 250],
} as const;

export interface UnlockOutcome {
  status: 200 | 404 | 409 | 503;
  body: { message: 'Unlocked!' } | { error: string; code: string };
}

export interface EmulatorAppDeps {
  store: EmulatorStore;
  apiKey: string;
  /** The API user the key belongs to (creator of links, actor of remote unlocks). */
  apiUserId: () => Promise<number | null>;
  /** Remote unlock by the API user: records the event and sends the webhook. */
  unlock: (lockId: number) => Promise<UnlockOutcome>;
  /** Kisi allows 5 requests/s per user; off unless set (tests use it to show a 429). */
  rateLimitPerSecond?: number;
}

const kisiError = (res: Response, status: number, error: string, code: string) => res.status(status).json({ error, code });
const validationErrors = (res: Response, errors: Record<string, string[]>) => res.status(422).json({ errors });
export const ENDPOINT_MISSING = { error: 'The endpoint does not exist, please check your request.', code: '000404' };
const recordMissing = (res: Response, what: string) => kisiError(res, 404, `${what} not found.`, '000404');

/** The first value of a query parameter as a string (repeated parameters keep the first). */
function queryStrings(req: Request): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[key] = first;
  }
  return out;
}

const wholeNumber = (text: string | undefined) => (text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined);

function listParams(req: Request, [defaultLimit, maxLimit]: readonly [number, number]): ListParams {
  const q = queryStrings(req);
  const limit = Math.min(Math.max(wholeNumber(q.limit) ?? defaultLimit, 1), maxLimit);
  const offset = Math.min(wholeNumber(q.offset) ?? 0, OFFSET_MAX);
  return { limit, offset, q };
}

/** Bare array plus `X-Collection-Range: offset-(offset+limit-1)/total` (Kisi does not clamp the end). */
function sendCollection(res: Response, params: ListParams, { items, total }: { items: unknown[]; total: number }) {
  res.setHeader('X-Collection-Range', `${params.offset}-${params.offset + params.limit - 1}/${total}`);
  res.status(200).json(items);
}

const pathId = (req: Request): number | undefined => {
  const raw = req.params.id;
  return typeof raw === 'string' && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : undefined;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const US_E164 = /^\+1\d{10}$/;

/** A sliding one-second window per key, answering 429 like Kisi when it is exceeded. */
function rateLimit(perSecond: number): RequestHandler {
  const starts: number[] = [];
  return (_req, res, next) => {
    const now = Date.now();
    while (starts.length && now - starts[0]! >= 1000) starts.shift();
    if (starts.length >= perSecond) return void kisiError(res, 429, 'Rate limit exceeded. Please retry later.', '000429');
    starts.push(now);
    next();
  };
}

export function createEmulatorApp(deps: EmulatorAppDeps) {
  const { store } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('etag', false);

  app.use((req, res, next) => {
    if (req.get('Authorization') !== `KISI-LOGIN ${deps.apiKey}`) return void kisiError(res, 401, 'Your login is invalid or has expired. Please sign in again.', '000401');
    next();
  });
  if (deps.rateLimitPerSecond) app.use(rateLimit(deps.rateLimitPerSecond));
  app.use(express.json({ limit: '1mb' }));

  const handle =
    (fn: (req: Request, res: Response) => Promise<unknown>): RequestHandler =>
    (req, res, next) =>
      void fn(req, res).catch(next);

  // ---- users and members ----------------------------------------------------------------

  app.get('/users', handle(async (req, res) => {
    const params = listParams(req, LIMITS.users);
    sendCollection(res, params, await store.listUsers(params));
  }));

  app.get('/users/:id', handle(async (req, res) => {
    const id = pathId(req);
    const user = id === undefined ? undefined : await store.getUser(id);
    if (!user) return recordMissing(res, 'User');
    res.status(200).json(user);
  }));

  app.patch('/users/:id', handle(async (req, res) => {
    const id = pathId(req);
    const body: unknown = req.body;
    if (!isObject(body) || !isObject(body.user)) return kisiError(res, 400, 'param is missing or the value is empty: user', '000400');
    const input = body.user;
    const errors: Record<string, string[]> = {};
    const patch: Parameters<EmulatorStore['updateUser']>[1] = {};
    for (const key of ['access_enabled', 'password_flow_enabled'] as const) {
      if (input[key] === undefined) continue;
      if (typeof input[key] === 'boolean') patch[key] = input[key];
      else errors[key] = ['must be true or false'];
    }
    if (input.name !== undefined) {
      if (typeof input.name === 'string' && input.name.trim()) patch.name = input.name.trim();
      else errors.name = ["can't be blank"];
    }
    for (const key of ['notes', 'image'] as const) {
      if (input[key] === undefined) continue;
      if (input[key] === null || typeof input[key] === 'string') patch[key] = input[key] as string | null;
      else errors[key] = ['is invalid'];
    }
    if (input.metadata !== undefined) {
      if (isObject(input.metadata) && Object.values(input.metadata).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) patch.metadata = input.metadata;
      else errors.metadata = ['is invalid'];
    }
    // scim_access_enabled is read-only in Kisi: accepted in the body, silently ignored.
    if (id === undefined || !(await store.userRow(id))) return recordMissing(res, 'User');
    if (Object.keys(errors).length) return validationErrors(res, errors);
    await store.updateUser(id, patch);
    res.status(204).end();
  }));

  app.get('/members', handle(async (req, res) => {
    const params = listParams(req, LIMITS.members);
    res.setHeader('Deprecation', '@1704067200');
    sendCollection(res, params, await store.listMembers(params));
  }));

  app.get('/role_assignments', handle(async (req, res) => {
    const params = listParams(req, LIMITS.role_assignments);
    sendCollection(res, params, await store.listRoleAssignments(params));
  }));

  // ---- groups ---------------------------------------------------------------------------

  app.get('/groups', handle(async (req, res) => {
    const params = listParams(req, LIMITS.groups);
    sendCollection(res, params, await store.listGroups(params));
  }));

  app.get('/groups/:id', handle(async (req, res) => {
    const id = pathId(req);
    const group = id === undefined ? undefined : await store.getGroup(id);
    if (!group) return recordMissing(res, 'Group');
    res.status(200).json(group);
  }));

  app.post('/groups', handle(async (req, res) => {
    const body: unknown = req.body;
    const input = isObject(body) && isObject(body.group) ? body.group : {};
    const errors: Record<string, string[]> = {};
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name) errors.name = ["can't be blank"];
    else if (name.length > 255) errors.name = ['is too long (maximum is 255 characters)'];
    if (input.description !== undefined && input.description !== null && typeof input.description !== 'string') errors.description = ['is invalid'];
    let placeId: number | null = null;
    if (input.place_id !== undefined && input.place_id !== null) {
      if (typeof input.place_id === 'number' && Number.isInteger(input.place_id) && (await store.placeExists(input.place_id))) placeId = input.place_id;
      else errors.place = ['must exist'];
    }
    const flags: Record<string, boolean | undefined> = {};
    for (const key of ['login_enabled', 'geofence_restriction_enabled', 'primary_device_restriction_enabled', 'managed_device_restriction_enabled', 'reader_restriction_enabled', 'time_restriction_enabled', 'tap_to_access_restriction_enabled']) {
      if (input[key] === undefined) continue;
      if (typeof input[key] === 'boolean') flags[key] = input[key];
      else errors[key] = ['must be true or false'];
    }
    if (Object.keys(errors).length) return validationErrors(res, errors);
    const group = await store.createGroup({ name, description: (input.description as string | null | undefined) ?? null, place_id: placeId, flags });
    res.status(200).json(group);
  }));

  app.delete('/groups/:id', handle(async (req, res) => {
    const id = pathId(req);
    if (id === undefined || !(await store.deleteGroup(id))) return recordMissing(res, 'Group');
    res.status(204).end();
  }));

  // ---- group links ----------------------------------------------------------------------

  app.get('/group_links', handle(async (req, res) => {
    const params = listParams(req, LIMITS.group_links);
    if (params.q.group_id !== undefined && wholeNumber(params.q.group_id) === undefined) return kisiError(res, 400, 'group_id must be an integer.', '000400');
    sendCollection(res, params, await store.listGroupLinks(params));
  }));

  app.post('/group_links', handle(async (req, res) => {
    const body: unknown = req.body;
    const input = isObject(body) && isObject(body.group_link) ? body.group_link : {};
    const errors: Record<string, string[]> = {};
    const add = (field: string, message: string) => (errors[field] ??= []).push(message);
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name) add('name', "can't be blank");
    else if (name.length > 255) add('name', 'is too long (maximum is 255 characters)');
    const groupId = typeof input.group_id === 'number' && Number.isInteger(input.group_id) ? input.group_id : undefined;
    if (input.group_id === undefined || input.group_id === null) add('group_id', "can't be blank");
    else if (groupId === undefined || !(await store.groupExists(groupId))) add('group', 'must exist');
    const email = input.email === undefined || input.email === null || input.email === '' ? null : input.email;
    if (email !== null && (typeof email !== 'string' || !EMAIL.test(email.trim()))) add('email', 'is invalid');
    const phone = input.phone === undefined || input.phone === null || input.phone === '' ? null : input.phone;
    if (phone !== null && (typeof phone !== 'string' || !US_E164.test(phone))) add('phone', 'is invalid. Only US, Canadian and Puerto Rican numbers in the format +11234567890 are accepted');
    const qr = input.quick_response_code_type ?? null;
    if (qr !== null && qr !== 'online' && qr !== 'offline') add('quick_response_code_type', 'is not included in the list');
    if (input.link_enabled !== undefined && typeof input.link_enabled !== 'boolean') add('link_enabled', 'must be true or false');
    const dates: Record<'valid_from' | 'valid_until', string | null> = { valid_from: null, valid_until: null };
    for (const key of ['valid_from', 'valid_until'] as const) {
      const value = input[key];
      if (value === undefined || value === null) continue;
      if (typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) dates[key] = new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z');
      else add(key, 'is not a valid date');
    }
    if (dates.valid_from && dates.valid_until && dates.valid_until <= dates.valid_from) add('valid_until', 'must be after valid from');
    if (Object.keys(errors).length) return validationErrors(res, errors);
    const link = await store.createGroupLink({
      group_id: groupId!,
      name,
      email: email === null ? null : (email as string).trim(),
      phone: phone as string | null,
      quick_response_code_type: qr as 'online' | 'offline' | null,
      link_enabled: input.link_enabled !== false,
      ...dates,
      created_by_id: await deps.apiUserId(),
    });
    res.status(200).json(link);
  }));

  app.delete('/group_links/:id', handle(async (req, res) => {
    const id = pathId(req);
    if (id === undefined || !(await store.deleteGroupLink(id))) return recordMissing(res, 'Group link');
    res.status(204).end();
  }));

  // ---- locks ----------------------------------------------------------------------------

  app.get('/locks', handle(async (req, res) => {
    const params = listParams(req, LIMITS.locks);
    sendCollection(res, params, await store.listLocks(params));
  }));

  app.post('/locks/:id/unlock', handle(async (req, res) => {
    const id = pathId(req);
    if (id === undefined) return kisiError(res, 404, 'The door could not be found.', 'fad10e');
    const outcome = await deps.unlock(id);
    res.status(outcome.status).json(outcome.body);
  }));

  app.use((_req, res) => void res.status(404).json(ENDPOINT_MISSING));
  const onError: ErrorRequestHandler = (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const type = (err as { type?: string }).type;
    if (type === 'entity.parse.failed') return void kisiError(res, 400, 'The request body is not valid JSON.', '000400');
    if (type === 'entity.too.large') return void kisiError(res, 413, 'The request body is too large.', '000413');
    kisiError(res, 500, 'An unexpected issue occured.', 'ffffff');
  };
  app.use(onError);
  return app;
}
