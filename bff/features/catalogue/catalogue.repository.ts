import { sql, type Expression, type SqlBool } from 'kysely';
import type { Category, Colour, PartCategory, PartListItem, PartSort, PartSummary, PieceLine, PieceSummary, WhereUsed } from '../../contracts/catalogue.contract';
import type { Db } from '../../db/database';

/** The catalogue's reads, as plain objects. */

export type PieceOrder = 'relevance' | 'number' | 'name' | 'year-desc' | 'year' | 'parts-desc';

export interface PieceSearch {
  /** Rows the text index matched (every word, as a word or its start), or none to list all. */
  textMatch?: Expression<SqlBool>;
  /** The query as typed, lower-cased: an exact number match ranks first, then numbers that start with it. */
  exactNumber?: string;
  themeIds?: readonly number[];
  order: PieceOrder;
  limit: number;
  offset: number;
}

export interface PartSearch {
  /** Rows the text index matched (every word, as a word or its start), or none to list all. */
  textMatch?: Expression<SqlBool>;
  /** The query as typed, lower-cased: an exact number match ranks first, then numbers that start with it. */
  exactNumber?: string;
  categoryId?: number;
  order: Exclude<PartSort, 'relevance'> | 'relevance';
  limit: number;
  offset: number;
}

/**
 * Relevance by number: 0 for the number itself (and each of `alsoExact`), 1 for a number that starts
 * with the query, 2 for the rest (found by a word of the name).
 */
const numberRank = (column: string, query: string, alsoExact: string[] = []) => {
  const prefix = `${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const exact = [query, ...alsoExact].map((q) => sql`lower(${sql.ref(column)}) = ${q}`);
  return sql`case when ${sql.join(exact, sql` or `)} then 0 when lower(${sql.ref(column)}) like ${prefix} escape '\\' then 1 else 2 end`;
};

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
    async searchPieces(search: PieceSearch): Promise<{ items: PieceSummary[]; total: number }> {
      let count = db.selectFrom('pieces').select((eb) => eb.fn.countAll<number>().as('n'));
      let rows = pieces();
      if (search.textMatch) {
        const match = search.textMatch;
        count = count.where(() => match);
        rows = rows.where(() => match);
      }
      if (search.themeIds) {
        const themes = search.themeIds;
        count = count.where('pieces.theme_id', 'in', themes);
        rows = rows.where('pieces.theme_id', 'in', themes);
      }
      switch (search.order) {
        case 'relevance':
          if (search.exactNumber !== undefined) {
            // An exact number first (`10270` finds `10270-1` as exact too), then numbers that start with the query, then the rest.
            rows = rows.orderBy(numberRank('pieces.number', search.exactNumber, [`${search.exactNumber}-1`]));
          }
          rows = rows.orderBy('pieces.year', (ob) => ob.desc().nullsLast()).orderBy('pieces.id', 'desc');
          break;
        case 'number':
          rows = rows.orderBy('pieces.number').orderBy('pieces.id');
          break;
        case 'name':
          rows = rows.orderBy('pieces.name').orderBy('pieces.id');
          break;
        case 'year':
          rows = rows.orderBy('pieces.year', (ob) => ob.asc().nullsLast()).orderBy('pieces.id');
          break;
        case 'year-desc':
          rows = rows.orderBy('pieces.year', (ob) => ob.desc().nullsLast()).orderBy('pieces.id', 'desc');
          break;
        case 'parts-desc':
          rows = rows.orderBy('pieces.part_count', 'desc').orderBy('pieces.id', 'desc');
          break;
      }
      const [{ n }, items] = await Promise.all([count.executeTakeFirstOrThrow(), rows.limit(search.limit).offset(search.offset).execute()]);
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

    async searchParts(search: PartSearch): Promise<{ items: PartListItem[]; total: number }> {
      let count = db.selectFrom('parts').select((eb) => eb.fn.countAll<number>().as('n'));
      let rows = parts();
      if (search.textMatch) {
        const match = search.textMatch;
        count = count.where(() => match);
        rows = rows.where(() => match);
      }
      if (search.categoryId !== undefined) {
        count = count.where('parts.category_id', '=', search.categoryId);
        rows = rows.where('parts.category_id', '=', search.categoryId);
      }
      switch (search.order) {
        case 'relevance':
          if (search.exactNumber !== undefined) rows = rows.orderBy(numberRank('parts.number', search.exactNumber));
          rows = rows.orderBy('parts.piece_count', 'desc').orderBy('parts.id');
          break;
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
      const [{ n }, items] = await Promise.all([count.executeTakeFirstOrThrow(), rows.limit(search.limit).offset(search.offset).execute()]);
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
