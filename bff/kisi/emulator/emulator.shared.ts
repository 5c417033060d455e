import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Request, Response, Router } from 'express';
import { containsText } from '../../db/engine';
import type { EmulatorTables } from './emulator.schema';
import { isIdText, MAX_ID } from '../../contracts/common.contract';

/**
 * What every resource of the emulator shares: Kisi's conventions for lists (limit/offset with
 * per-endpoint defaults and maxima, bare arrays with X-Collection-Range), its error bodies, and the
 * small parsers and query helpers behind them (docs/kisi-api.md, kisi-openapi-subset.yaml).
 */

export const ORGANIZATION = { id: 1, resource_type: 'Organization', name: 'Harbourside Venue', domain: 'harbourside' } as const;

/** Kisi's timestamps: UTC ISO-8601 without milliseconds. */
export const kisiTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const kisiNow = () => kisiTime(Date.now());
export const bool = (n: number | null | undefined) => n === 1;

export type Row<T> = { [K in keyof T]: T[K] extends { __select__: infer S } ? S : T[K] } & { id: number };

export interface Paged<T> {
  items: T[];
  total: number;
}

export interface ListParams {
  limit: number;
  offset: number;
  /** The request's query string (strings only, Express "simple" parser). */
  q: Record<string, string | undefined>;
}

/** A whole number an id column can hold (PostgreSQL's `integer` ends at 2³¹ − 1): any other names no record. */
export const storableId = (n: number) => Number.isInteger(n) && n > 0 && n <= MAX_ID;

export const ids = (text: string | undefined): number[] | undefined => (text === undefined ? undefined : text.split(',').map((s) => Number(s.trim())).filter(storableId));
/** Kisi's `ids=1,2` filter on `column` (an empty or invalid list matches nothing), when asked. */
export function idsFilter(q: Record<string, string | undefined>, column = 'id'): Expression<SqlBool>[] {
  const list = ids(q.ids);
  return list ? [sql<SqlBool>`${sql.ref(column)} in (${sql.join(list.length ? list : [0])})`] : [];
}

/** `ids=` plus `query=` on the name: the filters the places, locks and groups lists share. */
export const idsAndNameFilters = (q: Record<string, string | undefined>): Expression<SqlBool>[] => [
  ...idsFilter(q),
  ...(q.query ? [containsText(['name'], q.query)] : []),
];

export const intParam = (text: string | undefined): number | undefined => (text !== undefined && /^\d+$/.test(text) && Number(text) <= MAX_ID ? Number(text) : undefined);
export const boolParam = (text: string | undefined): boolean | undefined => (text === 'true' ? true : text === 'false' ? false : undefined);

/** One page of a filtered query and the filter's total, for X-Collection-Range. */
export async function pagedQuery<O>(
  query: SelectQueryBuilder<EmulatorTables, keyof EmulatorTables, O>,
  params: ListParams,
  order: (qb: SelectQueryBuilder<EmulatorTables, keyof EmulatorTables, O>) => SelectQueryBuilder<EmulatorTables, keyof EmulatorTables, O>,
): Promise<{ rows: O[]; total: number }> {
  const totalRow = await query.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await order(query).limit(params.limit).offset(params.offset).execute();
  return { rows, total: Number((totalRow as { n?: number } | undefined)?.n ?? 0) };
}

// ---- HTTP ---------------------------------------------------------------------------------

export const OFFSET_MAX = 20_000;
/** Kisi's per-endpoint `limit` default and maximum (kisi-api.md §4). */
export const LIMITS = {
  users: [50, 100],
  members: [50, 100],
  locks: [50, 250],
  places: [50, 250],
  events: [50, 250],
  groups: [10, 250],
  group_links: [10, 250],
  role_assignments: [10, 250],
} as const;

export const kisiError = (res: Response, status: number, error: string, code: string) => res.status(status).json({ error, code });
export const validationErrors = (res: Response, errors: Record<string, string[]>) => res.status(422).json({ errors });
export const ENDPOINT_MISSING = { error: 'The endpoint does not exist, please check your request.', code: '000404' };
export const recordMissing = (res: Response, what: string) => kisiError(res, 404, `${what} not found.`, '000404');

/** The first value of a query parameter as a string (repeated parameters keep the first). */
function queryStrings(req: Request): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[key] = first;
  }
  return out;
}

export const wholeNumber = (text: string | undefined) => (text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined);

/** A bad `limit` or `offset` is ignored and an out-of-range one clamped, never refused. */
export function listParams(req: Request, [defaultLimit, maxLimit]: readonly [number, number]): ListParams {
  const q = queryStrings(req);
  const limit = Math.min(Math.max(wholeNumber(q.limit) ?? defaultLimit, 1), maxLimit);
  const offset = Math.min(wholeNumber(q.offset) ?? 0, OFFSET_MAX);
  return { limit, offset, q };
}

/**
 * Kisi's `user_id=me` (users, members, role assignments): the user the API key belongs to, the
 * emulator's integration user. Any other value is left as sent.
 */
export async function withMe(params: ListParams, apiUserId: () => Promise<number | null>): Promise<ListParams> {
  if (params.q.user_id !== 'me') return params;
  return { ...params, q: { ...params.q, user_id: String((await apiUserId()) ?? 0) } };
}

/** Bare array plus `X-Collection-Range: offset-(offset+limit-1)/total` (Kisi does not clamp the end). */
export function sendCollection(res: Response, params: ListParams, { items, total }: Paged<unknown>) {
  res.setHeader('X-Collection-Range', `${params.offset}-${params.offset + params.limit - 1}/${total}`);
  res.status(200).json(items);
}

export const pathId = (req: Request): number | undefined => {
  const raw = req.params.id;
  return typeof raw === 'string' && isIdText(raw) ? Number(raw) : undefined;
};

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `DELETE <path>/:id`: 204, or Kisi's 404 when no record has that id. */
export function deleteById(router: Router, path: string, what: string, remove: (id: number) => Promise<boolean>) {
  router.delete(`${path}/:id`, async (req, res) => {
    const id = pathId(req);
    if (id === undefined || !(await remove(id))) return void recordMissing(res, what);
    res.status(204).end();
  });
}
