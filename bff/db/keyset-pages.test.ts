import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { CURSOR_MESSAGE, type CursorPageQuery, type Page } from '../contracts/common.contract';
import { COUNT_STOPS_AT, keysetPaginate, type KeysetOrder } from '../lib/paginate';
import { connect, createKysely, type Connection } from './engine';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';

/**
 * Keyset pages and the contains index, on a table of their own (both engines: `npm run test:postgres`
 * runs this file on PostgreSQL). 1,500 visits of one a minute, `at` with ties broken by the id.
 */
interface Visit {
  id: number;
  at: string;
  name: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a scratch table outside the app's schema
let kdb: Kysely<any>;
let connection: Connection;
let target: TestDatabase;
let dir: string;

const ORDER: KeysetOrder = { direction: 'desc', columns: [['at', 'text'], ['id', 'integer']] };
const VISITS = 1_500;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-pages-'));
  target = await createTestDatabase(dir, 'pages');
  connection = connect(target.url);
  kdb = createKysely(connection);
  await kdb.schema.createTable('visits').addColumn('id', 'integer', (c) => connection.ddl.id(c)).addColumn('at', 'text', (c) => c.notNull()).addColumn('name', 'text', (c) => c.notNull()).execute();
  await kdb.schema.createIndex('visits_at_idx').on('visits').columns(['at', 'id']).execute();
  await connection.ddl.containsIndex(kdb, 'visits', ['name']);
  // Two visits share each minute: the id orders them.
  const rows = Array.from({ length: VISITS }, (_, i) => ({ at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 60_000).toISOString(), name: `Member ${i % 300} Ådal` }));
  for (let i = 0; i < rows.length; i += 500) await kdb.insertInto('visits').values(rows.slice(i, i + 500)).execute();
});
afterAll(async () => {
  await kdb.destroy();
  await connection.close();
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const list = (query: Partial<CursorPageQuery>, name?: string): Promise<Page<Visit>> =>
  keysetPaginate(kdb, { page: 0, pageSize: 10, ...query }, {
    matching: () => {
      const all = kdb.selectFrom('visits');
      return name ? all.where(connection.containsMatch('visits', ['name'], name)) : all;
    },
    order: ORDER,
    select: (q) => q.selectAll(),
    toItem: (row: Visit) => ({ id: row.id, at: row.at, name: row.name }),
  });

describe('keysetPaginate', () => {
  it('walks the whole list by Next links, every row once, in order, and the count stops at 1,000 past the page', async () => {
    const seen: number[] = [];
    let page = await list({ pageSize: 100 });
    expect(page.total).toBe(COUNT_STOPS_AT);
    expect(page.totalIsLowerBound).toBe(true);
    expect(page.previous).toBeUndefined();
    for (;;) {
      seen.push(...page.items.map((visit) => visit.id));
      if (!page.next) break;
      page = await list({ page: page.page + 1, pageSize: 100, next: page.next });
    }
    expect(seen).toEqual(Array.from({ length: VISITS }, (_, i) => VISITS - i));
    // The last page counts what is left: exact.
    expect(page.page).toBe(14);
    expect(page.total).toBe(VISITS);
    expect(page.totalIsLowerBound).toBeUndefined();
  });

  it('comes back by Previous links to the same pages, and a Previous link at the start answers the first page, full', async () => {
    const first = await list({});
    const second = await list({ page: 1, next: first.next });
    const third = await list({ page: 2, next: second.next });
    const backToSecond = await list({ page: 1, previous: third.previous });
    expect(backToSecond.items).toEqual(second.items);
    expect(backToSecond.next).toBe(second.next);
    const backToFirst = await list({ page: 0, previous: second.previous });
    expect(backToFirst.items).toEqual(first.items);
    expect(backToFirst.previous).toBeUndefined();
    // Deep in the list the total is the rows before the page and 1,000 more at most.
    expect(third.total).toBe(20 + COUNT_STOPS_AT);
  });

  it('reads a page asked for by number alone (an old link) by OFFSET, the same rows as by cursor, but not past 10,000 rows', async () => {
    const first = await list({});
    const byCursor = await list({ page: 1, next: first.next });
    expect((await list({ page: 1 })).items).toEqual(byCursor.items);
    await expect(list({ page: 101, pageSize: 100 })).rejects.toMatchObject({ status: 400, detail: expect.stringMatching(/follow the Next links/) });
  });

  it('gives a Previous link back with a page its own link numbered 0 (a hand-made address) when rows come before it', async () => {
    const first = await list({});
    const third = await list({ page: 2, next: (await list({ page: 1, next: first.next })).next });
    const back = await list({ previous: third.previous });
    expect(back.page).toBe(1);
    expect(back.previous).toEqual(expect.any(String));
    expect((await list({ page: 0, previous: back.previous })).items).toEqual(first.items);
  });

  it('refuses a cursor it did not make with a 400 in words, before the database sees it', async () => {
    const wrongShape = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'seven'])).toString('base64url');
    await expect(list({ next: wrongShape })).rejects.toMatchObject({ status: 400, detail: CURSOR_MESSAGE });
    await expect(list({ next: 'bm90IGpzb24' })).rejects.toMatchObject({ status: 400, detail: CURSOR_MESSAGE });
    const withNul = Buffer.from(JSON.stringify(['2026-01-01\u0000', 7])).toString('base64url');
    await expect(list({ next: withNul })).rejects.toMatchObject({ status: 400, detail: CURSOR_MESSAGE });
    const first = await list({});
    await expect(list({ next: first.next, previous: first.next })).rejects.toMatchObject({ status: 400 });
  });
});

describe('containsMatch', () => {
  it('finds a text in the middle of a name, any case, through the index, the same as the plain contains', async () => {
    const found = await list({ pageSize: 100 }, 'BER 29');
    // "Member 29" and "Member 290"–"Member 299": 11 names of 300, 5 visits each.
    expect(found.total).toBe(55);
    expect(new Set(found.items.map((visit) => visit.name))).toEqual(new Set(['Member 29 Ådal', ...Array.from({ length: 10 }, (_, i) => `Member 29${i} Ådal`)]));
    expect((await list({}, 'ådal')).totalIsLowerBound).toBe(true);
    // Shorter than a trigram: the plain contains.
    expect((await list({ pageSize: 100 }, '99')).total).toBe(5 * 3);
  });

  it('keeps the index in step with the rows written, changed and deleted after it was made', async () => {
    const { id } = await kdb.insertInto('visits').values({ at: '2027-01-01T00:00:00.000Z', name: 'Zoë Quist' }).returning('id').executeTakeFirstOrThrow();
    expect((await list({}, 'oë qu')).items.map((visit) => visit.id)).toEqual([id]);
    await kdb.updateTable('visits').set({ name: 'Zoë Lind' }).where('id', '=', id).execute();
    expect((await list({}, 'oë qu')).items).toEqual([]);
    expect((await list({}, 'LIND')).items.map((visit) => visit.id)).toEqual([id]);
    await kdb.deleteFrom('visits').where('id', '=', id).execute();
    expect((await list({}, 'lind')).items).toEqual([]);
    if (connection.engine === 'sqlite') {
      // The trigram index agrees with its table (FTS5's own check).
      await expect(sql`insert into visits_contains (visits_contains, rank) values ('integrity-check', 1)`.execute(kdb)).resolves.toBeDefined();
    }
  });
});
