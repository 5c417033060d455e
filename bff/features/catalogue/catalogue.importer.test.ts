import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import request from 'supertest';
import type { PartDetail, PieceDetail } from '../../contracts/catalogue.contract';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { CatalogueFilesError, ImportStopped, importCatalogue, type FileReport } from './catalogue.importer';

/**
 * The importer as an operator meets it: Rebrickable's seven CSV files in a folder, imported whole
 * or not at all, file by file; bad rows reported by line and skipped; a re-run changes nothing.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Files = Record<string, string>;
const GOOD: Files = {
  'themes.csv': 'id,name,parent_id\n1,Harbour Town,\n2,Docks,1\n',
  'part_categories.csv': 'id,name\n1,Bricks\n2,Plates\n',
  'colors.csv': 'id,name,rgb,is_trans\n4,Red,C91A09,f\n15,White,FFFFFF,f\n47,Trans-Clear,FCFCFC,t\n',
  'parts.csv': 'part_num,name,part_cat_id,part_material\n3001,Brick 2 x 4,1,Plastic\n3020,Plate 2 x 4,2,Plastic\n3001pr0001,"Brick 2 x 4 with ""Harbour"" print",1,Plastic\n',
  'sets.csv': 'set_num,name,year,theme_id,num_parts,img_url\n100-1,Crane Dock,2020,2,10,\n200-1,Lighthouse,2021,1,7,https://cdn.rebrickable.com/media/sets/200-1.jpg\n',
  'inventories.csv': 'id,version,set_num\n1,1,100-1\n2,1,200-1\n3,2,200-1\n',
  'inventory_parts.csv': [
    'inventory_id,part_num,color_id,quantity,is_spare,img_url',
    '1,3001,4,4,f,',
    '1,3001,15,2,f,',
    '1,3020,4,3,f,',
    '1,3020,4,1,t,',
    // The first version of 200-1: its newest (3) is its composition.
    '2,3001,4,99,f,',
    '3,3001pr0001,47,5,f,',
    '3,3001,4,2,f,',
  ].join('\n'),
};

function folder(files: Files, { gzip = [] as string[] } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-catalogue-'));
  for (const [name, content] of Object.entries(files)) {
    if (gzip.includes(name)) fs.writeFileSync(path.join(dir, `${name}.gz`), zlib.gzipSync(content));
    else fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}
const run = (dir: string, options: Partial<Parameters<typeof importCatalogue>[2]> = {}) =>
  importCatalogue(ctx.database.db, dir, { refreshTextIndex: ctx.database.refreshTextIndex, ...options });
const piece = async (ref: string) => (await request(ctx.app).get(`/api/rest/pieces/${ref}`).expect(200)).body as PieceDetail;
const part = async (ref: string | number) => (await request(ctx.app).get(`/api/rest/parts/${ref}`).expect(200)).body as PartDetail;
/** A part by its number: numbers of digits only are ids in a path, so it is found through a piece it is in. */
const partNumbered = async (number: string, inPiece: string) => part((await piece(inPiece)).groups.flatMap((g) => g.lines).find((l) => l.part.number === number)!.part.id);
const compositionOf = (detail: PieceDetail) =>
  detail.groups.flatMap((g) => g.lines.map((l) => `${l.part.number} ${l.colour.name} ×${l.quantity}${l.spare ? ' spare' : ''}`)).sort();
const reportOf = (reports: FileReport[], file: string) => reports.find((r) => r.file.startsWith(file))!;

it('imports the seven files: pieces with their newest inventory, parts, colours, where-used', async () => {
  const reports = await run(folder(GOOD, { gzip: ['inventory_parts.csv'] }));
  expect(reports.map((r) => [r.file, r.rows, r.bad])).toEqual([
    ['themes.csv', 2, 0],
    ['part_categories.csv', 2, 0],
    ['colors.csv', 3, 0],
    ['parts.csv', 3, 0],
    ['sets.csv', 2, 0],
    ['inventories.csv', 3, 0],
    // Rebrickable ships it gzipped: read as it is. The old version's line is passed over, not counted.
    ['inventory_parts.csv.gz', 6, 0],
  ]);
  expect(compositionOf(await piece('100-1'))).toEqual(['3001 Red ×4', '3001 White ×2', '3020 Red ×1 spare', '3020 Red ×3']);
  const lighthouse = await piece('200-1');
  expect(compositionOf(lighthouse)).toEqual(['3001 Red ×2', '3001pr0001 Trans-Clear ×5']);
  // Its picture is kept at Rebrickable's address and answered as ours (decision 0068).
  expect(lighthouse).toMatchObject({ category: { name: 'Harbour Town' }, imageUrl: `/api/rest/pictures?src=${encodeURIComponent('https://cdn.rebrickable.com/media/sets/200-1.jpg')}` });
  const brick = await partNumbered('3001', '100-1');
  expect(brick.name).toBe('Brick 2 x 4');
  expect(brick.usedIn.items.map((u) => [u.piece.number, u.quantity, u.colours])).toEqual([
    ['100-1', 6, 2],
    ['200-1', 2, 1],
  ]);
  expect((await part('3001pr0001')).name).toBe('Brick 2 x 4 with "Harbour" print');
});

it('changes nothing when run again with the same files', async () => {
  const dir = folder(GOOD);
  await run(dir);
  const before = { piece: await piece('100-1'), part: await partNumbered('3001', '100-1'), list: (await request(ctx.app).get('/api/rest/pieces').expect(200)).body as unknown };
  await run(dir);
  expect({ piece: await piece('100-1'), part: await partNumbered('3001', '100-1'), list: (await request(ctx.app).get('/api/rest/pieces').expect(200)).body as unknown }).toEqual(before);
});

it('refuses a folder with a missing file or column before writing anything, naming each problem', async () => {
  const { 'colors.csv': _colours, ...withoutColours } = GOOD;
  const broken = { ...withoutColours, 'parts.csv': 'part_num,title,part_cat_id\n9999,Nothing,1\n', 'sets.csv': GOOD['sets.csv']!.replace('100-1,Crane Dock', '999-1,Never Imported') };
  const error = await run(folder(broken)).catch((err: unknown) => err);
  expect(error).toBeInstanceOf(CatalogueFilesError);
  expect((error as CatalogueFilesError).problems).toEqual([
    expect.stringMatching(/^colors\.csv \(or colors\.csv\.gz\) is missing from /),
    'parts.csv: missing column name (the header has: part_num, title, part_cat_id)',
  ]);
  await request(ctx.app).get('/api/rest/pieces/999-1').expect(404);
});

it('skips a row it cannot read, reporting its line, and imports the rest of the file', async () => {
  const reports = await run(
    folder({
      ...GOOD,
      'parts.csv': [
        'part_num,name,part_cat_id,part_material',
        '3001,Brick 2 x 4,1,Plastic',
        'bad part/number,Slash,1,Plastic',
        '"3002,Brick 2 x 3,1,Plastic', // a quote that never closes swallows the rest of the file
      ].join('\n'),
      'sets.csv': 'set_num,name,year,theme_id,num_parts,img_url\n100-1,Crane Dock,2020,2,10,\n300-1,,2021,1,7,\n301-1,Too Many,2021,1,7,,extra\n302-1,Odd Year,twenty,1,7,\n',
      'inventory_parts.csv': 'inventory_id,part_num,color_id,quantity,is_spare\n1,3001,4,4,f\n1,nope,4,1,f\n1,3001,999,1,f\n1,3020,4,0,f\n77,3001,4,1,f\n',
    }),
  );
  const parts = reportOf(reports, 'parts');
  expect(parts.rows).toBe(1);
  expect(parts.badRows[0]).toEqual({ line: 3, reason: 'part_num is not a catalogue number (letters, digits, . _ -; at most 40): "bad part/number"' });
  expect(parts.bad).toBe(2);
  expect(reportOf(reports, 'sets').badRows).toEqual([
    { line: 3, reason: 'name is empty' },
    { line: 4, reason: expect.stringMatching(/fields/) },
    { line: 5, reason: 'year is not a whole number of 1900 or more: "twenty"' },
  ]);
  expect(reportOf(reports, 'inventory_parts').badRows).toEqual([
    { line: 3, reason: 'part nope is not in parts.csv' },
    { line: 4, reason: 'colour 999 is not in colors.csv' },
    { line: 5, reason: 'quantity is not a whole number of 1 or more: "0"' },
    { line: 6, reason: 'inventory 77 is not in inventories.csv' },
  ]);
  expect(compositionOf(await piece('100-1'))).toEqual(['3001 Red ×4']);
});

it('leaves the catalogue as it was when an import is stopped in the middle of a file', async () => {
  await run(folder(GOOD));
  const before = compositionOf(await piece('100-1'));
  const stop = new AbortController();
  const lines = ['inventory_id,part_num,color_id,quantity,is_spare'];
  // Enough lines for several batches, all for 100-1: were any of them kept, its composition would change.
  for (let i = 0; i < 3000; i++) lines.push(`1,3020,${i % 2 ? 4 : 15},1,${i % 3 ? 'f' : 't'}`);
  const error = await run(folder({ ...GOOD, 'inventory_parts.csv': lines.join('\n') }), {
    signal: stop.signal,
    onFileDone: (report) => report.file === 'inventories.csv' && stop.abort(),
  }).catch((err: unknown) => err);
  expect(error).toBeInstanceOf(ImportStopped);
  expect((error as ImportStopped).file).toBe('inventory_parts.csv');
  expect(compositionOf(await piece('100-1'))).toEqual(before);
});
