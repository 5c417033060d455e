import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { PartDetail, PartListItem, PieceDetail, PieceSummary } from '../bff/contracts/catalogue.contract';
import type { Page } from '../bff/contracts/common.contract';
import { openDatabase } from '../bff/db/database';
import { importProgressReporter } from '../bff/features/catalogue/catalogue-import-progress';
import { importCatalogue, type FileReport } from '../bff/features/catalogue/catalogue.importer';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../bff/test-support/throwaway-postgres';
import { startBenchBff } from './bench-fixtures';
import { bar, info, type Figure } from './figures';
import { fmt, load, ratio, startChildServer, type ChildServer, type FreshRequest, type LoadRun } from './load';
import * as cpu from './proc-cpu';

/**
 * DESIGN §11: "Catalogue at Rebrickable's size (≈ 25k pieces, 60k parts, 1M piece lines): search,
 * piece and where-used p99 < 50 ms at 50 connections; import rows/s reported". A catalogue of that
 * size is generated in Rebrickable's CSV format (deterministic), imported into a new SQLite database
 * by the importer `npm run catalogue -- import` runs, and the BFF is loaded on it; then the same on
 * a throw-away PostgreSQL when the machine has one.
 */

const SIZE = { themes: 500, partCategories: 60, colours: 200, parts: 60_000, sets: 25_000, lines: 1_000_000 } as const;
/** Sets with an older inventory version besides the newest (its lines are in the file; the importer passes them over). */
const SECOND_VERSION_SHARE = 0.05;
/** The very common parts (plates, bricks, tiles in every set) that ~40 % of all lines use. */
const COMMON_PARTS = 300;
const COMMON_LINE_SHARE = 0.4;
const SEED = 0x5eed_11;
const CONNECTIONS = 50;
const SECONDS = 10;
const TARGET_P99_MS = 50;
const PAGE_SIZE = 10;
/** One request at a time, per kind: at most this many, or for at most this long. */
const SOLO_REQUESTS = 60;
const SOLO_MS = 1_500;
const CORES = os.availableParallelism();

// ---- a seeded generator ------------------------------------------------------------------------

type Rng = () => number;

/** mulberry32: small, fast, and the same numbers on every machine. */
function prng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const between = (rng: Rng, min: number, max: number) => min + int(rng, max - min + 1);
const pick = <T>(rng: Rng, list: readonly T[]): T => list[int(rng, list.length)]!;
const chance = (rng: Rng, p: number) => rng() < p;

/** Draws an index with the given weights (binary search over their running sum). */
function weighted(weights: ArrayLike<number>): (rng: Rng) => number {
  const cdf = new Float64Array(weights.length);
  let sum = 0;
  for (let i = 0; i < weights.length; i++) cdf[i] = sum += weights[i]!;
  return (rng) => {
    const x = rng() * sum;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}
/** Zipf-like weights: rank r weighs 1 / (r + offset)^s. */
const zipf = (n: number, offset: number, s = 1) => Float64Array.from({ length: n }, (_, r) => 1 / Math.pow(r + offset, s));

function shuffle<T>(rng: Rng, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = int(rng, i + 1);
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

// ---- word lists --------------------------------------------------------------------------------

const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const SYLLABLES = ['ka', 'ro', 'zu', 'mi', 'tar', 'ven', 'dro', 'li', 'sha', 'nor', 'ex', 'qua', 'bel', 'thi', 'gor', 'as', 'un', 'ri', 'mo', 'dax', 'el', 'vor', 'ny', 'pe', 'ush', 'kri', 'o', 'zan'];
/** Made-up proper names (`Vorkadax`): what makes most set names' rare words. */
function properNames(rng: Rng, count: number): string[] {
  const names = new Set<string>();
  while (names.size < count) {
    const syllables = between(rng, 2, 3);
    let word = '';
    for (let i = 0; i < syllables; i++) word += pick(rng, SYLLABLES);
    if (word.length >= 5) names.add(capital(word));
  }
  return [...names];
}

/** First words of set names, most used first (drawn Zipf-like). */
const MODIFIERS = ['Police', 'Fire', 'Space', 'City', 'Pirate', 'Castle', 'Harbour', 'Rescue', 'Racing', 'Mountain', 'Desert', 'Arctic', 'Jungle', 'Ocean',
  'Sky', 'Power', 'Speed', 'Mining', 'Farm', 'Airport', 'Train', 'Cargo', 'Royal', 'Dragon', 'Knight', 'Robot', 'Ninja', 'Monster', 'Dino', 'Ghost', 'Island',
  'River', 'Forest', 'Snow', 'Beach', 'Sunset', 'Lunar', 'Galaxy', 'Turbo', 'Stunt', 'Undersea', 'Volcano', 'Safari', 'Construction', 'Emergency', 'Delivery',
  'Holiday', 'Winter', 'Summer', 'Treasure', 'Shadow', 'Thunder', 'Crystal', 'Golden', 'Secret', 'Super', 'Mega', 'Mini', 'Classic', 'Creative'];
/** What sets are, most used first. */
const THINGS = ['Station', 'Truck', 'Ship', 'House', 'Boat', 'Car', 'Tower', 'Base', 'Bridge', 'Plane', 'Helicopter', 'Shuttle', 'Buggy', 'Outpost', 'Fortress',
  'Train', 'Crane', 'Tractor', 'Bike', 'Camper', 'Shop', 'Market', 'Cafe', 'Hospital', 'School', 'Garage', 'Headquarters', 'Lab', 'Lighthouse', 'Submarine', 'Rover',
  'Jet', 'Cruiser', 'Explorer', 'Racer', 'Loader', 'Digger', 'Excavator', 'Bulldozer', 'Mech', 'Walker', 'Temple', 'Village', 'Wagon', 'Carriage', 'Dock', 'Pier',
  'Hangar', 'Patrol', 'Chase', 'Battle', 'Attack', 'Escape', 'Adventure', 'Expedition', 'Hideout', 'Lair', 'Camp', 'Workshop', 'Factory', 'Depot', 'Terminal',
  'Launcher', 'Glider', 'Speedboat', 'Yacht', 'Ferry', 'Tanker', 'Hauler', 'Transporter', 'Dragster', 'Kart', 'Quad', 'Scooter', 'Van', 'Bus', 'Tram', 'Zeppelin',
  'Balloon', 'Satellite', 'Rocket', 'Lander', 'Module', 'Observatory', 'Arena', 'Stadium', 'Palace', 'Manor', 'Cottage', 'Cabin', 'Treehouse', 'Windmill', 'Mill',
  'Bakery', 'Pharmacy', 'Library', 'Museum', 'Zoo', 'Aquarium'];
const SUFFIXES = ['Set', 'Pack', 'Kit', 'Collection', 'Bucket', 'Bundle', 'Starter Set', 'Value Pack', 'Super Pack', 'Key Chain', 'Magnet', 'Polybag'];
const QUALIFIERS = [', Large', ', Small', ', Promotional', ', Limited Edition', ' (Blue Box)', ' - "Special" Edition'];
const TOP_THEMES = ['Town', 'Space', 'Castle', 'Pirates', 'Trains', 'Technic', 'Creator', 'Racers', 'Adventurers', 'Harbour', 'Aquanauts', 'Dino', 'Sports',
  'Seasonal', 'Education', 'Basic', 'Bricks and More', 'Gear', 'Books', 'Promotional', 'Collectible Minifigures', 'Architecture', 'Ideas', 'Modular Buildings',
  'Friends', 'Ninja', 'Western', 'Exploriens', 'Time Cruisers', 'Rock Raiders', 'Alpha Team', 'Agents', 'Power Miners', 'World Racers', 'Atlantis', 'Monster Fighters',
  'Galaxy Squad', 'Mixels', 'Elves', 'Nexo Knights', 'Hidden Side', 'Vidiyo', 'Dreamzzz', 'Monkie Kid', 'Legends of Chima', 'Bionicle', 'Hero Factory', 'Fabuland',
  'Belville', 'Scala', 'Clikits', 'Znap', 'Jack Stone', 'Island Xtreme Stunts', 'Studios', 'Dacta', 'Serious Play', 'Mindstorms', 'Boost', 'Powered Up'];
const SUB_THEMES = ['Police', 'Fire', 'Airport', 'Harbour', 'Coast Guard', 'Construction', 'Traffic', 'Space Port', 'Classic', 'Blacktron', 'Futuron', 'M-Tron',
  'Ice Planet', 'Unitron', 'Spyrius', 'Insectoids', 'Knights', 'Forestmen', 'Black Falcons', 'Crusaders', 'Dragon Masters', 'Imperial Guards', 'Islanders',
  'Supplementary', 'Magnets', 'Key Chains', 'Watches', 'Storage', 'Clothing', 'Video Games', 'Mini', 'Advanced Models', 'Model Team', 'Competition', 'Expert Builder',
  'Universal Building Set', 'Samsonite', 'Freestyle', 'Seasonal', 'Christmas', 'Easter', 'Halloween', 'Valentine', 'Series 1', 'Series 2', 'Series 3', 'Polybags'];

const CATEGORIES = ['Bricks', 'Bricks Sloped', 'Bricks Curved', 'Bricks Round and Cones', 'Bricks Special', 'Bricks Wedged', 'Plates', 'Plates Round Curved and Dishes',
  'Plates Angled', 'Plates Special', 'Tiles', 'Tiles Round and Curved', 'Tiles Special', 'Tiles Printed', 'Bricks Printed', 'Plates Printed', 'Slopes Printed',
  'Technic Beams', 'Technic Beams Special', 'Technic Bricks', 'Technic Pins', 'Technic Axles', 'Technic Connectors', 'Technic Bushes', 'Technic Gears',
  'Technic Panels', 'Technic Steering, Suspension and Engine', 'Technic Special', 'Pneumatics', 'Power Functions, Powered Up', 'Wheels and Tyres', 'Windows and Doors',
  'Windscreens and Fuselage', 'Hinges, Arms and Turntables', 'Bars, Ladders and Fences', 'Supports, Girders and Cranes', 'Transportation - Land',
  'Transportation - Sea and Air', 'Containers', 'Plants and Animals', 'Flags, Signs, Plastics and Cloth', 'Minifigs', 'Minifig Heads', 'Minifig Upper Body',
  'Minifig Lower Body', 'Minifig Headwear', 'Minifig Accessories', 'Minifig Shields, Weapons & Tools', 'Minifig Headwear Accessories', 'Large Buildable Figures',
  'Duplo, Quatro and Primo', 'Baseplates', 'Rock', 'String, Bands and Reels', 'Tubes and Hoses', 'Electronics', 'Magnets and Holders', 'Stickers', 'Non-LEGO',
  'Other'];

/** Real colours first (Rebrickable's ids), the ones most lines use first; the rest generated. */
const COLOURS: Array<[number, string, string, boolean]> = [
  [0, 'Black', '05131D', false], [71, 'Light Bluish Gray', 'A0A5A9', false], [72, 'Dark Bluish Gray', '6C6E68', false], [15, 'White', 'FFFFFF', false],
  [4, 'Red', 'C91A09', false], [14, 'Yellow', 'F2CD37', false], [19, 'Tan', 'E4CD9E', false], [70, 'Reddish Brown', '582A12', false], [1, 'Blue', '0055BF', false],
  [2, 'Green', '237841', false], [28, 'Dark Tan', '958A73', false], [25, 'Orange', 'FE8A18', false], [47, 'Trans-Clear', 'FCFCFC', true], [320, 'Dark Red', '720E0F', false],
  [288, 'Dark Green', '184632', false], [272, 'Dark Blue', '0A3463', false], [27, 'Lime', 'BBE90B', false], [36, 'Trans-Red', 'C91A09', true],
  [46, 'Trans-Yellow', 'F5CD2F', true], [43, 'Trans-Light Blue', 'AEEFEC', true], [297, 'Pearl Gold', 'AA7F2E', false], [179, 'Flat Silver', '898788', false],
  [84, 'Medium Nougat', 'AA7D55', false], [26, 'Magenta', '923978', false], [5, 'Dark Pink', 'C870A0', false], [191, 'Bright Light Orange', 'F8BB3D', false],
  [73, 'Medium Blue', '5A93DB', false], [226, 'Bright Light Yellow', 'FFF03A', false], [322, 'Medium Azure', '36AEBF', false], [-1, '[Unknown]', '0033B2', false],
];

// ---- CSV out, streamed -------------------------------------------------------------------------

const csvField = (value: string | number) => {
  const s = String(value);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** A CSV file written through a buffer of ~64 KB: never more than that in memory, and the stream's back-pressure respected. */
class CsvOut {
  lines = 0;
  private buffer: string;
  private readonly stream: fs.WriteStream;
  constructor(readonly file: string, header: string[]) {
    this.stream = fs.createWriteStream(file);
    this.buffer = `${header.join(',')}\n`;
  }
  /** Adds a line; answers whether the buffer is full (then `flush` before the next). */
  line(fields: Array<string | number>): boolean {
    this.buffer += `${fields.map(csvField).join(',')}\n`;
    this.lines++;
    return this.buffer.length >= 65_536;
  }
  async flush(): Promise<void> {
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }
  async close(): Promise<{ file: string; lines: number; bytes: number }> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
    return { file: path.basename(this.file), lines: this.lines, bytes: fs.statSync(this.file).size };
  }
}

export const SEARCH_KINDS = ['common word', 'rare word', 'number prefix', 'exact number', 'two words'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
/** Part search (issue 31): what a builder types, a part's number or the words of its name. */
export const PART_SEARCH_KINDS = ['exact number', 'number prefix', 'common word', 'two words'] as const;
export type PartSearchKind = (typeof PART_SEARCH_KINDS)[number];

// ---- the catalogue -----------------------------------------------------------------------------

export interface GeneratedCatalogue {
  files: Array<{ file: string; lines: number; bytes: number }>;
  seconds: number;
  inventories: number;
  olderVersions: number;
  /** Lines of older inventory versions (the importer passes them over). */
  olderVersionLines: number;
  /** Words and numbers to search for, chosen from what was generated: three of each kind. */
  queries: Record<SearchKind, string[]>;
  /** The same for parts: three of each kind. */
  partQueries: Record<PartSearchKind, string[]>;
  /** Part searches never repeated within a run (more than the BFF keeps): each is read from the database. */
  partColdQueries: string[];
  /** The same for pieces. */
  pieceColdQueries: string[];
  /** Top-level themes (ids) with the most sets below them, most first. */
  bigThemes: Array<{ id: number; name: string; sets: number }>;
}

interface PartDef {
  number: string;
  name: string;
  category: number;
  material: string;
}

const REAL_COMMON_PARTS: Array<[string, string, string]> = [
  ['3023', 'Plate 1 x 2', 'Plates'], ['3024', 'Plate 1 x 1', 'Plates'], ['3020', 'Plate 2 x 4', 'Plates'], ['3022', 'Plate 2 x 2', 'Plates'],
  ['3710', 'Plate 1 x 4', 'Plates'], ['3666', 'Plate 1 x 6', 'Plates'], ['3021', 'Plate 2 x 3', 'Plates'], ['3623', 'Plate 1 x 3', 'Plates'],
  ['3004', 'Brick 1 x 2', 'Bricks'], ['3005', 'Brick 1 x 1', 'Bricks'], ['3010', 'Brick 1 x 4', 'Bricks'], ['3001', 'Brick 2 x 4', 'Bricks'],
  ['3003', 'Brick 2 x 2', 'Bricks'], ['3622', 'Brick 1 x 3', 'Bricks'], ['3009', 'Brick 1 x 6', 'Bricks'], ['3069b', 'Tile 1 x 2 with Groove', 'Tiles'],
  ['3070b', 'Tile 1 x 1 with Groove', 'Tiles'], ['3068b', 'Tile 2 x 2 with Groove', 'Tiles'], ['2431', 'Tile 1 x 4 with Groove', 'Tiles'],
  ['3040b', 'Slope 45° 2 x 1', 'Bricks Sloped'], ['3039', 'Slope 45° 2 x 2', 'Bricks Sloped'], ['3062b', 'Brick Round 1 x 1 Open Stud', 'Bricks Round and Cones'],
  ['4073', 'Plate Round 1 x 1 Straight Side', 'Plates Round Curved and Dishes'], ['2780', 'Technic Pin with Friction Ridges Lengthwise and Center Slots', 'Technic Pins'],
  ['6558', 'Technic Pin Long with Friction Ridges Lengthwise', 'Technic Pins'], ['32062', 'Technic Axle 2 Notched', 'Technic Axles'],
  ['3713', 'Technic Bush', 'Technic Bushes'], ['43093', 'Technic Axle Pin with Friction Ridges Lengthwise', 'Technic Pins'], ['3626c', 'Minifig Head', 'Minifig Heads'],
  ['973c00', 'Torso Plain', 'Minifig Upper Body'], ['970c00', 'Hips and Legs', 'Minifig Lower Body'], ['4070', 'Brick 1 x 1 with Headlight', 'Bricks Special'],
  ['2412b', 'Tile Special 1 x 2 Grille with Bottom Groove', 'Tiles Special'], ['3794b', 'Plate Special 1 x 2 with 1 Stud with Groove (Jumper)', 'Plates Special'],
  ['4274', 'Technic Pin 1/2', 'Technic Pins'], ['2420', 'Plate 2 x 2 Corner', 'Plates'], ['3034', 'Plate 2 x 8', 'Plates'], ['3795', 'Plate 2 x 6', 'Plates'],
  ['3031', 'Plate 4 x 4', 'Plates'], ['3032', 'Plate 4 x 6', 'Plates'],
];

/** Part numbers as Rebrickable has them: digits, variants (`3626c`), prints (`3001pr0001`), patterns, assemblies (`73983c01`), stickers. */
function partNumber(rng: Rng, base: number): string {
  const letter = () => pick(rng, ['a', 'b', 'c', 'd']);
  const four = () => String(between(rng, 1, 9999)).padStart(4, '0');
  const r = rng();
  if (r < 0.45) return String(base);
  if (r < 0.55) return `${base}${letter()}`;
  if (r < 0.85) return `${base}${chance(rng, 0.3) ? letter() : ''}pr${four()}`;
  if (r < 0.9) return `${base}pat${four()}`;
  if (r < 0.95) return `${base}c${String(between(rng, 1, 12)).padStart(2, '0')}`;
  return `${base}stk${String(between(rng, 1, 20)).padStart(2, '0')}`;
}

function partName(rng: Rng, category: string, number: string, names: string[]): string {
  const dims = `${pick(rng, [1, 1, 1, 2, 2, 3, 4])} x ${pick(rng, [1, 2, 2, 3, 4, 6, 8, 10, 12, 16])}`;
  const noun = category.split(/[ ,]/)[0]!.replace(/s$/, '');
  let name = category.startsWith('Minifig') ? `${noun} ${pick(rng, names)} ${pick(rng, THINGS)}` : category.startsWith('Technic') ? `${category.replace(/s$/, '')} ${dims}` : `${noun} ${dims}`;
  if (/pr\d|pat\d/.test(number)) name += ` with ${pick(rng, ['Black', 'Red', 'Gold', 'Silver', 'White'])} "${pick(rng, names)}" ${pick(rng, ['Print', 'Pattern'])}`;
  else if (/c\d\d$/.test(number)) name += `, Complete Assembly`;
  else if (number.includes('stk')) name = `Sticker Sheet for Set ${between(rng, 1000, 79999)}-1`;
  if (chance(rng, 0.1)) name += `, ${pick(rng, ['Reinforced Underside', 'Hollow Stud', 'Bottom Tube', 'Side Studs'])}`;
  return name;
}

const MATERIALS = ['Plastic', 'Plastic', 'Plastic', 'Plastic', 'Plastic', 'Plastic', 'Plastic', 'Plastic', 'Plastic', 'Plastic', 'Plastic', 'Plastic', 'Plastic', 'Plastic',
  'Plastic', 'Plastic', 'Plastic', 'Plastic', 'Rubber', 'Cloth', 'Cardboard/Paper', 'Metal', 'Flexible Plastic', 'Foam'];

/**
 * Writes themes, part_categories, colors, parts, sets, inventories and inventory_parts (.csv) into
 * `dir`, as Rebrickable's downloads have them, the same bytes from the same seed. Every inventory's
 * lines come from a generator of its own, so the set sizes (sets.csv's num_parts) are known before
 * inventory_parts.csv is written, without holding a million lines.
 */
export async function generateCatalogue(dir: string, seed = SEED): Promise<GeneratedCatalogue> {
  const started = performance.now();
  const rng = prng(seed);
  const files: GeneratedCatalogue['files'] = [];
  const names = properNames(rng, 6_000);

  // Themes: a tree up to three deep, most sets in a few themes.
  const TOPS = 120;
  const themeParent = new Int32Array(SIZE.themes + 1);
  const themeDepth = new Int32Array(SIZE.themes + 1);
  const themeNames: string[] = [''];
  const themes = new CsvOut(path.join(dir, 'themes.csv'), ['id', 'name', 'parent_id']);
  for (let id = 1; id <= SIZE.themes; id++) {
    let parent = 0;
    if (id > TOPS) {
      do parent = chance(rng, 0.7) ? between(rng, 1, TOPS) : between(rng, TOPS + 1, id - 1);
      while (themeDepth[parent]! >= 2);
    }
    themeParent[id] = parent;
    themeDepth[id] = parent ? themeDepth[parent]! + 1 : 0;
    const name = id <= TOP_THEMES.length ? TOP_THEMES[id - 1]! : parent ? (chance(rng, 0.6) ? pick(rng, SUB_THEMES) : pick(rng, names)) : `${pick(rng, names)} ${pick(rng, ['World', 'Quest', 'Force', 'Legends', 'Team'])}`;
    themeNames.push(name);
    themes.line([id, name, parent || '']);
  }
  files.push(await themes.close());

  const categories = new CsvOut(path.join(dir, 'part_categories.csv'), ['id', 'name']);
  CATEGORIES.slice(0, SIZE.partCategories).forEach((name, i) => categories.line([i + 1, name]));
  files.push(await categories.close());
  const categoryId = (name: string) => CATEGORIES.indexOf(name) + 1;

  // Colours: the real ones, then variants to ~200; lines use the first ones most.
  const colours = [...COLOURS];
  const variants = ['Trans-', 'Pearl ', 'Metallic ', 'Satin Trans-', 'Glitter Trans-', 'Chrome ', 'Medium ', 'Light ', 'Dark ', 'Bright '];
  for (let i = 0; colours.length < SIZE.colours; i++) {
    const [, base, rgb] = COLOURS[i % 12]!;
    const prefix = variants[Math.floor(i / 12) % variants.length]!;
    colours.push([1000 + i, `${prefix}${base}${i >= 120 ? ` ${Math.floor(i / 120) + 1}` : ''}`, rgb, prefix.includes('Trans')]);
  }
  const colourFile = new CsvOut(path.join(dir, 'colors.csv'), ['id', 'name', 'rgb', 'is_trans']);
  for (const [id, name, rgb, trans] of colours) colourFile.line([id, name, rgb, trans ? 't' : 'f']);
  files.push(await colourFile.close());
  const colourOf = weighted(zipf(colours.length - 1, 1.5, 1.3)); // [Unknown] (last) is never drawn

  // Parts: the common ones first (real numbers, then generated), the long tail after.
  const parts: PartDef[] = [];
  const partNumbers = new Set<string>();
  for (const [number, name, category] of REAL_COMMON_PARTS) {
    parts.push({ number, name, category: categoryId(category), material: 'Plastic' });
    partNumbers.add(number);
  }
  while (parts.length < SIZE.parts) {
    const base = chance(rng, 0.5) ? between(rng, 2000, 9999) : between(rng, 10000, 99999);
    const common = parts.length < COMMON_PARTS;
    const number = common ? String(base) : partNumber(rng, base);
    if (partNumbers.has(number)) continue;
    partNumbers.add(number);
    const category = common ? pick(rng, ['Bricks', 'Plates', 'Tiles', 'Bricks Sloped', 'Technic Pins', 'Plates Special', 'Bricks Special']) : pick(rng, CATEGORIES);
    parts.push({ number, name: partName(rng, category, number, names), category: categoryId(category), material: common ? 'Plastic' : pick(rng, MATERIALS) });
  }
  // What a builder types for a part: the most used words of part names, and their commonest first pairs.
  const partWords = new Map<string, number>();
  const partPairs = new Map<string, number>();
  for (const part of parts) {
    const words = part.name.toLowerCase().split(/[^a-z0-9]+/).filter((word) => /^[a-z]{3,}$/.test(word));
    for (const word of new Set(words)) partWords.set(word, (partWords.get(word) ?? 0) + 1);
    if (words.length >= 2) partPairs.set(`${words[0]} ${words[1]}`, (partPairs.get(`${words[0]} ${words[1]}`) ?? 0) + 1);
  }
  const mostUsed = (counts: Map<string, number>) => [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([text]) => text);
  const partQueries: Record<PartSearchKind, string[]> = {
    'exact number': ['3001', '3023', '3069b'],
    'number prefix': [0, 1, 2].map(() => parts[COMMON_PARTS + int(rng, parts.length - COMMON_PARTS)]!.number.slice(0, 3)),
    'common word': mostUsed(partWords).slice(0, 3),
    'two words': mostUsed(partPairs).slice(0, 3),
  };
  const partColdQueries = shuffle(rng, [
    ...[...partWords.keys()],
    ...new Set(parts.map((part) => part.number.slice(0, 3)).filter((prefix) => /^[0-9]{3}$/.test(prefix))),
  ]).slice(0, 4_000);
  // Rebrickable's file is sorted by part number; the ranks above stay as they are for drawing.
  const partFile = new CsvOut(path.join(dir, 'parts.csv'), ['part_num', 'name', 'part_cat_id', 'part_material']);
  for (const part of [...parts].sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0))) {
    if (partFile.line([part.number, part.name, part.category, part.material])) await partFile.flush();
  }
  files.push(await partFile.close());
  const commonPart = weighted(zipf(COMMON_PARTS, 10));
  const tailPart = weighted(zipf(SIZE.parts - COMMON_PARTS, 50));
  // A tail part comes in one to three colours of its own.
  const palettes = Int32Array.from({ length: SIZE.parts * 3 }, () => colourOf(rng));

  // Sets: numbers as Rebrickable's (`60213-1`, some `-2`), names from the word lists, years skewed to recent ones.
  const setNumbers: string[] = [];
  const seenNumbers = new Set<string>();
  while (setNumbers.length < SIZE.sets) {
    const r = rng();
    const base = r < 0.7 ? between(rng, 10000, 79999) : r < 0.95 ? between(rng, 1000, 9999) : between(rng, 5000000, 5009999);
    const number = `${base}-1`;
    if (seenNumbers.has(number)) continue;
    seenNumbers.add(number);
    setNumbers.push(number);
    if (chance(rng, 0.02) && setNumbers.length < SIZE.sets) {
      setNumbers.push(`${base}-2`);
      seenNumbers.add(`${base}-2`);
    }
  }
  setNumbers.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const modifier = weighted(zipf(MODIFIERS.length, 3));
  const thing = weighted(zipf(THINGS.length, 3));
  const themeOf = weighted(zipf(SIZE.themes, 8, 1.1));
  const years = Array.from({ length: 2025 - 1949 + 1 }, (_, i) => Math.exp(i / 15));
  const yearOf = weighted(years);
  const wordCounts = new Map<string, number>();
  const pairCounts = new Map<string, number>();
  const setName = (): string => {
    const mod = () => MODIFIERS[modifier(rng)]!;
    const th = () => THINGS[thing(rng)]!;
    const r = rng();
    let name: string;
    if (r < 0.45) name = `${mod()} ${th()}`;
    else if (r < 0.65) name = `${pick(rng, names)} ${th()}`;
    else if (r < 0.75) name = `${mod()} ${th()} ${pick(rng, SUFFIXES)}`;
    else if (r < 0.85) name = `${th()} ${pick(rng, SUFFIXES)}`;
    else if (r < 0.95) name = `${pick(rng, names)} ${pick(rng, names)}`;
    else name = `${mod()} ${mod()} ${th()}`;
    if (chance(rng, 0.03)) name += pick(rng, QUALIFIERS);
    const words = name.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
    for (const word of new Set(words)) wordCounts.set(word, (wordCounts.get(word) ?? 0) + 1);
    if (words.length >= 2) pairCounts.set(`${words[0]} ${words[1]}`, (pairCounts.get(`${words[0]} ${words[1]}`) ?? 0) + 1);
    return name;
  };

  // Inventories: one per set, some sets with an older version too; ids in an order of their own, as Rebrickable's.
  const inventoryOf: Array<{ set: number; version: number; newest: boolean }> = [];
  for (let set = 0; set < SIZE.sets; set++) {
    if (chance(rng, SECOND_VERSION_SHARE)) {
      inventoryOf.push({ set, version: 1, newest: false }, { set, version: 2, newest: true });
    } else inventoryOf.push({ set, version: 1, newest: true });
  }
  shuffle(rng, inventoryOf);
  // Lines per inventory: log-normal (most sets small, a few with hundreds of lines), scaled to exactly SIZE.lines.
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const raw = inventoryOf.map(() => Math.exp(3.1 + 1.05 * gauss()));
  const scale = SIZE.lines / raw.reduce((sum, x) => sum + x, 0);
  const MAX_LINES = 1500;
  const lineCounts = Int32Array.from(raw, (x) => Math.min(MAX_LINES, Math.max(1, Math.floor(x * scale))));
  // What rounding and the bounds left over, a line more (or fewer) for inventories in turn.
  let left = SIZE.lines - lineCounts.reduce((sum, n) => sum + n, 0);
  for (let i = 0; left !== 0; i = (i + 1) % lineCounts.length) {
    const step = left > 0 ? 1 : -1;
    const count = lineCounts[i]! + step;
    if (count < 1 || count > MAX_LINES) continue;
    lineCounts[i] = count;
    left -= step;
  }

  /** The lines of inventory `index`, the same on every call. */
  function* inventoryLines(index: number): Generator<[part: number, colour: number, quantity: number, spare: boolean]> {
    const r = prng(seed ^ Math.imul(index + 1, 0x9e3779b1));
    const seen = new Set<number>();
    for (let n = 0; n < lineCounts[index]!; ) {
      const part = chance(r, COMMON_LINE_SHARE) ? commonPart(r) : COMMON_PARTS + tailPart(r);
      const colour = part < COMMON_PARTS ? colourOf(r) : palettes[part * 3 + int(r, 1 + (part % 3))]!;
      const spare = chance(r, 0.06);
      const key = (part * 256 + colour) * 2 + (spare ? 1 : 0);
      if (seen.has(key)) continue;
      seen.add(key);
      n++;
      const q = r();
      const quantity = spare ? between(r, 1, 2) : q < 0.45 ? 1 : q < 0.65 ? 2 : q < 0.8 ? between(r, 3, 4) : q < 0.92 ? between(r, 5, 8) : q < 0.98 ? between(r, 9, 20) : between(r, 21, 60);
      yield [part, colour, quantity, spare];
    }
  }

  const newestInventory = new Int32Array(SIZE.sets);
  inventoryOf.forEach((inv, index) => {
    if (inv.newest) newestInventory[inv.set] = index;
  });
  const setFile = new CsvOut(path.join(dir, 'sets.csv'), ['set_num', 'name', 'year', 'theme_id', 'num_parts', 'img_url']);
  const themeSets = new Int32Array(SIZE.themes + 1);
  for (let set = 0; set < SIZE.sets; set++) {
    let numParts = 0;
    for (const [, , quantity, spare] of inventoryLines(newestInventory[set]!)) if (!spare) numParts += quantity;
    const theme = 1 + themeOf(rng);
    themeSets[theme]!++;
    const number = setNumbers[set]!;
    if (setFile.line([number, setName(), 1949 + yearOf(rng), theme, numParts, `https://cdn.rebrickable.com/media/sets/${number.toLowerCase()}.jpg`])) await setFile.flush();
  }
  files.push(await setFile.close());

  const inventoryFile = new CsvOut(path.join(dir, 'inventories.csv'), ['id', 'version', 'set_num']);
  inventoryOf.forEach((inv, index) => inventoryFile.line([index + 1, inv.version, setNumbers[inv.set]!]));
  files.push(await inventoryFile.close());

  const lineFile = new CsvOut(path.join(dir, 'inventory_parts.csv'), ['inventory_id', 'part_num', 'color_id', 'quantity', 'is_spare', 'img_url']);
  let olderVersionLines = 0;
  for (let index = 0; index < inventoryOf.length; index++) {
    if (!inventoryOf[index]!.newest) olderVersionLines += lineCounts[index]!;
    for (const [part, colour, quantity, spare] of inventoryLines(index)) {
      const { number } = parts[part]!;
      const colourId = colours[colour]![0];
      const image = (part * 7 + colour) % 10 < 7 ? `https://cdn.rebrickable.com/media/parts/elements/${300000 + ((part * 131 + colour * 7919) % 6_700_000)}.jpg` : (part + colour) % 10 < 9 ? `https://cdn.rebrickable.com/media/parts/ldraw/${colourId}/${number}.png` : '';
      if (lineFile.line([index + 1, number, colourId, quantity, spare ? 't' : 'f', image])) await lineFile.flush();
    }
  }
  files.push(await lineFile.close());

  // What to search for: the most used name word, a made-up name used two or three times, the commonest pair of first words, and numbers.
  const byCount = [...wordCounts].filter(([word]) => !/^\d/.test(word)).sort((a, b) => b[1] - a[1]);
  const rare = byCount.filter(([word, n]) => n >= 2 && n <= 3 && word.length >= 6 && names.some((p) => p.toLowerCase() === word));
  const pairs = [...pairCounts].sort((a, b) => b[1] - a[1]);
  const someSets = [0, 1, 2].map(() => setNumbers[int(rng, setNumbers.length)]!);
  const subtree = (top: number) => {
    let sets = 0;
    for (let id = 1; id <= SIZE.themes; id++) {
      let t = id;
      while (t !== 0 && t !== top) t = themeParent[t]!;
      if (t === top) sets += themeSets[id]!;
    }
    return sets;
  };
  const bigThemes = Array.from({ length: TOPS }, (_, i) => ({ id: i + 1, name: themeNames[i + 1]!, sets: subtree(i + 1) })).sort((a, b) => b.sets - a.sets);
  return {
    files,
    seconds: (performance.now() - started) / 1000,
    inventories: inventoryOf.length,
    olderVersions: inventoryOf.filter((inv) => !inv.newest).length,
    olderVersionLines,
    queries: {
      'common word': byCount.slice(0, 3).map(([word]) => word),
      'rare word': [0, 1, 2].map(() => pick(rng, rare)[0]),
      'number prefix': someSets.map((number) => number.slice(0, 3)),
      'exact number': someSets,
      'two words': pairs.slice(0, 3).map(([pair]) => pair),
    },
    partQueries,
    partColdQueries,
    pieceColdQueries: shuffle(rng, [...[...wordCounts.keys()].filter((word) => /^[a-z]{3,}$/.test(word)), ...new Set(setNumbers.map((number) => number.slice(0, 3)))]).slice(0, 4_000),
    bigThemes: bigThemes.slice(0, 5),
  };
}

// ---- the import --------------------------------------------------------------------------------

interface Imported {
  reports: FileReport[];
  seconds: number;
  /** The database on disk after the import (SQLite: its file; PostgreSQL: pg_database_size). */
  bytes: number;
  /** Rows in the tables the pages read. */
  rows: { pieces: number; parts: number; pieceParts: number; partUsage: number; partColours: number };
  /** Every piece's number (the app reaches a piece by it). */
  pieceNumbers: string[];
  largestPiece: { id: number; number: string; partCount: number };
  /** The parts in the most pieces, most first, and every part in at least one. */
  commonParts: Array<{ id: number; number: string; pieces: number }>;
  usedParts: Array<{ id: number; number: string; pieces: number }>;
}

/** Imports `dir` with the importer `npm run catalogue -- import <dir>` runs (a new database: migrated first), and reads what the requests need from it. */
async function importInto(databaseUrl: string, dir: string): Promise<Imported> {
  const database = await openDatabase(databaseUrl);
  try {
    const reports: FileReport[] = [];
    // The importer's own progress lines: rewritten in place on a terminal, a plain line now and then in a log.
    const progress = importProgressReporter(process.stderr);
    const started = performance.now();
    await importCatalogue(database.db, dir, {
      refreshTextIndex: database.refreshTextIndex,
      onProgress: progress.onProgress,
      onFileDone: (report) => {
        reports.push(report);
        progress.onFileDone(report);
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const { db } = database;
    const count = async (table: 'pieces' | 'parts' | 'piece_parts' | 'part_usage' | 'part_colours') =>
      Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const largest = await db.selectFrom('pieces').select(['id', 'number', 'part_count']).orderBy('part_count', 'desc').limit(1).executeTakeFirstOrThrow();
    const pgBytes = database.engine === 'postgres' ? Number((await sql<{ n: number }>`select pg_database_size(current_database()) as n`.execute(db)).rows[0]!.n) : 0;
    const used = (await db.selectFrom('parts').select(['id', 'number', 'piece_count']).where('piece_count', '>', 0).orderBy('piece_count', 'desc').orderBy('id').execute()).map(
      (p) => ({ id: p.id, number: p.number, pieces: p.piece_count }),
    );
    return {
      reports,
      seconds,
      // SQLite's file is measured once it is closed (no write-ahead log left), below.
      bytes: pgBytes,
      rows: { pieces: await count('pieces'), parts: await count('parts'), pieceParts: await count('piece_parts'), partUsage: await count('part_usage'), partColours: await count('part_colours') },
      pieceNumbers: (await db.selectFrom('pieces').select('number').orderBy('id').execute()).map((p) => p.number),
      largestPiece: { id: largest.id, number: largest.number, partCount: largest.part_count },
      commonParts: used.slice(0, 20),
      usedParts: used,
    };
  } finally {
    await database.close();
  }
}

/** A SQLite database's size on disk: its file, and the write-ahead log if one is left. */
const sqliteBytes = (file: string) => ['', '-wal', '-shm'].reduce((sum, suffix) => sum + (fs.existsSync(file + suffix) ? fs.statSync(file + suffix).size : 0), 0);

async function importAndMeasureSize(databaseUrl: string, dir: string): Promise<Imported> {
  const imported = await importInto(databaseUrl, dir);
  if (databaseUrl.startsWith('file:')) imported.bytes = sqliteBytes(databaseUrl.slice('file:'.length));
  return imported;
}

// ---- the requests ------------------------------------------------------------------------------

/** A kind of request under load (DESIGN §11's p99 target applies to each). */
interface Scenario {
  title: string;
  /** Request paths, sent in turn (each connection takes the next). */
  paths: string[];
}

const searchPath = (query: string) => `/api/rest/pieces?query=${encodeURIComponent(query)}`;
const partSearchPath = (query: string) => `/api/rest/parts?query=${encodeURIComponent(query)}`;
/** A part's page by its number, as the app links it (an id could also be some other part's number). */
const partPath = (number: string, page = 0) => `/api/rest/parts/${encodeURIComponent(number)}${page > 0 ? `?page=${page}` : ''}`;
const middlePage = (pieces: number) => Math.floor(pieces / PAGE_SIZE / 2);
const lastPage = (pieces: number) => Math.max(0, Math.ceil(pieces / PAGE_SIZE) - 1);
const CATEGORY_SORTS = ['name', 'number', 'year-desc', 'parts-desc'] as const;

/** Sends the next of `paths` on every request (one counter for all connections). */
function rotating(paths: string[]): FreshRequest {
  let n = 0;
  return () => ({ method: 'GET', path: paths[n++ % paths.length]! });
}

function scenarios(generated: GeneratedCatalogue, imported: Imported, rng: Rng): Scenario[] {
  const search = shuffle(rng, SEARCH_KINDS.flatMap((kind) => generated.queries[kind].map(searchPath)));
  const themes = generated.bigThemes.slice(0, 3);
  const category = themes.flatMap((theme) => CATEGORY_SORTS.map((sort) => `/api/rest/pieces?category=${theme.id}&sort=${sort}`));
  const pieces = Array.from({ length: 1000 }, () => `/api/rest/pieces/${encodeURIComponent(pick(rng, imported.pieceNumbers))}`);
  const whereUsed = shuffle(rng, [
    ...Array.from({ length: 100 }, () => pick(rng, imported.commonParts)).map((p) => partPath(p.number)),
    ...Array.from({ length: 100 }, () => pick(rng, imported.commonParts)).map((p) => partPath(p.number, middlePage(p.pieces))),
    ...Array.from({ length: 200 }, () => pick(rng, imported.usedParts)).map((p) => partPath(p.number)),
  ]);
  return [
    { title: `(a) search: ${SEARCH_KINDS.length} kinds × 3 queries in turn`, paths: search },
    { title: `(b) category filter: ${themes.length} big categories × ${CATEGORY_SORTS.length} sorts`, paths: category },
    { title: '(c) piece detail, random numbers', paths: pieces },
    { title: '(d) where-used: common parts p.0 / middle page, random parts p.0', paths: whereUsed },
    { title: `(e) part search: ${PART_SEARCH_KINDS.length} kinds × 3 queries in turn`, paths: shuffle(rng, PART_SEARCH_KINDS.flatMap((kind) => generated.partQueries[kind].map(partSearchPath))) },
    { title: `(f) part search, never the same twice (${fmt(generated.partColdQueries.length)} words and numbers)`, paths: generated.partColdQueries.map(partSearchPath) },
    { title: `(g) search, never the same twice (${fmt(generated.pieceColdQueries.length)} words and numbers)`, paths: generated.pieceColdQueries.map(searchPath) },
  ];
}

/** One kind of request measured alone, one at a time: what it costs with no queue in front of it. */
interface Probe {
  label: string;
  paths: string[];
}

function probes(generated: GeneratedCatalogue, imported: Imported, rng: Rng): Probe[] {
  const top = imported.commonParts[0]!;
  const theme = generated.bigThemes[0]!;
  return [
    ...SEARCH_KINDS.map((kind) => ({ label: `search, ${kind}`, paths: generated.queries[kind].map(searchPath) })),
    ...PART_SEARCH_KINDS.map((kind) => ({ label: `part search, ${kind}`, paths: generated.partQueries[kind].map(partSearchPath) })),
    ...CATEGORY_SORTS.map((sort) => ({ label: `category ${theme.name} (${fmt(theme.sets)} pieces), sort=${sort}`, paths: [`/api/rest/pieces?category=${theme.id}&sort=${sort}`] })),
    { label: 'piece, random numbers', paths: Array.from({ length: SOLO_REQUESTS }, () => `/api/rest/pieces/${encodeURIComponent(pick(rng, imported.pieceNumbers))}`) },
    { label: `piece, the largest (${imported.largestPiece.number}, ${fmt(imported.largestPiece.partCount)} parts)`, paths: [`/api/rest/pieces/${encodeURIComponent(imported.largestPiece.number)}`] },
    { label: `where-used, part ${top.number} (${fmt(top.pieces)} pieces), page 0`, paths: [partPath(top.number)] },
    { label: `where-used, part ${top.number}, middle page ${middlePage(top.pieces)}`, paths: [partPath(top.number, middlePage(top.pieces))] },
    { label: `where-used, part ${top.number}, last page ${lastPage(top.pieces)}`, paths: [partPath(top.number, lastPage(top.pieces))] },
    { label: 'where-used, random parts, page 0', paths: Array.from({ length: SOLO_REQUESTS }, () => partPath(pick(rng, imported.usedParts).number)) },
  ];
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`catalogue bench: GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Each path in turn, one request at a time, until SOLO_REQUESTS or SOLO_MS: the times from sending to the whole body read, sorted. */
async function solo(baseUrl: string, paths: string[]): Promise<{ ms: number[]; bytes: number }> {
  const ms: number[] = [];
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < SOLO_REQUESTS && performance.now() - started < SOLO_MS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}${paths[i % paths.length]!}`);
    const body = await res.arrayBuffer();
    ms.push(performance.now() - t0);
    bytes += body.byteLength;
    if (res.status !== 200) throw new Error(`catalogue bench: GET ${paths[i % paths.length]} answered ${res.status}: ${Buffer.from(body).toString().slice(0, 300)}`);
  }
  return { ms: ms.sort((a, b) => a - b), bytes: bytes / ms.length };
}

interface Measured {
  run: LoadRun;
  /** Cores kept busy during the run (CPU seconds per wall second): the server under load, this process (the load generator), and everything else on the machine. */
  serverCores?: number;
  loadGeneratorCores?: number;
  /** PostgreSQL's processes (the postmaster and its backends), when the server runs on it. */
  databaseCores?: number;
  otherCores?: number;
  rssAfter?: number;
}

async function measure(server: ChildServer, title: string, request: FreshRequest | undefined, url: string, postmaster?: number): Promise<Measured> {
  const sample = () => ({
    at: performance.now(),
    server: cpu.processCpuSeconds(server.pid),
    self: cpu.selfCpuSeconds(),
    database: postmaster === undefined ? 0 : cpu.treeCpuSeconds(postmaster),
    machine: cpu.machineBusySeconds(),
  });
  const before = cpu.available ? sample() : undefined;
  const run = await load(url, { connections: CONNECTIONS, durationSeconds: SECONDS, request });
  const end = server.ended();
  if (end) throw new Error(`catalogue bench: the server at ${server.url} ended during "${title}": ${end}; its output:\n${server.output.slice(-20).join('\n')}`);
  const wrong = Object.entries(run.answers.byStatus).filter(([status, n]) => status !== '200' && n > 0);
  if (wrong.length > 0 || run.answers.unanswered > 0) {
    throw new Error(`catalogue bench: "${title}" had answers other than 200: ${wrong.map(([s, n]) => `${s} ×${n}`).join(', ')}${run.answers.unanswered ? `, no answer ×${run.answers.unanswered}` : ''}`);
  }
  if (!before) return { run };
  const after = sample();
  const wall = (after.at - before.at) / 1000;
  // Clock ticks can leave a hair below zero.
  const serverSeconds = Math.max(0, after.server - before.server);
  const selfSeconds = Math.max(0, after.self - before.self);
  const databaseSeconds = Math.max(0, after.database - before.database);
  return {
    run,
    serverCores: serverSeconds / wall,
    loadGeneratorCores: selfSeconds / wall,
    databaseCores: postmaster === undefined ? undefined : databaseSeconds / wall,
    otherCores: Math.max(0, after.machine - before.machine - serverSeconds - selfSeconds - databaseSeconds) / wall,
    rssAfter: cpu.memoryOf(server.pid)?.rssBytes,
  };
}

// ---- the bench ---------------------------------------------------------------------------------

const f1 = (n: number) => fmt(n, 1);
const f2 = (n: number) => fmt(n, 2);
const mb = (bytes: number) => `${f1(bytes / 1024 / 1024)} MB`;
const verdict = (p99: number) => (p99 < TARGET_P99_MS ? 'met' : 'NOT MET');

function printImport(title: string, generated: GeneratedCatalogue, imported: Imported): number {
  const linesOf = new Map(generated.files.map((f) => [f.file, f.lines]));
  const totalLines = generated.files.reduce((sum, f) => sum + f.lines, 0);
  const totalRows = imported.reports.reduce((sum, r) => sum + r.rows, 0);
  const bad = imported.reports.reduce((sum, r) => sum + r.bad, 0);
  console.log(`  Import, ${title}:`);
  console.log(`    ${'file'.padEnd(22)}${'lines'.padStart(10)}${'rows'.padStart(10)}${'s'.padStart(7)}${'rows/s'.padStart(10)}${'lines/s'.padStart(10)}`);
  const line = (file: string, lines: number, rows: number, seconds: number, note: string) =>
    console.log(`    ${file.padEnd(22)}${fmt(lines).padStart(10)}${fmt(rows).padStart(10)}${f1(seconds).padStart(7)}${fmt(ratio(rows, seconds)).padStart(10)}${fmt(ratio(lines, seconds)).padStart(10)}${note}`);
  for (const r of imported.reports) line(r.file, linesOf.get(r.file) ?? 0, r.rows, r.seconds, r.bad ? `  ${fmt(r.bad)} bad rows skipped` : '');
  line('total', totalLines, totalRows, imported.seconds, bad ? `  ${fmt(bad)} bad rows skipped` : '  (no bad rows)');
  console.log(
    `    rows = rows written; inventory_parts passes over the ${fmt(generated.olderVersionLines)} lines of older inventory versions, and its time includes rebuilding where-used, part colours and piece counts at its end`,
  );
  console.log(
    `    database ${mb(imported.bytes)}: ${fmt(imported.rows.pieces)} pieces, ${fmt(imported.rows.parts)} parts, ${fmt(imported.rows.pieceParts)} piece lines, ${fmt(imported.rows.partUsage)} where-used rows, ${fmt(imported.rows.partColours)} part colours`,
  );
  return ratio(totalRows, imported.seconds);
}

/** The BFF serves the imported catalogue (it seeds its small one only into an empty catalogue), and every kind of request answers; answers each query's hits. */
async function checkCatalogue(bff: ChildServer, generated: GeneratedCatalogue, imported: Imported): Promise<Record<string, number>> {
  const hits: Record<string, number> = {};
  for (const kind of SEARCH_KINDS) {
    for (const query of generated.queries[kind]) {
      const page = await getJson<Page<PieceSummary>>(`${bff.url}${searchPath(query)}`);
      hits[query] = page.total;
      if (page.total === 0) throw new Error(`catalogue bench: searching "${query}" (${kind}) found nothing`);
    }
  }
  for (const kind of PART_SEARCH_KINDS) {
    for (const query of generated.partQueries[kind]) {
      const page = await getJson<Page<PartListItem>>(`${bff.url}${partSearchPath(query)}`);
      hits[`part ${query}`] = page.total;
      if (page.total === 0) throw new Error(`catalogue bench: searching parts for "${query}" (${kind}) found nothing`);
      if (kind === 'exact number' && page.items[0]?.number !== query) throw new Error(`catalogue bench: part search "${query}" put ${page.items[0]?.number} first, not the part itself`);
    }
  }
  // `/parts/<number>` opens the right part, digits-only numbers included.
  for (const number of generated.partQueries['exact number']) {
    const part = await getJson<PartDetail>(`${bff.url}/api/rest/parts/${encodeURIComponent(number)}`);
    if (part.number !== number) throw new Error(`catalogue bench: /api/rest/parts/${number} opened part ${part.number}`);
  }
  const all = await getJson<Page<PieceSummary>>(`${bff.url}/api/rest/pieces`);
  if (all.total !== imported.rows.pieces) throw new Error(`catalogue bench: the BFF lists ${all.total} pieces, the import made ${imported.rows.pieces}`);
  const largest = await getJson<PieceDetail>(`${bff.url}/api/rest/pieces/${imported.largestPiece.id}`);
  const top = imported.commonParts[0]!;
  const topPart = await getJson<PartDetail>(`${bff.url}${partPath(top.number)}`);
  if (largest.totals.lines === 0 || topPart.usedIn.total !== top.pieces) throw new Error('catalogue bench: piece or part detail does not match the import');
  return hits;
}

interface Row {
  title: string;
  target: boolean;
  measured: Measured;
}

/** The anchor, then (a)–(g), each at CONNECTIONS for SECONDS after a second of warm-up. */
async function loadRuns(bff: ChildServer, bare: ChildServer, generated: GeneratedCatalogue, imported: Imported, rng: Rng, postmaster?: number): Promise<Row[]> {
  const rows: Row[] = [{ title: 'bare Express GET /hello (anchor)', target: false, measured: await measure(bare, 'anchor', undefined, `${bare.url}/hello`) }];
  for (const scenario of scenarios(generated, imported, rng)) {
    rows.push({ title: scenario.title, target: true, measured: await measure(bff, scenario.title, rotating(scenario.paths), bff.url, postmaster) });
  }
  return rows;
}

function printRuns(title: string, rows: Row[], bffPid: number, rssAtStart: number | undefined): Figure[] {
  const anchor = rows[0]!.measured.run.requestsPerSecond;
  const withDatabase = rows.some((r) => r.measured.databaseCores !== undefined);
  console.log(`  Under load, ${title}: ${CONNECTIONS} connections, ${SECONDS} s each after 1 s of warm-up; each server in a process of its own, the load generator in this one, all on ${CORES} cores:`);
  const cpuHeader = cpu.available ? `${'server cores'.padStart(13)}${'ms CPU/req'.padStart(11)}${withDatabase ? 'PostgreSQL'.padStart(11) : ''}${'load gen'.padStart(9)}${'other'.padStart(7)}` : '';
  console.log(`    ${''.padEnd(66)}${'req/s'.padStart(7)}${'× anchor'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}  ${'p99 < 50 ms'.padEnd(12)}${cpuHeader}`);
  for (const { title: rowTitle, target, measured } of rows) {
    const { run } = measured;
    const cpuText =
      measured.serverCores === undefined
        ? ''
        : `${f2(measured.serverCores).padStart(13)}${f2(ratio(measured.serverCores * 1000, run.requestsPerSecond)).padStart(11)}${withDatabase ? (measured.databaseCores === undefined ? '' : f2(measured.databaseCores)).padStart(11) : ''}${f2(measured.loadGeneratorCores!).padStart(9)}${f2(measured.otherCores!).padStart(7)}`;
    console.log(
      `    ${rowTitle.padEnd(66)}${fmt(run.requestsPerSecond).padStart(7)}${f2(ratio(run.requestsPerSecond, anchor)).padStart(9)}${fmt(run.p50Ms).padStart(8)}${fmt(run.p99Ms).padStart(8)}  ${(target ? verdict(run.p99Ms) : '').padEnd(12)}${cpuText}`,
    );
  }
  const memory = cpu.memoryOf(bffPid);
  if (memory && rssAtStart !== undefined) {
    console.log(`    BFF memory (VmRSS): ${mb(rssAtStart)} once started, ${rows.slice(1).map((r) => mb(r.measured.rssAfter ?? 0)).join(', ')} after (a)–(g); peak ${mb(memory.peakRssBytes)}`);
  }
  const others = Math.max(...rows.map((r) => r.measured.otherCores ?? 0));
  if (others > 0.25) console.log(`    NOTE: other processes kept up to ${f2(others)} of the ${CORES} cores busy during these runs; the figures share the machine with them.`);
  const missed = rows.filter((r) => r.target && r.measured.run.p99Ms >= TARGET_P99_MS);
  console.log(`    p99 < ${TARGET_P99_MS} ms at ${CONNECTIONS} connections: ${missed.length === 0 ? 'met by every kind' : `NOT MET by ${missed.map((r) => r.title.slice(0, 3)).join(' ')}`}`);
  return rows.flatMap(({ title: rowTitle, target, measured: { run } }) =>
    target
      ? [info(`${title}, ${rowTitle}: throughput`, run.requestsPerSecond, 'req/s'), bar(`${title}, ${rowTitle}: p99 at ${CONNECTIONS} connections`, run.p99Ms, 'ms', `< ${TARGET_P99_MS} ms`, run.p99Ms < TARGET_P99_MS)]
      : [info(`${title}, ${rowTitle}`, run.requestsPerSecond, 'req/s')],
  );
}

/**
 * Generates a catalogue of Rebrickable's size in its CSV format, imports it into a new SQLite
 * database (rows/s per file), then loads the BFF on it in a process of its own at 50 connections:
 * search, a category with a sort, piece detail and where-used, beside a bare Express hello route.
 * Then the same on a throw-away PostgreSQL, when one can be started.
 */
export async function runCatalogueBench(): Promise<Figure[]> {
  const started = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-catalogue-bench-'));
  const csvDir = path.join(dir, 'csv');
  const staticDir = path.join(dir, 'static');
  fs.mkdirSync(csvDir);
  fs.mkdirSync(staticDir);
  const dbFile = path.join(dir, 'catalogue.db');
  const servers: ChildServer[] = [];
  let pg: ThrowawayPostgres | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaned ??= (async () => {
      await Promise.allSettled(servers.map((s) => s.stop()));
      await pg?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    })());
  // Ctrl-C mid-run: the servers and PostgreSQL stop and the temporary directory (~0.2 GB) goes, as on a failure.
  const onSignal = (signal: NodeJS.Signals) => void cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const start = async (make: () => Promise<ChildServer>) => {
    const server = await make();
    servers.push(server);
    return server;
  };

  try {
    console.log(`\nCatalogue at Rebrickable's size (DESIGN §11: search, piece and where-used p99 < ${TARGET_P99_MS} ms at ${CONNECTIONS} connections; import rows/s reported)`);
    const generated = await generateCatalogue(csvDir);
    console.log(`  Generated in Rebrickable's CSV format (seed ${SEED.toString(16)}, streamed) in ${f1(generated.seconds)} s:`);
    for (const f of generated.files) console.log(`    ${f.file.padEnd(22)}${fmt(f.lines).padStart(10)} lines ${mb(f.bytes).padStart(10)}`);
    console.log(`    ${fmt(generated.inventories)} inventories: one per set, ${fmt(generated.olderVersions)} sets also with an older version (${fmt(generated.olderVersionLines)} of the lines)`);

    // ---- SQLite
    const imported = await importAndMeasureSize(`file:${dbFile}`, csvDir);
    const headline: Figure[] = [];
    const sqliteImport = printImport('SQLite, a new database (importCatalogue, as `npm run catalogue -- import <dir>` runs it; each file one transaction)', generated, imported);
    headline.push(info(`import on SQLite (${fmt(imported.rows.pieces)} pieces, all files)`, sqliteImport, 'rows/s'));
    const usage = imported.usedParts.map((p) => p.pieces);
    const top = imported.commonParts[0]!;
    console.log(
      `    skew: part ${top.number} is in ${fmt(top.pieces)} pieces; ${fmt(usage.filter((n) => n >= 1000).length)} parts in ≥ 1,000, ${fmt(usage.filter((n) => n <= 5).length)} of the ${fmt(usage.length)} parts in use in ≤ 5 (median ${fmt(quantile([...usage].reverse(), 0.5))})`,
    );

    const bare = await start(() => startChildServer('bench/bare-express.server.ts', { NODE_ENV: 'production' }));
    const bff = await start(() => startBenchBff(`file:${dbFile}`, staticDir));
    const rssAtStart = cpu.memoryOf(bff.pid)?.rssBytes;
    const hits = await checkCatalogue(bff, generated, imported);
    console.log(`  Search hits (total) per query: ${SEARCH_KINDS.map((kind) => `${kind} ${generated.queries[kind].map((q) => `"${q}" ${fmt(hits[q]!)}`).join(', ')}`).join('; ')}`);
    console.log(`  Part search hits: ${PART_SEARCH_KINDS.map((kind) => `${kind} ${generated.partQueries[kind].map((q) => `"${q}" ${fmt(hits[`part ${q}`]!)}`).join(', ')}`).join('; ')}`);
    const rng = prng(SEED + 1);
    console.log(`  One request at a time on SQLite (no queue: what each kind costs), ms from sending to the whole body, median / p90 / max of up to ${SOLO_REQUESTS}:`);
    for (const probe of probes(generated, imported, rng)) {
      const { ms, bytes } = await solo(bff.url, probe.paths);
      console.log(`    ${probe.label.padEnd(62)}${f2(quantile(ms, 0.5)).padStart(7)} ${f2(quantile(ms, 0.9)).padStart(7)} ${f2(ms[ms.length - 1]!).padStart(7)}   ~${fmt(bytes / 1024, 1)} KB`);
    }
    headline.push(...printRuns('SQLite', await loadRuns(bff, bare, generated, imported, rng), bff.pid, rssAtStart));
    await bff.stop();

    // ---- PostgreSQL, when the machine has it
    console.log(`  ---- PostgreSQL (throw-away cluster on this machine, fsync off; the same CSV files)`);
    try {
      pg = await startThrowawayPostgres();
    } catch (err) {
      console.log(`    skipped: ${(err as Error).message}`);
    }
    if (pg) {
      const postmaster = cpu.available ? cpu.findProcess('postgres', [`port=${pg.port}`]) : undefined;
      const pgImported = await importAndMeasureSize(pg.url, csvDir);
      headline.push(info('import on PostgreSQL (all files)', printImport('PostgreSQL, a new database', generated, pgImported), 'rows/s'));
      const pgBff = await start(() => startBenchBff(pg!.url, staticDir));
      const pgRss = cpu.memoryOf(pgBff.pid)?.rssBytes;
      const pgHits = await checkCatalogue(pgBff, generated, pgImported);
      const differ = Object.keys(hits).filter((q) => hits[q] !== pgHits[q]);
      if (differ.length > 0) console.log(`    search hits that differ from SQLite's: ${differ.map((q) => `"${q}" ${fmt(pgHits[q]!)}`).join(', ')}`);
      headline.push(...printRuns('PostgreSQL (pool of 10)', await loadRuns(pgBff, bare, generated, pgImported, prng(SEED + 1), postmaster), pgBff.pid, pgRss));
    }
    return headline;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await cleanUp();
    console.log(`  (catalogue bench: ${fmt((performance.now() - started) / 1000)} s)`);
  }
}
