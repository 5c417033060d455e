import request from 'supertest';
import { EXAMPLE_PIECE_NUMBER, type CategoryListSchema, type PartCategory, type PartDetail, type PartListItem, type PieceDetail, type PieceSummary } from '../../contracts/catalogue.contract';
import type { Page } from '../../contracts/common.contract';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import type * as v from 'valibot';
import { CATALOGUE_SEED_DIR, seedCatalogueIfEmpty } from './catalogue.seed';

/** The catalogue's public reads on the catalogue shipped with the app (bff/features/catalogue/seed). */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  expect(await seedCatalogueIfEmpty(ctx.database)).toBe(true);
});
afterAll(() => ctx.close());

const get = (url: string) => request(ctx.app).get(url);
const list = async (query: string) => (await get(`/api/rest/pieces?${query}`).expect(200)).body as Page<PieceSummary>;
const problemOf = async (url: string, status: number) => {
  const res = await get(url).expect(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  return res.body as { detail: string; errors?: Array<{ path: string; message: string }> };
};

it(`seeds the shipped catalogue once (${CATALOGUE_SEED_DIR}), and never over one that is there`, async () => {
  expect((await list('')).total).toBe(327);
  // The number the pages give as an example finds a piece.
  expect((await list(`query=${EXAMPLE_PIECE_NUMBER}`)).items[0]?.number).toBe(EXAMPLE_PIECE_NUMBER);
  expect(await seedCatalogueIfEmpty(ctx.database)).toBe(false);
  expect((await list('')).total).toBe(327);
});

describe('GET /api/rest/pieces', () => {
  it('lists pieces newest first, paged, without a session', async () => {
    const first = await list('pageSize=5');
    expect(first).toMatchObject({ page: 0, pageSize: 5, total: 327 });
    const years = first.items.map((p) => p.year!);
    expect(years).toEqual([...years].sort((a, b) => b - a));
    const second = await list('page=1&pageSize=5');
    expect(second.items.map((p) => p.id)).not.toContain(first.items[0]!.id);
    expect((await list('page=99&pageSize=5')).items).toEqual([]);
  });

  it('finds pieces by number: the exact number first, then numbers that start like it', async () => {
    const exact = await list('query=10139');
    expect(exact.items.map((p) => p.number)).toEqual(['10139-1']);
    const prefix = await list('query=1013');
    expect(prefix.items.map((p) => p.number).sort()).toEqual(['10138-1', '10139-1']);
    // `10138-1` typed as it is written; and numbers with letters.
    expect((await list('query=10138-1')).items[0]!.number).toBe('10138-1');
    expect((await list('query=harbourpack')).items.map((p) => p.number)).toEqual(['harbourpack-1']);
  });

  it('ranks an exact number above pieces whose names hold the same word', async () => {
    // A second edition shares its first edition's number stem: `-1` is the exact one.
    const [edition] = (await list('query=edition&pageSize=1')).items;
    const stem = edition!.number.replace(/-2$/, '');
    const both = await list(`query=${stem}`);
    expect(both.items.map((p) => p.number)).toEqual([`${stem}-1`, `${stem}-2`]);
  });

  it('finds pieces by words of their name, every word, in any order, as the start of a word', async () => {
    const found = await list('query=harb%20start&pageSize=50');
    expect(found.items.map((p) => p.name)).toEqual(['Harbour Starter Pack']);
    const lift = await list('query=LIFT&pageSize=100');
    expect(lift.total).toBeGreaterThan(1);
    for (const p of lift.items) expect(p.name.toLowerCase()).toMatch(/\blift/);
    expect(await list('query=zzzz-no-such')).toMatchObject({ items: [], total: 0 });
    // Quotes, operators and other marks are words or nothing to the search, never syntax.
    // `"harbour" OR * NEAR(` is the words harbour, or and near, which no piece has all of (OR as syntax would find the harbour pieces).
    const marks = await list(`query=${encodeURIComponent('"harbour" OR * NEAR(')}`);
    expect(marks).toEqual(await list('query=harbour%20or%20near'));
    expect(marks).toMatchObject({ items: [], total: 0 });
    expect((await list('query=harbour')).total).toBe(2);
    expect((await list(`query=${encodeURIComponent("harbour' & !")}`)).items.map((p) => p.name)).toContain('Harbour Starter Pack');
  });

  it('filters by a category and the categories below it, and sorts as asked', async () => {
    const { items: categories } = (await get('/api/rest/categories').expect(200)).body as v.InferOutput<typeof CategoryListSchema>;
    const harbour = categories.find((c) => c.name === 'Harbour Town')!;
    const below = categories.filter((c) => c.parentId === harbour.id);
    expect(below.map((c) => c.name).sort()).toEqual(['Docks', 'Fire and Rescue', 'Market Street']);
    const inHarbour = await list(`category=${harbour.id}&pageSize=100`);
    expect(inHarbour.total).toBe(harbour.pieceCount + below.reduce((n, c) => n + c.pieceCount, 0));
    expect(new Set(inHarbour.items.map((p) => p.category!.name))).toEqual(new Set(['Harbour Town', 'Docks', 'Fire and Rescue', 'Market Street']));

    const byName = await list(`category=${harbour.id}&sort=name&pageSize=100`);
    const names = byName.items.map((p) => p.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const byParts = (await list('sort=parts-desc&pageSize=20')).items.map((p) => p.partCount);
    expect(byParts).toEqual([...byParts].sort((a, b) => b - a));
  });

  it('answers bad input with a 400 naming the field', async () => {
    expect((await problemOf('/api/rest/pieces?category=9999', 400)).errors).toEqual([{ path: 'query.category', message: expect.stringMatching(/No category with id 9999/) }]);
    expect((await problemOf('/api/rest/pieces?category=abc', 400)).errors?.[0]?.path).toBe('query.category');
    expect((await problemOf(`/api/rest/pieces?query=${'a'.repeat(101)}`, 400)).errors?.[0]).toEqual({ path: 'query.query', message: 'Search is at most 100 characters' });
    expect((await problemOf('/api/rest/pieces?page=-1', 400)).errors?.[0]?.path).toBe('query.page');
    expect((await problemOf('/api/rest/pieces?pageSize=1000', 400)).errors?.[0]?.path).toBe('query.pageSize');
    expect((await problemOf('/api/rest/pieces?sort=price', 400)).errors?.[0]?.path).toBe('query.sort');
  });
});

describe('GET /api/rest/pieces/:id', () => {
  it('shows a piece with its parts grouped by category, each with colour and quantity, and totals', async () => {
    const byNumber = (await get('/api/rest/pieces/harbourpack-1').expect(200)).body as PieceDetail;
    const byId = (await get(`/api/rest/pieces/${byNumber.id}`).expect(200)).body as PieceDetail;
    expect(byId).toEqual(byNumber);
    expect(byNumber).toMatchObject({ number: 'harbourpack-1', name: 'Harbour Starter Pack', year: 2024, category: { name: 'Harbour Town' } });
    const groups = byNumber.groups.map((g) => g.category?.name ?? null);
    expect(groups).toEqual([...groups].sort((a, b) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b))));
    expect(groups).toContain(null); // the buoy has no category: last
    const lines = byNumber.groups.flatMap((g) => g.lines);
    expect(new Set(lines.map((l) => l.part.number))).toEqual(new Set(['3001pr0001', '3001', '3003', '3020', 'x1503']));
    for (const line of lines) expect(line.colour).toEqual({ id: expect.any(Number), name: expect.any(String), rgb: expect.stringMatching(/^[0-9A-F]{6}$/), transparent: expect.any(Boolean) });
    // Each category counts its parts and its spares the way the totals do, so the chips add up to the header.
    for (const group of byNumber.groups) {
      expect(group.quantity).toBe(group.lines.filter((l) => !l.spare).reduce((n, l) => n + l.quantity, 0));
      expect(group.spares).toBe(group.lines.filter((l) => l.spare).reduce((n, l) => n + l.quantity, 0));
    }
    expect(byNumber.groups.reduce((n, g) => n + g.quantity, 0)).toBe(byNumber.totals.quantity);
    expect(byNumber.groups.reduce((n, g) => n + g.spares, 0)).toBe(byNumber.totals.spares);
    expect(byNumber.totals.spares).toBeGreaterThan(0);
    expect(byNumber.totals).toEqual({
      lines: lines.length,
      distinctParts: 5,
      quantity: lines.filter((l) => !l.spare).reduce((n, l) => n + l.quantity, 0),
      spares: lines.filter((l) => l.spare).reduce((n, l) => n + l.quantity, 0),
    });
  });

  it('answers 404 for a piece that is not there and 400 for a malformed one', async () => {
    expect((await problemOf('/api/rest/pieces/999999', 404)).detail).toBe('There is no piece 999999.');
    expect((await problemOf('/api/rest/pieces/99999-9', 404)).detail).toBe('There is no piece 99999-9.');
    expect((await problemOf('/api/rest/pieces/007', 404)).detail).toBe('There is no piece 007.');
    for (const bad of ['-1', 'a%20b', '.5', '_x', `${'x'.repeat(41)}`]) {
      expect({ bad, errors: (await problemOf(`/api/rest/pieces/${bad}`, 400)).errors?.map((e) => e.path) }).toEqual({ bad, errors: ['params.id'] });
    }
  });
});

describe('GET /api/rest/parts', () => {
  const parts = async (query: string) => (await get(`/api/rest/parts?${query}`).expect(200)).body as Page<PartListItem>;

  it('finds a part by the number people type: the exact number first, then numbers that start with it', async () => {
    const found = await parts('query=3001');
    expect(found.items.slice(0, 2).map((p) => p.number)).toEqual(['3001', '3001pr0001']);
    expect(found.items[0]).toMatchObject({ name: 'Brick 2 x 4', pieceCount: expect.any(Number) });
    expect((await parts('query=3001PR0001')).items.map((p) => p.number)).toEqual(['3001pr0001']);
  });

  it('finds parts by words of their name, in any order and case, and within a part category', async () => {
    const bricks = await parts('query=BRICK%204&pageSize=100');
    expect(bricks.total).toBeGreaterThan(1);
    for (const part of bricks.items) expect(part.name.toLowerCase()).toMatch(/brick.*\b4|\b4.*brick/);
    const printed = bricks.items.find((p) => p.number === '3001pr0001')!;
    const inCategory = await parts(`query=brick&category=${printed.category!.id}&pageSize=100`);
    expect(inCategory.items.map((p) => p.number)).toContain('3001pr0001');
    for (const part of inCategory.items) expect(part.category?.id).toBe(printed.category!.id);
    expect((await parts('query=zzzzzz')).total).toBe(0);
  });

  it('lists every part, the most used first, and sorts by number or name', async () => {
    const all = await parts('pageSize=100');
    expect(all.total).toBeGreaterThan(4);
    const used = all.items.map((p) => p.pieceCount);
    expect(used).toEqual([...used].sort((a, b) => b - a));
    const byNumber = (await parts('sort=number&pageSize=100')).items.map((p) => p.number);
    expect(byNumber).toEqual([...byNumber].sort());
  });

  it('lists the part categories with their parts, and refuses one that is not there', async () => {
    const { items } = (await get('/api/rest/part-categories').expect(200)).body as { items: PartCategory[] };
    const printed = items.find((c) => c.name === 'Printed Bricks')!;
    expect(printed.partCount).toBe((await parts(`category=${printed.id}&pageSize=100`)).total);
    expect((await problemOf('/api/rest/parts?category=999999', 400)).errors?.[0]).toEqual({
      path: 'query.category',
      message: 'No part category with id 999999; GET /api/rest/part-categories lists them',
    });
    expect((await problemOf('/api/rest/parts?sort=price', 400)).errors?.[0]?.path).toBe('query.sort');
  });
});

describe('GET /api/rest/parts/:id', () => {
  it('opens a part by its number even when the number is digits only; an id still works when no number is those digits', async () => {
    const brick = (await get('/api/rest/parts/3001').expect(200)).body as PartDetail;
    expect(brick).toMatchObject({ number: '3001', name: 'Brick 2 x 4' });
    const buoy = (await get('/api/rest/parts/x1503').expect(200)).body as PartDetail;
    expect(((await get(`/api/rest/parts/${buoy.id}`).expect(200)).body as PartDetail).number).toBe('x1503');
  });


  it('shows a part, the colours it comes in and where it is used, most of it first, paged', async () => {
    const printed = (await get('/api/rest/parts/3001pr0001?pageSize=5').expect(200)).body as PartDetail;
    expect(printed).toMatchObject({ number: '3001pr0001', name: 'Brick 2 x 4 with Harbour Map print', category: { name: 'Printed Bricks' }, material: 'Plastic' });
    expect(printed.colours.length).toBeGreaterThan(0);
    const { usedIn } = printed;
    expect(usedIn.items).toHaveLength(Math.min(5, usedIn.total));
    const quantities = usedIn.items.map((u) => u.quantity);
    expect(quantities).toEqual([...quantities].sort((a, b) => b - a));
    // Where-used agrees with each piece's own composition.
    for (const use of usedIn.items.slice(0, 3)) {
      const detail = (await get(`/api/rest/pieces/${use.piece.id}`).expect(200)).body as PieceDetail;
      const lines = detail.groups.flatMap((g) => g.lines).filter((l) => l.part.number === '3001pr0001');
      expect(use.quantity).toBe(lines.filter((l) => !l.spare).reduce((n, l) => n + l.quantity, 0));
      expect(use.colours).toBe(new Set(lines.map((l) => l.colour.id)).size);
    }
    // Every piece once over all pages.
    const pages: number[] = [];
    for (let page = 0; page * 5 < usedIn.total; page++) {
      pages.push(...((await get(`/api/rest/parts/${printed.id}?pageSize=5&page=${page}`).expect(200)).body as PartDetail).usedIn.items.map((u) => u.piece.id));
    }
    expect(new Set(pages).size).toBe(usedIn.total);
  });

  it('answers 404 for a part that is not there and 400 for a malformed one', async () => {
    expect((await problemOf('/api/rest/parts/3001pr9999', 404)).detail).toBe('There is no part 3001pr9999.');
    expect((await problemOf('/api/rest/parts/999999', 404)).detail).toBe('There is no part 999999.');
    expect((await problemOf('/api/rest/parts/a.b%2Fc', 400)).errors?.[0]?.path).toBe('params.id');
    expect((await problemOf('/api/rest/parts/1?page=x', 400)).errors?.[0]?.path).toBe('query.page');
  });
});

it('is in the OpenAPI document', async () => {
  const { paths } = (await get('/api/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
  expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/api/rest/pieces', '/api/rest/pieces/{id}', '/api/rest/parts', '/api/rest/parts/{id}', '/api/rest/categories', '/api/rest/part-categories']));
});
