import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import type { Db } from '../../db/database';
import {
  catalogueImportRepository,
  type CatalogueImportRepository,
  type ColourRow,
  type InventoryRow,
  type PartCategoryRow,
  type PartRow,
  type PiecePartRow,
  type PieceRow,
  type ThemeRow,
} from './catalogue-import.repository';

/**
 * Loads Rebrickable's CSV downloads (https://rebrickable.com/downloads/) into the catalogue.
 * Every file's header is checked before anything is written; then each file is read as a stream
 * and written in one transaction of its own, so a file is either imported whole or not at all (an
 * interrupted import leaves the catalogue as the last finished file left it). A row that cannot be
 * read is reported with its line number and skipped. Re-running with the same files changes nothing:
 * every row is an upsert by its natural key, and an inventory file replaces the compositions.
 */

/** The files, in the order they depend on each other, with the columns each must have. */
export const CATALOGUE_FILES = [
  { name: 'themes', columns: ['id', 'name', 'parent_id'] },
  { name: 'part_categories', columns: ['id', 'name'] },
  { name: 'colors', columns: ['id', 'name', 'rgb', 'is_trans'] },
  { name: 'parts', columns: ['part_num', 'name', 'part_cat_id'] },
  { name: 'sets', columns: ['set_num', 'name', 'year', 'theme_id', 'num_parts'] },
  { name: 'inventories', columns: ['id', 'version', 'set_num'] },
  { name: 'inventory_parts', columns: ['inventory_id', 'part_num', 'color_id', 'quantity', 'is_spare'] },
] as const;
type FileName = (typeof CATALOGUE_FILES)[number]['name'];

const BATCH_ROWS = 500;
const PROGRESS_EVERY_ROWS = 10_000;
/** Bad rows reported one by one per file; beyond that only counted. */
const BAD_ROWS_LISTED = 50;

export interface BadRow {
  line: number;
  reason: string;
}
export interface FileReport {
  file: string;
  rows: number;
  bad: number;
  badRows: BadRow[];
  seconds: number;
}
export interface ImportProgress {
  file: string;
  rows: number;
  /** How far into the file on disk (compressed bytes for a .gz): with `bytes`, what is left. */
  bytesRead: number;
  bytes: number;
  /** Since the file was opened. */
  seconds: number;
  /** Every row is read; what is kept ready from them (where-used, colours, the text index) is being written. */
  finishing?: boolean;
}
export interface ImportOptions {
  /** Told now and then while a file is read, and once when it is done. */
  onProgress?: (progress: ImportProgress) => void;
  onFileDone?: (report: FileReport) => void;
  /** Stops the import between batches; the file under way is rolled back. */
  signal?: AbortSignal;
  /** Brings the pieces' text index up to date in the pieces file's transaction. */
  refreshTextIndex: (trx: Db, table: string) => Promise<void>;
}

/** The import could not start (a file or column is missing): nothing was written. */
export class CatalogueFilesError extends Error {
  constructor(readonly problems: string[]) {
    super(`The catalogue was not imported:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}
/** The import was stopped: `file` was rolled back, the files before it stay imported. */
export class ImportStopped extends Error {
  constructor(readonly file: string) {
    super(`Import stopped during ${file}: that file was not imported; the files before it were.`);
  }
}

/** Where each file is (`name.csv`, or Rebrickable's `name.csv.gz`). */
function locate(dir: string): { paths: Record<FileName, string>; problems: string[] } {
  const problems: string[] = [];
  const paths = {} as Record<FileName, string>;
  for (const { name } of CATALOGUE_FILES) {
    const found = [`${name}.csv`, `${name}.csv.gz`].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
    if (found) paths[name] = found;
    else problems.push(`${name}.csv (or ${name}.csv.gz) is missing from ${dir}`);
  }
  return { paths, problems };
}

/** A file's text, and the stream of its bytes on disk (how far it has been read). */
const openWithSource = (file: string): { text: Readable; source: fs.ReadStream } => {
  const source = fs.createReadStream(file);
  return { text: file.endsWith('.gz') ? source.pipe(zlib.createGunzip()) : source, source };
};
const open = (file: string): Readable => openWithSource(file).text;

async function headerOf(file: string): Promise<string[]> {
  const lines = readline.createInterface({ input: open(file), crlfDelay: Infinity });
  try {
    for await (const line of lines) return (parseSync(line, { bom: true }) as string[][])[0] ?? [];
    return [];
  } finally {
    lines.close();
  }
}

// ---- reading one row ---------------------------------------------------------------------------

type CsvRecord = { [column: string]: string | undefined };

/** Why a row cannot be read: it is reported with its line and skipped. */
class RowProblem extends Error {}

const text = (value: string | undefined, max: number) => (value ?? '').trim().slice(0, max);
function requiredText(value: string | undefined, column: string, max = 300): string {
  const t = text(value, max);
  if (t === '') throw new RowProblem(`${column} is empty`);
  return t;
}
function wholeNumber(value: string | undefined, column: string, min = 0): number {
  const raw = (value ?? '').trim();
  if (!/^-?\d{1,9}$/.test(raw) || Number(raw) < min) throw new RowProblem(`${column} is not a whole number${min > 0 ? ` of ${min} or more` : ''}: "${raw.slice(0, 20)}"`);
  return Number(raw);
}
const optionalNumber = (value: string | undefined, column: string, min = 0): number | null => ((value ?? '').trim() === '' ? null : wholeNumber(value, column, min));
function flag(value: string | undefined, column: string): number {
  const raw = (value ?? '').trim().toLowerCase();
  if (['t', 'true', '1'].includes(raw)) return 1;
  if (['f', 'false', '0'].includes(raw)) return 0;
  throw new RowProblem(`${column} is not true or false: "${raw.slice(0, 20)}"`);
}
const NUMBER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
function catalogueNumber(value: string | undefined, column: string): string {
  const raw = (value ?? '').trim();
  if (!NUMBER_PATTERN.test(raw)) throw new RowProblem(`${column} is not a catalogue number (letters, digits, . _ -; at most 40): "${raw.slice(0, 50)}"`);
  return raw;
}
/** The words of a piece's or part's number and name, for the text index (`10270-1 Bookshop` → `10270 1 bookshop`). */
export const searchWords = (words: string): string[] => words.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

// ---- the files ---------------------------------------------------------------------------------

interface Context {
  repo: CatalogueImportRepository;
  themes: Set<number>;
  partCategories: Set<number>;
  colours: Set<number>;
  parts: Map<string, number>;
  pieces: Map<string, number>;
  /** Every inventory's id → its piece's number, and whether it is that piece's newest. */
  inventories: Map<number, { pieceNumber: string; newest: boolean }>;
}

interface FileHandler<Row> {
  /** Once before the rows, inside the file's transaction. */
  begin?: (ctx: Context) => Promise<void>;
  /** A record → the row to write, or null to pass it over (not a problem); throws RowProblem. */
  row: (record: CsvRecord, ctx: Context) => Row | null;
  write: (rows: Row[], ctx: Context) => Promise<void>;
  /** Once after the rows, inside the file's transaction. */
  end?: (ctx: Context, trx: Db) => Promise<void>;
}

const handler = <Row>(h: FileHandler<Row>) => h as FileHandler<unknown>;

function handlersFor(refreshTextIndex: ImportOptions['refreshTextIndex']): { [F in FileName]: FileHandler<unknown> } {
  return {
    themes: handler<ThemeRow>({
      row: (r) => ({ id: wholeNumber(r.id, 'id', 1), name: requiredText(r.name, 'name'), parent_id: optionalNumber(r.parent_id, 'parent_id', 1) }),
      write: (rows, ctx) => ctx.repo.upsertThemes(rows).then(() => undefined),
    }),
    part_categories: handler<PartCategoryRow>({
      row: (r) => ({ id: wholeNumber(r.id, 'id', 1), name: requiredText(r.name, 'name') }),
      write: (rows, ctx) => ctx.repo.upsertPartCategories(rows).then(() => undefined),
    }),
    colors: handler<ColourRow>({
      row: (r) => {
        const rgb = (r.rgb ?? '').trim().toUpperCase();
        if (!/^[0-9A-F]{6}$/.test(rgb)) throw new RowProblem(`rgb is not six hexadecimal digits: "${rgb.slice(0, 20)}"`);
        // Rebrickable's "[Unknown]" colour has the id -1.
        return { id: wholeNumber(r.id, 'id', -1), name: requiredText(r.name, 'name'), rgb, transparent: flag(r.is_trans, 'is_trans') };
      },
      write: (rows, ctx) => ctx.repo.upsertColours(rows).then(() => undefined),
    }),
    parts: handler<PartRow>({
      begin: async (ctx) => void (ctx.partCategories = await ctx.repo.partCategoryIds()),
      row: (r, ctx) => {
        const category = optionalNumber(r.part_cat_id, 'part_cat_id', 1);
        const number = catalogueNumber(r.part_num, 'part_num');
        const name = requiredText(r.name, 'name');
        return {
          number,
          name,
          category_id: category !== null && ctx.partCategories.has(category) ? category : null,
          material: text(r.part_material, 60) || null,
          search_text: searchWords(`${number} ${name}`).join(' '),
        };
      },
      write: (rows, ctx) => ctx.repo.upsertParts(rows).then(() => undefined),
      end: async (ctx, trx) => {
        await ctx.repo.rankParts();
        await refreshTextIndex(trx, 'parts');
      },
    }),
    sets: handler<PieceRow>({
      begin: async (ctx) => void (ctx.themes = await ctx.repo.themeIds()),
      row: (r, ctx) => {
        const number = catalogueNumber(r.set_num, 'set_num');
        const name = requiredText(r.name, 'name');
        const theme = optionalNumber(r.theme_id, 'theme_id', 1);
        const image = text(r.img_url, 500);
        return {
          number,
          name,
          year: optionalNumber(r.year, 'year', 1900),
          theme_id: theme !== null && ctx.themes.has(theme) ? theme : null,
          part_count: wholeNumber(r.num_parts, 'num_parts'),
          image_url: /^https:\/\/\S+$/.test(image) ? image : null,
          search_text: searchWords(`${number} ${name}`).join(' '),
        };
      },
      write: (rows, ctx) => ctx.repo.upsertPieces(rows).then(() => undefined),
      end: async (ctx, trx) => {
        await ctx.repo.rankPieces();
        await refreshTextIndex(trx, 'pieces');
      },
    }),
    inventories: handler<InventoryRow>({
      row: (r) => ({ id: wholeNumber(r.id, 'id', 1), version: wholeNumber(r.version, 'version', 1), piece_number: catalogueNumber(r.set_num, 'set_num') }),
      write: (rows, ctx) => ctx.repo.upsertInventories(rows).then(() => undefined),
    }),
    inventory_parts: handler<PiecePartRow>({
      begin: async (ctx) => {
        [ctx.colours, ctx.parts, ctx.pieces, ctx.inventories] = await Promise.all([ctx.repo.colourIds(), ctx.repo.partIdsByNumber(), ctx.repo.pieceIdsByNumber(), ctx.repo.inventories()]);
        await ctx.repo.clearPieceParts();
      },
      row: (r, ctx) => {
        const inventoryId = wholeNumber(r.inventory_id, 'inventory_id', 1);
        const partNumber = catalogueNumber(r.part_num, 'part_num');
        const colour = wholeNumber(r.color_id, 'color_id', -1);
        const quantity = wholeNumber(r.quantity, 'quantity', 1);
        const spare = flag(r.is_spare, 'is_spare');
        const inventory = ctx.inventories.get(inventoryId);
        if (!inventory) throw new RowProblem(`inventory ${inventoryId} is not in inventories.csv`);
        // An older version of a piece's inventory: the newest one is its composition.
        if (!inventory.newest) return null;
        const pieceId = ctx.pieces.get(inventory.pieceNumber);
        if (pieceId === undefined) throw new RowProblem(`inventory ${inventoryId} is of piece ${inventory.pieceNumber}, which is not in sets.csv`);
        const partId = ctx.parts.get(partNumber);
        if (partId === undefined) throw new RowProblem(`part ${partNumber} is not in parts.csv`);
        if (!ctx.colours.has(colour)) throw new RowProblem(`colour ${colour} is not in colors.csv`);
        return { piece_id: pieceId, part_id: partId, colour_id: colour, spare, quantity };
      },
      write: async (rows, ctx) => {
        // One statement may not name a key twice: lines repeated within the batch are summed first.
        const summed = new Map<string, PiecePartRow>();
        for (const row of rows) {
          const key = `${row.piece_id}:${row.part_id}:${row.colour_id}:${row.spare}`;
          const seen = summed.get(key);
          if (seen) seen.quantity += row.quantity;
          else summed.set(key, { ...row });
        }
        await ctx.repo.addPieceParts([...summed.values()]);
      },
      // Parts are ranked by how many pieces use them: ranked again once that is counted.
      end: async (ctx, trx) => {
        await ctx.repo.rebuildUsage();
        await ctx.repo.rankParts();
        await refreshTextIndex(trx, 'parts');
      },
    }),
  };
}

// ---- the import --------------------------------------------------------------------------------

/** Checks every file's presence and header; throws CatalogueFilesError before anything is written. */
export async function checkCatalogueFiles(dir: string): Promise<Record<FileName, string>> {
  const { paths, problems } = locate(dir);
  for (const { name, columns } of CATALOGUE_FILES) {
    if (!paths[name]) continue;
    let header: string[];
    try {
      header = await headerOf(paths[name]);
    } catch (err) {
      problems.push(`${path.basename(paths[name])}: the header line cannot be read (${(err as Error).message})`);
      continue;
    }
    const missing = columns.filter((column) => !header.includes(column));
    if (missing.length > 0) problems.push(`${path.basename(paths[name])}: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (the header has: ${header.join(', ') || 'nothing'})`);
  }
  if (problems.length > 0) throw new CatalogueFilesError(problems);
  return paths;
}

/** Imports the seven files of `dir`; answers a report per file. */
export async function importCatalogue(db: Db, dir: string, options: ImportOptions): Promise<FileReport[]> {
  const paths = await checkCatalogueFiles(dir);
  const handlers = handlersFor(options.refreshTextIndex);
  const reports: FileReport[] = [];
  for (const { name } of CATALOGUE_FILES) {
    const file = path.basename(paths[name]);
    const started = process.hrtime.bigint();
    const report = await db.transaction().execute(async (trx) => {
      const ctx: Context = { repo: catalogueImportRepository(trx), themes: new Set(), partCategories: new Set(), colours: new Set(), parts: new Map(), pieces: new Map(), inventories: new Map() };
      return importFile(trx, file, paths[name], handlers[name], ctx, options);
    });
    report.seconds = Number(process.hrtime.bigint() - started) / 1e9;
    reports.push(report);
    options.onFileDone?.(report);
  }
  // Fresh statistics for the planners: right after a bulk load PostgreSQL had none and scanned
  // every part for a piece's lines (34 ms instead of 0.1 ms).
  await catalogueImportRepository(db).analyze();
  return reports;
}

async function importFile(trx: Db, file: string, filePath: string, h: FileHandler<unknown>, ctx: Context, options: ImportOptions): Promise<FileReport> {
  const report: FileReport = { file, rows: 0, bad: 0, badRows: [], seconds: 0 };
  const bad = (line: number, reason: string) => {
    report.bad++;
    if (report.badRows.length < BAD_ROWS_LISTED) report.badRows.push({ line, reason });
  };
  await h.begin?.(ctx);
  const parser = parse({ columns: true, bom: true, info: true, skip_empty_lines: true, skip_records_with_error: true, relax_column_count: false });
  // A record csv-parse cannot read (an open quote, a wrong number of fields) is skipped and reported.
  parser.on('skip', (err: Error & { lines?: number }) => bad(err.lines ?? 0, err.message.replace(/^Invalid Record Length: /, 'wrong number of fields: ')));
  const began = performance.now();
  const { text: input, source } = openWithSource(filePath);
  const bytes = (await fs.promises.stat(filePath)).size;
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let batch: unknown[] = [];
  const flush = async () => {
    if (options.signal?.aborted) throw new ImportStopped(file);
    if (batch.length > 0) await h.write(batch, ctx);
    batch = [];
  };
  for await (const { record, info } of parser as AsyncIterable<{ record: CsvRecord; info: { lines: number } }>) {
    try {
      const row = h.row(record, ctx);
      if (row !== null) {
        batch.push(row);
        report.rows++;
      }
    } catch (err) {
      if (!(err instanceof RowProblem)) throw err;
      bad(info.lines, err.message);
    }
    if (batch.length >= BATCH_ROWS) await flush();
    if ((report.rows + report.bad) % PROGRESS_EVERY_ROWS === 0) options.onProgress?.({ file, rows: report.rows, bytesRead: source.bytesRead, bytes, seconds: (performance.now() - began) / 1000 });
  }
  await flush();
  options.onProgress?.({ file, rows: report.rows, bytesRead: bytes, bytes, seconds: (performance.now() - began) / 1000, finishing: true });
  await h.end?.(ctx, trx);
  // The parser tells of records it skips as it reads, ahead of the rows being written.
  report.badRows.sort((a, b) => a.line - b.line);
  return report;
}
