import { expressionBuilder, sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Category, Colour, PartCategory, PartListItem, PartSort, PartSummary, PieceLine, PieceSummary, WhereUsed } from '../../contracts/catalogue.contract';
import type { Db } from '../../db/database';
import type { TextHit } from '../../db/engine';
import type { DB } from '../../db/schema';

/** The catalogue's reads, as plain objects. */

export type PieceOrder = 'relevance' | 'number' | 'name' | 'year-desc' | 'year' | 'parts-desc';

/** The words of a search, found in the text index. */
export interface TextSearch {
  /** The rows holding every word (as a word or its start), in rank order (the engine's `textHits`). */
  hits: RawBuilder<TextHit>;
  /**
   * The query as typed, when it could be a number: that number first (the piece `10270-1` for
   * `10270` too), then the numbers that start with it, then the rest.
   */
  number?: string;
}

export interface PieceSearch {
  text?: TextSearch;
  themeIds?: readonly number[];
  order: PieceOrder;
  limit: number;
  offset: number;
}

export interface PartSearch {
  text?: TextSearch;
  categoryId?: number;
  order: Exclude<PartSort, 'relevance'> | 'relevance';
  limit: number;
  offset: number;
}

/** What a search found: one page, and how many in all (or at least, when it stopped counting). */
export interface Found<T> {
  items: T[];
  total: number;
  totalIsLowerBound?: true;
}

/**
 * A search counts its matches up to the next thousand past its page, then says "at least": a common
 * word matches 24,000 parts, and counting them all cost more than finding the page.
 */
const COUNTED_IN_STEPS_OF = 1_000;

type Searched = 'parts' | 'pieces';

/**
 * A search's filter on its rows (as `t`), written with the query builder so that the engine compiles
 * it like every other condition.
 */
const onHitRows = <T extends Searched>() => expressionBuilder<DB & { t: DB[T] }, 't'>();

/** A search's hits joined to their rows (as `t`), with the filter. */
const hitRows = (table: Searched, hits: RawBuilder<TextHit>, filter: Expression<SqlBool> | undefined) =>
  sql`${hits} as hit join ${sql.table(table)} as t on t.search_rank = hit.rank${filter ? sql` where ${filter}` : sql``}`;

/**
 * How many hits a search has, counted no further than the next step past its page. A page that
 * ends before it is full says so itself: then nothing is counted. (Its LIMIT is an integer in the
 * text, as {@link rankedPage}'s bounds are.)
 */
async function countHits(db: Db, table: Searched, text: TextSearch, filter: Expression<SqlBool> | undefined, limit: number, offset: number, onPage: number): Promise<Omit<Found<never>, 'items'>> {
  if (onPage > 0 && onPage < limit) return { total: offset + onPage };
  const upTo = Math.ceil((offset + limit) / COUNTED_IN_STEPS_OF) * COUNTED_IN_STEPS_OF;
  const from = filter ? hitRows(table, text.hits, filter) : sql`${text.hits} as hit`;
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 as one from ${from} limit ${sql.lit(upTo + 1)}) as counted`.execute(db);
  const n = Number(rows[0]!.n);
  return n > upTo ? { total: upTo, totalIsLowerBound: true } : { total: n };
}

/**
 * One page of a search's hits, best first, as `(id, tier, rank)`: read in rank order from the
 * index and stopped at the page, never all of them sorted. A number is ranked first (tier 0), then
 * the numbers that start with it (1), then the rest (2); each tier reads no further than the page.
 * Its bounds are written as integers, as the query builder's are on SQLite (bff/db/engine.ts): a
 * bound LIMIT has SQLite plan the statement again at every run.
 */
function rankedPage(table: Searched, text: TextSearch, filter: Expression<SqlBool> | undefined, limit: number, offset: number) {
  const and = (condition: RawBuilder<SqlBool>) => (filter ? sql<SqlBool>`${condition} and ${filter}` : condition);
  const tier = (n: number, condition: RawBuilder<SqlBool>) =>
    sql`select * from (select t.id, ${sql.lit(n)} as tier, hit.rank from ${hitRows(table, text.hits, and(condition))} order by hit.rank limit ${sql.lit(offset + limit)}) as ${sql.ref(`tier${n}`)}`;
  if (text.number === undefined) {
    return sql<RankedHit>`(select t.id, 0 as tier, hit.rank from ${hitRows(table, text.hits, filter)} order by hit.rank limit ${sql.lit(limit)} offset ${sql.lit(offset)})`;
  }
  const typed = text.number;
  const lowered = typed.toLowerCase();
  // A piece's number is its set number and version: `10270` is the set `10270-1`.
  const exact = [...new Set([typed, lowered, ...(table === 'pieces' ? [`${lowered}-1`] : [])])];
  // Compared as the number's first characters, not with LIKE: SQLite plans a statement again at every
  // run when a LIKE pattern is a bound parameter.
  const startsWith = sql<SqlBool>`substr(lower(t.number), 1, ${sql.lit([...lowered].length)}) = ${lowered}`;
  const exactly = sql<SqlBool>`t.number in (${sql.join(exact)})`;
  return sql<RankedHit>`(select id, tier, rank from (
    select t.id, 0 as tier, t.search_rank as rank from ${sql.table(table)} as t where ${and(exactly)}
    union all ${tier(1, sql<SqlBool>`${startsWith} and not ${exactly}`)}
    union all ${tier(2, sql<SqlBool>`not ${startsWith}`)}
  ) as tiers order by tier, rank limit ${sql.lit(limit)} offset ${sql.lit(offset)})`;
}
interface RankedHit {
  id: number;
  tier: number;
  rank: number;
}

/** A number first; digits only that are no number: an id (addresses from before numbers were used). */
const byNumberOrId = async <Row>(ref: string, byNumber: (number: string) => Promise<Row | undefined>, byId: (id: number) => Promise<Row | undefined>) =>
  (await byNumber(ref)) ?? (/^[1-9][0-9]{0,14}$/.test(ref) ? await byId(Number(ref)) : undefined);

interface PieceRowOut {
  id: number;
  number: string;
  name: string;
  year: number | null;
  part_count: number;
  image_url: string | null;
  theme_id: number | null;
  theme_name: string | null;
}
const toPiece = (row: PieceRowOut): PieceSummary => ({
  id: row.id,
  number: row.number,
  name: row.name,
  year: row.year,
  category: row.theme_id !== null && row.theme_name !== null ? { id: row.theme_id, name: row.theme_name } : null,
  partCount: row.part_count,
  imageUrl: row.image_url,
});

interface PartRowOut {
  id: number;
  number: string;
  name: string;
  material: string | null;
  image_url: string | null;
  category_id: number | null;
  category_name: string | null;
}
const toPart = (row: PartRowOut): PartSummary => ({
  id: row.id,
  number: row.number,
  name: row.name,
  category: row.category_id !== null && row.category_name !== null ? { id: row.category_id, name: row.category_name } : null,
  material: row.material,
  imageUrl: row.image_url,
});
const toListedPart = (row: PartRowOut & { piece_count: number }): PartListItem => ({ ...toPart(row), pieceCount: row.piece_count });
const toColour = (row: { id: number; name: string; rgb: string; transparent: number }): Colour => ({ id: row.id, name: row.name, rgb: row.rgb, transparent: row.transparent === 1 });

export function catalogueRepository(db: Db) {
  const pieces = () =>
    db
      .selectFrom('pieces')
      .leftJoin('catalogue_themes', 'catalogue_themes.id', 'pieces.theme_id')
      .select(['pieces.id', 'pieces.number', 'pieces.name', 'pieces.year', 'pieces.part_count', 'pieces.image_url', 'pieces.theme_id', 'catalogue_themes.name as theme_name']);

  const parts = () =>
    db
      .selectFrom('parts')
      .leftJoin('part_categories', 'part_categories.id', 'parts.category_id')
      .select(['parts.id', 'parts.number', 'parts.name', 'parts.material', 'parts.image_url', 'parts.category_id', 'part_categories.name as category_name', 'parts.piece_count']);

  return {
    async searchPieces(search: PieceSearch): Promise<Found<PieceSummary>> {
      const { text, themeIds, limit, offset } = search;
      const filter = themeIds && onHitRows<'pieces'>()('t.theme_id', 'in', themeIds);
      // Newest first is the ranks' own order; relevance puts a number first, then the same.
      if (text && (search.order === 'relevance' || search.order === 'year-desc')) {
        const page = rankedPage('pieces', search.order === 'relevance' ? text : { hits: text.hits }, filter, limit, offset).as('page');
        const items = await pieces().innerJoin(page, 'page.id', 'pieces.id').orderBy('page.tier').orderBy('page.rank').execute();
        return { items: items.map(toPiece), ...(await countHits(db, 'pieces', text, filter, limit, offset, items.length)) };
      }
      let count = db.selectFrom('pieces').select((eb) => eb.fn.countAll<number>().as('n'));
      let rows = pieces();
      if (text) rows = rows.where(() => sql<SqlBool>`pieces.search_rank in ${text.hits}`);
      if (themeIds) {
        count = count.where('pieces.theme_id', 'in', themeIds);
        rows = rows.where('pieces.theme_id', 'in', themeIds);
      }
      switch (search.order) {
        case 'number':
          rows = rows.orderBy('pieces.number').orderBy('pieces.id');
          break;
        case 'name':
          rows = rows.orderBy('pieces.name').orderBy('pieces.id');
          break;
        case 'year':
          rows = rows.orderBy('pieces.year', (ob) => ob.asc().nullsLast()).orderBy('pieces.id');
          break;
        case 'relevance':
        case 'year-desc':
          rows = rows.orderBy('pieces.year', (ob) => ob.desc().nullsLast()).orderBy('pieces.id', 'desc');
          break;
        case 'parts-desc':
          rows = rows.orderBy('pieces.part_count', 'desc').orderBy('pieces.id', 'desc');
          break;
      }
      if (text) {
        const items = await rows.limit(limit).offset(offset).execute();
        return { items: items.map(toPiece), ...(await countHits(db, 'pieces', text, filter, limit, offset, items.length)) };
      }
      const [{ n }, items] = await Promise.all([count.executeTakeFirstOrThrow(), rows.limit(limit).offset(offset).execute()]);
      return { items: items.map(toPiece), total: Number(n) };
    },

    findPiece: async (ref: string): Promise<PieceSummary | undefined> => {
      const row = await byNumberOrId(
        ref,
        (number) => pieces().where('pieces.number', '=', number).executeTakeFirst(),
        (id) => pieces().where('pieces.id', '=', id).executeTakeFirst(),
      );
      return row && toPiece(row);
    },

    pieceLines: async (pieceId: number): Promise<PieceLine[]> => {
      const rows = await db
        .selectFrom('piece_parts')
        .innerJoin('parts', 'parts.id', 'piece_parts.part_id')
        .leftJoin('part_categories', 'part_categories.id', 'parts.category_id')
        .innerJoin('colours', 'colours.id', 'piece_parts.colour_id')
        .select([
          'parts.id',
          'parts.number',
          'parts.name',
          'parts.material',
          'parts.image_url',
          'parts.category_id',
          'part_categories.name as category_name',
          'colours.id as colour_id',
          'colours.name as colour_name',
          'colours.rgb as colour_rgb',
          'colours.transparent as colour_transparent',
          'piece_parts.quantity',
          'piece_parts.spare',
        ])
        .where('piece_parts.piece_id', '=', pieceId)
        .orderBy('parts.number')
        .orderBy('colours.name')
        .orderBy('piece_parts.spare')
        .execute();
      return rows.map((row) => ({
        part: toPart(row),
        colour: toColour({ id: row.colour_id, name: row.colour_name, rgb: row.colour_rgb, transparent: row.colour_transparent }),
        quantity: row.quantity,
        spare: row.spare === 1,
      }));
    },

    findPart: async (ref: string): Promise<PartListItem | undefined> => {
      const row = await byNumberOrId(
        ref,
        (number) => parts().where('parts.number', '=', number).executeTakeFirst(),
        (id) => parts().where('parts.id', '=', id).executeTakeFirst(),
      );
      return row && toListedPart(row);
    },

    async searchParts(search: PartSearch): Promise<Found<PartListItem>> {
      const { text, categoryId, limit, offset } = search;
      const filter = categoryId !== undefined ? onHitRows<'parts'>()('t.category_id', '=', categoryId) : undefined;
      // The most used first is the ranks' own order; relevance puts a number first, then the same.
      if (text && (search.order === 'relevance' || search.order === 'used-desc')) {
        const page = rankedPage('parts', search.order === 'relevance' ? text : { hits: text.hits }, filter, limit, offset).as('page');
        const items = await parts().innerJoin(page, 'page.id', 'parts.id').orderBy('page.tier').orderBy('page.rank').execute();
        return { items: items.map(toListedPart), ...(await countHits(db, 'parts', text, filter, limit, offset, items.length)) };
      }
      let count = db.selectFrom('parts').select((eb) => eb.fn.countAll<number>().as('n'));
      let rows = parts();
      if (text) rows = rows.where(() => sql<SqlBool>`parts.search_rank in ${text.hits}`);
      if (categoryId !== undefined) {
        count = count.where('parts.category_id', '=', categoryId);
        rows = rows.where('parts.category_id', '=', categoryId);
      }
      switch (search.order) {
        case 'relevance':
        case 'used-desc':
          rows = rows.orderBy('parts.piece_count', 'desc').orderBy('parts.id');
          break;
        case 'number':
          rows = rows.orderBy('parts.number');
          break;
        case 'name':
          rows = rows.orderBy('parts.name').orderBy('parts.id');
          break;
      }
      if (text) {
        const items = await rows.limit(limit).offset(offset).execute();
        return { items: items.map(toListedPart), ...(await countHits(db, 'parts', text, filter, limit, offset, items.length)) };
      }
      const [{ n }, items] = await Promise.all([count.executeTakeFirstOrThrow(), rows.limit(limit).offset(offset).execute()]);
      return { items: items.map(toListedPart), total: Number(n) };
    },

    /** Every part category with the parts in it. */
    partCategories: async (): Promise<PartCategory[]> => {
      const rows = await db
        .selectFrom('part_categories')
        .leftJoin('parts', 'parts.category_id', 'part_categories.id')
        .select(['part_categories.id', 'part_categories.name', (eb) => eb.fn.count<number>('parts.id').as('parts')])
        .groupBy(['part_categories.id', 'part_categories.name'])
        .orderBy('part_categories.name')
        .execute();
      return rows.map((row) => ({ id: row.id, name: row.name, partCount: Number(row.parts) }));
    },

    partColours: async (partId: number): Promise<Colour[]> =>
      (
        await db
          .selectFrom('part_colours')
          .innerJoin('colours', 'colours.id', 'part_colours.colour_id')
          .select(['colours.id', 'colours.name', 'colours.rgb', 'colours.transparent'])
          .where('part_colours.part_id', '=', partId)
          .orderBy('colours.name')
          .execute()
      ).map(toColour),

    /**
     * The pieces a part is used in, most of it first. The page is taken from the where-used index
     * alone and only its rows are joined to their pieces (an offset would otherwise look up every
     * piece it skips: a deep page of a common part cost 10 times more).
     */
    whereUsed: async (partId: number, limit: number, offset: number): Promise<WhereUsed[]> => {
      const page = db
        .selectFrom('part_usage')
        .select(['piece_id', 'quantity', 'spares', 'colours'])
        .where('part_id', '=', partId)
        .orderBy('quantity', 'desc')
        .orderBy('piece_id', 'desc')
        .limit(limit)
        .offset(offset)
        .as('page');
      const rows = await db
        .selectFrom(page)
        .innerJoin('pieces', 'pieces.id', 'page.piece_id')
        .leftJoin('catalogue_themes', 'catalogue_themes.id', 'pieces.theme_id')
        .select([
          'pieces.id',
          'pieces.number',
          'pieces.name',
          'pieces.year',
          'pieces.part_count',
          'pieces.image_url',
          'pieces.theme_id',
          'catalogue_themes.name as theme_name',
          'page.quantity',
          'page.spares',
          'page.colours',
        ])
        .orderBy('page.quantity', 'desc')
        .orderBy('page.piece_id', 'desc')
        .execute();
      return rows.map((row) => ({ piece: toPiece(row), quantity: row.quantity, spares: row.spares, colours: row.colours }));
    },

    /** Every theme with the pieces directly in it. */
    themes: async (): Promise<Category[]> => {
      const rows = await db
        .selectFrom('catalogue_themes')
        .leftJoin('pieces', 'pieces.theme_id', 'catalogue_themes.id')
        .select(['catalogue_themes.id', 'catalogue_themes.name', 'catalogue_themes.parent_id', (eb) => eb.fn.count<number>('pieces.id').as('pieces')])
        .groupBy(['catalogue_themes.id', 'catalogue_themes.name', 'catalogue_themes.parent_id'])
        .orderBy('catalogue_themes.name')
        .execute();
      return rows.map((row) => ({ id: row.id, name: row.name, parentId: row.parent_id, pieceCount: Number(row.pieces) }));
    },
  };
}
export type CatalogueRepository = ReturnType<typeof catalogueRepository>;
