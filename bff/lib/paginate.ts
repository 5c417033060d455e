import { sql, type QueryExecutorProvider, type SelectQueryBuilder } from 'kysely';
import { CURSOR_MESSAGE, MAX_ID, type CursorPageQuery, type Page, type PageQuery } from '../contracts/common.contract';
import { badRequest } from './http-error';

/** The one pagination helper for small lists: runs the count and the page query together; a page past the end is empty. */
export async function paginate<T>(
  { page, pageSize }: PageQuery,
  count: () => Promise<number>,
  fetchPage: (limit: number, offset: number) => Promise<T[]>,
): Promise<Page<T>> {
  const [total, items] = await Promise.all([count(), fetchPage(pageSize, page * pageSize)]);
  return { items, page, pageSize, total };
}

/**
 * How far a list that grows with the years counts: past it the list says "1,000+" (a person reads
 * the first pages; counting two years of door events for each of them cost the page 20–600 ms).
 */
export const COUNT_STOPS_AT = 1_000;

/**
 * How far a page number alone (an old link, a typed address) is read by OFFSET: further, skipping
 * the rows before it would cost the years again (`?page=19999&pageSize=100` of two years of door events).
 */
export const OFFSET_REACHES = 10_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list's own builder, whatever its tables: the helper adds conditions on the order's columns by name
type AnyBuilder = SelectQueryBuilder<any, any, any>;

/**
 * A list's order: its columns, all one direction, the last one unique (an id), each with the type
 * of its values (a cursor from a link is checked against it before it reaches the database).
 */
export interface KeysetOrder {
  direction: 'asc' | 'desc';
  columns: readonly (readonly [column: string, type: 'text' | 'integer'])[];
}

type KeyValue = string | number;

/** A row's key as its links carry it. */
export const encodeCursor = (key: readonly KeyValue[]) => Buffer.from(JSON.stringify(key)).toString('base64url');

/** A link's cursor → the key it names, or a 400 in words when it is not one of this list's. */
function decodeCursor(text: string, order: KeysetOrder): KeyValue[] {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(CURSOR_MESSAGE);
  }
  const fits =
    Array.isArray(key) &&
    key.length === order.columns.length &&
    key.every((value, i) =>
      order.columns[i]![1] === 'integer'
        ? Number.isSafeInteger(value) && Math.abs(value as number) <= MAX_ID
        : // PostgreSQL refuses a NUL in text with an error of its own.
          typeof value === 'string' && value.length <= 500 && !value.includes('\u0000'),
    );
  if (!fits) throw badRequest(CURSOR_MESSAGE);
  return key as KeyValue[];
}

/** `t.created_at` is read from a row as `created_at`. */
const fieldOf = (column: string) => column.slice(column.lastIndexOf('.') + 1);

/** `(a, b) < (x, y)`: one index range on SQLite and PostgreSQL when an index holds the columns in that order. */
function beyond(order: KeysetOrder, key: readonly KeyValue[], comparison: '<' | '>' | '<=' | '>=') {
  const columns = sql.join(order.columns.map(([column]) => sql.ref(column)));
  const values = sql.join(key.map((value) => sql`${value}`));
  return sql<boolean>`(${columns}) ${sql.raw(comparison)} (${values})`;
}

/** How many rows a query has, counted no further than `upTo`. */
export async function countUpTo(db: QueryExecutorProvider, query: AnyBuilder, upTo: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from (${query.select(sql.lit(1).as('one')).limit(upTo)}) as counted`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * One page of a list that grows with the years, read by keyset: from the row its cursor names (the
 * Next link's `next`, the Previous link's `previous`) along `order`, never past the rows before it,
 * so page 5,000 costs what page 1 does. The count goes from the page's first row and stops at
 * {@link COUNT_STOPS_AT} past it ("12,000+" deep in a list). A page asked for by number alone (an old
 * link) is read by OFFSET, up to {@link OFFSET_REACHES} rows in. A Previous link that reaches the
 * start answers the first page (full).
 */
export async function keysetPaginate<Row, Item>(
  /** The database (or transaction) the count runs on. */
  db: QueryExecutorProvider,
  query: CursorPageQuery,
  spec: {
    /** The list's rows with its filters, nothing selected yet. */
    matching: () => AnyBuilder;
    /**
     * The same rows written for the count, when another plan counts them best (a filter whose page
     * walks the list's order while its rows are quickest counted off an index of their own).
     */
    counting?: () => AnyBuilder;
    order: KeysetOrder;
    /** Adds the selection; the rows must hold the order's columns. */
    select: (query: AnyBuilder) => SelectQueryBuilder<never, never, Row>;
    toItem: (row: Row) => Item;
  },
): Promise<Page<Item>> {
  const { matching, order, select, toItem } = spec;
  const counting = spec.counting ?? matching;
  const { pageSize } = query;
  if (query.next && query.previous) throw badRequest('A page has one cursor: next (from its Next link) or previous (from its Previous link), not both');
  const forward = order.direction === 'desc' ? '<' : '>';
  const backward = order.direction === 'desc' ? '>' : '<';
  const ordered = (q: AnyBuilder, direction: 'asc' | 'desc') => order.columns.reduce((built, [column]) => built.orderBy(column, direction), q);
  const keyOf = (row: Row) => order.columns.map(([column]) => (row as Record<string, KeyValue>)[fieldOf(column)]!);
  const read = async (q: AnyBuilder, direction: 'asc' | 'desc', offset: number): Promise<Row[]> =>
    (await select(ordered(q, direction).limit(pageSize + 1).offset(offset)).execute()) as Row[];

  let page = query.page;
  let rows: Row[];
  let more: boolean;
  if (query.previous) {
    const reversed = await read(matching().where(beyond(order, decodeCursor(query.previous, order), backward)), order.direction === 'desc' ? 'asc' : 'desc', 0);
    if (reversed.length > pageSize) {
      page = Math.max(page, 1); // rows come before it: not the first page, whatever the link said
      rows = reversed.slice(0, pageSize).reverse();
      more = true; // the row the cursor names, at least, comes after this page
    } else {
      // Back at the start (rows came or went since the link was made): the first page, full.
      page = 0;
      rows = await read(matching(), order.direction, 0);
      more = rows.length > pageSize;
      rows = rows.slice(0, pageSize);
    }
  } else {
    if (!query.next && page * pageSize > OFFSET_REACHES) throw badRequest(`A page number alone reaches the first ${OFFSET_REACHES.toLocaleString('en')} rows: follow the Next links from the first page`);
    const from = query.next ? matching().where(beyond(order, decodeCursor(query.next, order), forward)) : matching();
    rows = await read(from, order.direction, query.next ? 0 : page * pageSize);
    more = rows.length > pageSize;
    rows = rows.slice(0, pageSize);
  }
  if (page === 0 && query.next) page = 1; // a Next link's page is never the first
  const first = rows[0];
  const last = rows.at(-1);
  const offset = page * pageSize;
  let total: number;
  let totalIsLowerBound: true | undefined;
  if (!first) {
    const n = await countUpTo(db, counting(), COUNT_STOPS_AT + 1);
    [total, totalIsLowerBound] = n > COUNT_STOPS_AT ? [COUNT_STOPS_AT, true] : [n, undefined];
  } else if (!more) {
    total = offset + rows.length;
  } else {
    const n = await countUpTo(db, counting().where(beyond(order, keyOf(first), `${forward}=` as '<=' | '>=')), COUNT_STOPS_AT + 1);
    [total, totalIsLowerBound] = n > COUNT_STOPS_AT ? [offset + COUNT_STOPS_AT, true] : [offset + n, undefined];
  }
  return {
    items: rows.map(toItem),
    page,
    pageSize,
    total,
    ...(totalIsLowerBound ? { totalIsLowerBound } : {}),
    ...(more && last ? { next: encodeCursor(keyOf(last)) } : {}),
    ...(page > 0 && first ? { previous: encodeCursor(keyOf(first)) } : {}),
  };
}
