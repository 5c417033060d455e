import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { PartListItem, PieceSummary } from '../../contracts/catalogue.contract';
import type { Page } from '../../contracts/common.contract';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { importCatalogue } from './catalogue.importer';

/**
 * Searches that match more than a thousand parts (decision 0086): read best first from the text
 * index and stopped at the page, counted up to the next thousand past the page. A catalogue of
 * 1,500 "Tile" parts, each used by a different number of pieces, is imported in Rebrickable's format.
 */

const TILES = 1_500;
const PIECES = 40;
/** Tile n is used by (n mod PIECES) pieces: tiles 39, 79, 119… are the most used. */
const usedBy = (tile: number) => tile % PIECES;

// The 1,500 parts are imported before the tests (and one test imports them again): on PostgreSQL,
// beside CI's other test files on two cores, that took longer than jest's 5 s.
jest.setTimeout(30_000);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await importCatalogue(ctx.database.db, catalogueFolder(), { refreshTextIndex: ctx.database.refreshTextIndex });
});
afterAll(() => ctx.close());

function catalogueFolder(lines = (piece: number) => Array.from({ length: TILES }, (_, tile) => tile).filter((tile) => usedBy(tile) > piece)): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-catalogue-search-'));
  const write = (name: string, rows: string[]) => fs.writeFileSync(path.join(dir, name), `${rows.join('\n')}\n`);
  write('themes.csv', ['id,name,parent_id', '1,Town,']);
  write('part_categories.csv', ['id,name', '1,Tiles', '2,Bricks']);
  write('colors.csv', ['id,name,rgb,is_trans', '15,White,FFFFFF,f']);
  write('parts.csv', [
    'part_num,name,part_cat_id,part_material',
    ...Array.from({ length: TILES }, (_, tile) => `${70_000 + tile},Tile 1 x ${tile} with Groove,1,Plastic`),
    '3001,Brick 2 x 4,2,Plastic',
    '30010,Brick 1 x 2 with Window,2,Plastic',
  ]);
  write('sets.csv', ['set_num,name,year,theme_id,num_parts,img_url', ...Array.from({ length: PIECES }, (_, piece) => `${9000 + piece}-1,Tile Sampler ${piece},${1990 + piece},1,1,`)]);
  write('inventories.csv', ['id,version,set_num', ...Array.from({ length: PIECES }, (_, piece) => `${piece + 1},1,${9000 + piece}-1`)]);
  write('inventory_parts.csv', [
    'inventory_id,part_num,color_id,quantity,is_spare,img_url',
    ...Array.from({ length: PIECES }, (_, piece) => lines(piece).map((tile) => `${piece + 1},${70_000 + tile},15,1,f,`)).flat(),
    '1,3001,15,1,f,',
  ]);
  return dir;
}

const parts = async (query: string) => (await request(ctx.app).get(`/api/rest/parts?${query}`).expect(200)).body as Page<PartListItem>;
const pieces = async (query: string) => (await request(ctx.app).get(`/api/rest/pieces?${query}`).expect(200)).body as Page<PieceSummary>;

describe('a search that matches more than a thousand parts', () => {
  it('shows the most used first and says "at least 1,000" instead of counting them all', async () => {
    const first = await parts('query=groove&pageSize=24');
    expect(first).toMatchObject({ total: 1_000, totalIsLowerBound: true, page: 0, pageSize: 24 });
    expect(first.items.map((p) => p.pieceCount)).toEqual(Array(24).fill(PIECES - 1));
    // Ranked as the list without words is: the most used first.
    expect((await parts('pageSize=24')).items.slice(0, 24).map((p) => p.number)).toEqual(first.items.map((p) => p.number));
  });

  it('counts on past the page the reader reached, exactly once it is all counted', async () => {
    // Page 41 (0-based) ends at the 984th: still within the first thousand.
    expect(await parts('query=groove&pageSize=24&page=40')).toMatchObject({ total: 1_000, totalIsLowerBound: true });
    const further = await parts('query=groove&pageSize=24&page=41');
    expect(further).toMatchObject({ total: TILES });
    expect(further.totalIsLowerBound).toBeUndefined();
    expect(await parts('query=groove&pageSize=100&page=15')).toMatchObject({ items: [], total: TILES });
  });

  it('hands every match out once over all its pages, in order of use', async () => {
    const seen: PartListItem[] = [];
    for (let page = 0; page * 100 < TILES; page++) seen.push(...(await parts(`query=groove&pageSize=100&page=${page}`)).items);
    expect(new Set(seen.map((p) => p.id)).size).toBe(TILES);
    const used = seen.map((p) => p.pieceCount);
    expect(used).toEqual([...used].sort((a, b) => b - a));
  });

  it('puts a typed number first, then the numbers that start with it, then the rest, in order of use', async () => {
    const found = await parts('query=3001&pageSize=5');
    expect(found.items.map((p) => p.number)).toEqual(['3001', '30010']);
    expect(found).toMatchObject({ total: 2 });
    // "7000" starts ten numbers (70000–70009) and is none itself: in order of use.
    const prefix = await parts('query=7000&pageSize=24');
    expect(prefix.items.map((p) => p.number).sort()).toEqual(Array.from({ length: 10 }, (_, n) => String(70_000 + n)));
    const used = prefix.items.map((p) => p.pieceCount);
    expect(used).toEqual([...used].sort((a, b) => b - a));
  });

  it('sorts every match by name or number when asked (then all of them are read)', async () => {
    const byNumber = await parts('query=groove&sort=number&pageSize=3');
    expect(byNumber.items.map((p) => p.number)).toEqual(['70000', '70001', '70002']);
    expect(byNumber).toMatchObject({ total: 1_000, totalIsLowerBound: true });
  });

  it('filters by category within the ranked matches', async () => {
    expect(await parts('query=with&category=2')).toMatchObject({ total: 1, items: [{ number: '30010' }] });
    expect((await parts('query=with&category=1&pageSize=24')).totalIsLowerBound).toBe(true);
  });

  it('ranks pieces newest first, and an import ranks parts again by their new use', async () => {
    expect((await pieces('query=sampler&pageSize=3')).items.map((p) => p.number)).toEqual(['9039-1', '9038-1', '9037-1']);
    // A new inventory: tile 0 is now in every piece, the others in none.
    await importCatalogue(ctx.database.db, catalogueFolder(() => [0]), { refreshTextIndex: ctx.database.refreshTextIndex });
    const first = await parts('query=groove&pageSize=2');
    expect(first.items.map((p) => [p.number, p.pieceCount])).toEqual([
      ['70000', PIECES],
      ['70001', 0],
    ]);
  });
});
