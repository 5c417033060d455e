import type { RequestHandler } from 'msw';
import { catalogueApi, type Category, type Colour, type PartListItem, type PartSummary, type PieceSummary } from '@contracts/catalogue.contract';
import type { Endpoint } from '@contracts/endpoint.contract';
import { fieldProblem, handle, problem, type Answer, type FakeInput } from './test-server';

/**
 * Test support: an in-memory catalogue behaving like `bff/features/catalogue` as its contract
 * describes it: search by number or name (an exact number first), a category filter that takes in
 * sub-categories (an unknown one is a 400 naming `query.category`), sorts, 0-based pages, parts by
 * number or name, a piece or part by number (or by id: digits only that are no number), lines
 * grouped by part category, and the paged where-used list, as msw handlers. `down`: every call
 * answers a 500 problem until it is cleared.
 */
export type FakeLine = { pieceId: number; partId: number; colourId: number; quantity: number; spare: boolean };
export type FakeCatalogue = {
  pieces: PieceSummary[];
  parts: PartSummary[];
  categories: Omit<Category, 'pieceCount'>[];
  colours: Colour[];
  lines: FakeLine[];
  down: boolean;
  handlers: RequestHandler[];
};

export const COLOURS = {
  red: { id: 4, name: 'Red', rgb: 'C91A09', transparent: false },
  blue: { id: 1, name: 'Blue', rgb: '0055BF', transparent: false },
  black: { id: 0, name: 'Black', rgb: '05131D', transparent: false },
  transClear: { id: 47, name: 'Trans-Clear', rgb: 'FCFCFC', transparent: true },
} satisfies Record<string, Colour>;

const BRICKS = { id: 11, name: 'Bricks' };
const PLATES = { id: 14, name: 'Plates' };

/** Our address for a Rebrickable picture, as the BFF answers it (decision 0068). */
export const ourPicture = (address: string) => `/api/rest/pictures?src=${encodeURIComponent(address)}`;

export function piece(id: number, overrides: Partial<PieceSummary> = {}): PieceSummary {
  return { id, number: `${9000 + id}-1`, name: `Set ${id}`, year: 2000 + (id % 20), category: null, partCount: 0, imageUrl: null, ...overrides };
}

export function part(id: number, overrides: Partial<PartSummary> = {}): PartSummary {
  return { id, number: `p${id}`, name: `Part ${id}`, category: BRICKS, material: 'Plastic', imageUrl: null, ...overrides };
}

/** Themes: Town with Modular Buildings under it, Star Wars, Technic. */
export const CATEGORIES = [
  { id: 1, name: 'Town', parentId: null },
  { id: 2, name: 'Modular Buildings', parentId: 1 },
  { id: 3, name: 'Star Wars', parentId: null },
  { id: 4, name: 'Technic', parentId: null },
];
const cat = (id: number) => ({ id, name: CATEGORIES.find((c) => c.id === id)!.name });

export const PIECES = [
  piece(1, { number: '10270-1', name: 'Bookshop', year: 2020, category: cat(2), partCount: 2504, imageUrl: ourPicture('https://cdn.rebrickable.com/media/sets/10270-1.jpg') }),
  piece(2, { number: '10255-1', name: 'Assembly Square', year: 2017, category: cat(2), partCount: 4002 }),
  piece(3, { number: '75192-1', name: 'Millennium Falcon', year: 2017, category: cat(3), partCount: 7541 }),
  piece(4, { number: '42115-1', name: 'Lamborghini Sián FKP 37', year: 2020, category: cat(4), partCount: 3696 }),
  piece(5, { number: '6372-1', name: 'Town House', year: 1985, category: cat(1), partCount: 240 }),
  piece(6, { number: '10270', name: 'Bookshop Minifigure Pack', year: 2021, category: cat(2), partCount: 12 }),
];

export const PARTS = [
  part(1, { number: '3001', name: 'Brick 2 x 4', category: BRICKS, imageUrl: ourPicture('https://cdn.rebrickable.com/media/parts/elements/300121.jpg') }),
  part(2, { number: '3023', name: 'Plate 1 x 2', category: PLATES }),
  part(3, { number: '3001pr0001', name: 'Brick 2 x 4 with Bookshop print', category: BRICKS, material: null }),
  part(4, { number: '3024', name: 'Plate 1 x 1', category: PLATES }),
];

/** The Bookshop's lines, and a Falcon that also uses the 2 x 4 brick. */
export const LINES: FakeLine[] = [
  { pieceId: 1, partId: 1, colourId: COLOURS.red.id, quantity: 4, spare: false },
  { pieceId: 1, partId: 1, colourId: COLOURS.blue.id, quantity: 2, spare: false },
  { pieceId: 1, partId: 3, colourId: COLOURS.red.id, quantity: 1, spare: false },
  { pieceId: 1, partId: 2, colourId: COLOURS.black.id, quantity: 6, spare: false },
  { pieceId: 1, partId: 4, colourId: COLOURS.transClear.id, quantity: 3, spare: false },
  { pieceId: 1, partId: 4, colourId: COLOURS.transClear.id, quantity: 1, spare: true },
  { pieceId: 3, partId: 1, colourId: COLOURS.black.id, quantity: 12, spare: false },
  { pieceId: 3, partId: 1, colourId: COLOURS.black.id, quantity: 1, spare: true },
];

const page = <T>(items: T[], { page: p, pageSize: size }: { page: number; pageSize: number }) => ({ items: items.slice(p * size, p * size + size), page: p, pageSize: size, total: items.length });
/** A search's page as the BFF counts it: up to the next thousand past the page, then "at least" (decision 0086). */
const searchPage = <T>(items: T[], query: { page: number; pageSize: number; query?: string }) => {
  const upTo = Math.ceil(((query.page + 1) * query.pageSize) / 1000) * 1000;
  return query.query && items.length > upTo ? { ...page(items, query), total: upTo, totalIsLowerBound: true } : page(items, query);
};

/** A piece or part by its ref as the BFF looks it up: its number first, then digits only as an id. */
const byRef = <T extends { id: number; number: string }>(list: T[], ref: string) => list.find((x) => x.number === ref) ?? (/^[1-9][0-9]*$/.test(ref) ? list.find((x) => x.id === Number(ref)) : undefined);

export function fakeCatalogue(init: { pieces?: PieceSummary[]; parts?: PartSummary[]; lines?: FakeLine[]; categories?: Omit<Category, 'pieceCount'>[] } = {}): FakeCatalogue {
  const c: FakeCatalogue = {
    pieces: init.pieces ?? PIECES,
    parts: init.parts ?? PARTS,
    categories: init.categories ?? CATEGORIES,
    colours: Object.values(COLOURS),
    lines: init.lines ?? LINES,
    down: false,
    handlers: [],
  };
  const within = (categoryId: number): Set<number> => {
    const ids = new Set([categoryId]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const x of c.categories) {
        if (x.parentId === null || !ids.has(x.parentId) || ids.has(x.id)) continue;
        ids.add(x.id);
        grew = true;
      }
    }
    return ids;
  };
  const colour = (id: number) => c.colours.find((x) => x.id === id)!;
  const partOf = (id: number) => c.parts.find((x) => x.id === id)!;

  /** Every read answers a 500 problem while `down` is set. */
  const served = <E extends Endpoint>(endpoint: E, fake: (input: FakeInput<E>) => Answer<E>) =>
    handle(endpoint, (input) => (c.down ? problem(500, 'Internal Server Error', 'The catalogue is unavailable.') : fake(input)));

  c.handlers = [
    // As the BFF counts them: the pieces directly in each category, not in its sub-categories.
    served(catalogueApi.listCategories, () => ({ items: c.categories.map((x) => ({ ...x, pieceCount: c.pieces.filter((p) => p.category?.id === x.id).length })) })),

    served(catalogueApi.listPieces, ({ query }) => {
      const text = (query.query ?? '').toLowerCase();
      const { category } = query;
      if (category && !c.categories.some((x) => x.id === category)) {
        return fieldProblem([{ path: 'query.category', message: `No category with id ${category}; GET /api/rest/categories lists them` }], `There is no category ${category}.`);
      }
      const ids = category ? within(category) : undefined;
      const found = c.pieces.filter((p) => (!text || p.number.toLowerCase().includes(text) || p.name.toLowerCase().includes(text)) && (!ids || (p.category && ids.has(p.category.id))));
      const compare: Record<typeof query.sort, (a: PieceSummary, b: PieceSummary) => number> = {
        relevance: (a, b) => Number(b.number.toLowerCase() === text) - Number(a.number.toLowerCase() === text) || a.number.localeCompare(b.number),
        number: (a, b) => a.number.localeCompare(b.number),
        name: (a, b) => a.name.localeCompare(b.name),
        'year-desc': (a, b) => (b.year ?? 0) - (a.year ?? 0),
        year: (a, b) => (a.year ?? 0) - (b.year ?? 0),
        'parts-desc': (a, b) => b.partCount - a.partCount,
      };
      return searchPage([...found].sort(compare[query.sort]), query);
    }),

    served(catalogueApi.listPartCategories, () => ({
      items: [BRICKS, PLATES].map((x) => ({ ...x, partCount: c.parts.filter((p) => p.category?.id === x.id).length })),
    })),

    served(catalogueApi.listParts, ({ query }) => {
      const text = (query.query ?? '').toLowerCase();
      const { category } = query;
      if (category && ![BRICKS, PLATES].some((x) => x.id === category)) {
        return fieldProblem([{ path: 'query.category', message: `No part category with id ${category}; GET /api/rest/part-categories lists them` }], `There is no part category ${category}.`);
      }
      const pieceCount = (partId: number) => new Set(c.lines.filter((l) => l.partId === partId).map((l) => l.pieceId)).size;
      const found = c.parts
        .filter((p) => (!text || p.number.toLowerCase().includes(text) || p.name.toLowerCase().includes(text)) && (!category || p.category?.id === category))
        .map((p) => ({ ...p, pieceCount: pieceCount(p.id) }));
      const rank = (p: PartSummary) => (p.number.toLowerCase() === text ? 0 : p.number.toLowerCase().startsWith(text) ? 1 : 2);
      const compare: Record<typeof query.sort, (a: PartListItem, b: PartListItem) => number> = {
        relevance: (a, b) => rank(a) - rank(b) || b.pieceCount - a.pieceCount || a.id - b.id,
        number: (a, b) => a.number.localeCompare(b.number),
        name: (a, b) => a.name.localeCompare(b.name),
        'used-desc': (a, b) => b.pieceCount - a.pieceCount || a.id - b.id,
      };
      return searchPage([...found].sort(compare[query.sort]), query);
    }),

    served(catalogueApi.getPiece, ({ params: { id: ref } }) => {
      const found = byRef(c.pieces, ref);
      if (!found) return problem(404, 'Not Found', `No piece ${ref}.`);
      const lines = c.lines
        .filter((l) => l.pieceId === found.id)
        .map((l) => ({ part: partOf(l.partId), colour: colour(l.colourId), quantity: l.quantity, spare: l.spare }))
        .sort((a, b) => a.part.number.localeCompare(b.part.number) || a.colour.name.localeCompare(b.colour.name));
      const names = [...new Set(lines.map((l) => l.part.category?.name ?? ''))].sort();
      const groups = names.map((name) => {
        const ofGroup = lines.filter((l) => (l.part.category?.name ?? '') === name);
        const sum = (spare: boolean) => ofGroup.filter((l) => l.spare === spare).reduce((s, l) => s + l.quantity, 0);
        return { category: ofGroup[0]!.part.category, lines: ofGroup, quantity: sum(false), spares: sum(true) };
      });
      const totals = {
        lines: lines.length,
        distinctParts: new Set(lines.map((l) => l.part.id)).size,
        quantity: lines.filter((l) => !l.spare).reduce((s, l) => s + l.quantity, 0),
        spares: lines.filter((l) => l.spare).reduce((s, l) => s + l.quantity, 0),
      };
      return { ...found, groups, totals };
    }),

    served(catalogueApi.getPart, ({ params: { id: ref }, query }) => {
      const found = byRef(c.parts, ref);
      if (!found) return problem(404, 'Not Found', `No part ${ref}.`);
      const lines = c.lines.filter((l) => l.partId === found.id);
      const colours = [...new Set(lines.map((l) => l.colourId))].map(colour).sort((a, b) => a.name.localeCompare(b.name));
      const pieceIds = [...new Set(lines.map((l) => l.pieceId))];
      const used = c.pieces
        .filter((p) => pieceIds.includes(p.id))
        .sort((a, b) => a.number.localeCompare(b.number))
        .map((p) => {
          const mine = lines.filter((l) => l.pieceId === p.id);
          return {
            piece: p,
            quantity: mine.filter((l) => !l.spare).reduce((s, l) => s + l.quantity, 0),
            spares: mine.filter((l) => l.spare).reduce((s, l) => s + l.quantity, 0),
            colours: new Set(mine.map((l) => l.colourId)).size,
          };
        });
      return { ...found, colours, usedIn: page(used, query) };
    }),
  ];
  return c;
}
