import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database';

/** The catalogue's bulk writes, each batch one statement; every one re-runnable (an upsert by its natural key). */

export interface ThemeRow {
  id: number;
  name: string;
  parent_id: number | null;
}
export interface PartCategoryRow {
  id: number;
  name: string;
}
export interface ColourRow {
  id: number;
  name: string;
  rgb: string;
  transparent: number;
}
export interface PartRow {
  number: string;
  name: string;
  category_id: number | null;
  material: string | null;
  search_text: string;
}
export interface PieceRow {
  number: string;
  name: string;
  year: number | null;
  theme_id: number | null;
  part_count: number;
  image_url: string | null;
  search_text: string;
}
export interface InventoryRow {
  id: number;
  piece_number: string;
  version: number;
}
export interface PiecePartRow {
  piece_id: number;
  part_id: number;
  colour_id: number;
  spare: number;
  quantity: number;
}

export function catalogueImportRepository(db: Db) {
  return {
    upsertThemes: (rows: ThemeRow[]) =>
      db
        .insertInto('catalogue_themes')
        .values(rows)
        .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), parent_id: eb.ref('excluded.parent_id') })))
        .execute(),

    upsertPartCategories: (rows: PartCategoryRow[]) =>
      db
        .insertInto('part_categories')
        .values(rows)
        .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })))
        .execute(),

    upsertColours: (rows: ColourRow[]) =>
      db
        .insertInto('colours')
        .values(rows)
        .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), rgb: eb.ref('excluded.rgb'), transparent: eb.ref('excluded.transparent') })))
        .execute(),

    upsertParts: (rows: PartRow[]) =>
      db
        .insertInto('parts')
        .values(rows)
        .onConflict((oc) =>
          oc.column('number').doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            category_id: eb.ref('excluded.category_id'),
            material: eb.ref('excluded.material'),
            search_text: eb.ref('excluded.search_text'),
          })),
        )
        .execute(),

    upsertPieces: (rows: PieceRow[]) =>
      db
        .insertInto('pieces')
        .values(rows)
        .onConflict((oc) =>
          oc.column('number').doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            year: eb.ref('excluded.year'),
            theme_id: eb.ref('excluded.theme_id'),
            part_count: eb.ref('excluded.part_count'),
            image_url: eb.ref('excluded.image_url'),
            search_text: eb.ref('excluded.search_text'),
          })),
        )
        .execute(),

    upsertInventories: (rows: InventoryRow[]) =>
      db
        .insertInto('catalogue_inventories')
        .values(rows)
        .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ piece_number: eb.ref('excluded.piece_number'), version: eb.ref('excluded.version') })))
        .execute(),

    /** Lines of one batch (already summed per key within it); a key seen in an earlier batch adds up. */
    addPieceParts: (rows: PiecePartRow[]) =>
      db
        .insertInto('piece_parts')
        .values(rows)
        .onConflict((oc) => oc.columns(['piece_id', 'part_id', 'colour_id', 'spare']).doUpdateSet({ quantity: sql`piece_parts.quantity + excluded.quantity` }))
        .execute(),

    themeIds: async () => new Set((await db.selectFrom('catalogue_themes').select('id').execute()).map((r) => r.id)),
    partCategoryIds: async () => new Set((await db.selectFrom('part_categories').select('id').execute()).map((r) => r.id)),
    colourIds: async () => new Set((await db.selectFrom('colours').select('id').execute()).map((r) => r.id)),
    partIdsByNumber: async () => new Map((await db.selectFrom('parts').select(['id', 'number']).execute()).map((r) => [r.number, r.id])),
    pieceIdsByNumber: async () => new Map((await db.selectFrom('pieces').select(['id', 'number']).execute()).map((r) => [r.number, r.id])),
    /** Every inventory: its id → its piece's number, and whether it is the newest version of that piece's. */
    inventories: async () => {
      const rows = await db.selectFrom('catalogue_inventories').select(['id', 'piece_number', 'version']).execute();
      const newestVersion = new Map<string, number>();
      for (const row of rows) newestVersion.set(row.piece_number, Math.max(row.version, newestVersion.get(row.piece_number) ?? 0));
      return new Map(rows.map((row) => [row.id, { pieceNumber: row.piece_number, newest: row.version === newestVersion.get(row.piece_number) }]));
    },

    /** The compositions are replaced as a whole by an inventory file. */
    clearPieceParts: () => db.deleteFrom('piece_parts').execute(),

    /** Rebuilds where-used, a part's colours and piece counts from the compositions. */
    async rebuildUsage() {
      await db.deleteFrom('part_usage').execute();
      await db
        .insertInto('part_usage')
        .columns(['part_id', 'piece_id', 'quantity', 'spares', 'colours'])
        .expression((eb) =>
          eb
            .selectFrom('piece_parts')
            .select([
              'part_id',
              'piece_id',
              sql<number>`sum(case when spare = 0 then quantity else 0 end)`.as('quantity'),
              sql<number>`sum(case when spare = 1 then quantity else 0 end)`.as('spares'),
              sql<number>`count(distinct colour_id)`.as('colours'),
            ])
            .groupBy(['part_id', 'piece_id']),
        )
        .execute();
      await db.deleteFrom('part_colours').execute();
      await db
        .insertInto('part_colours')
        .columns(['part_id', 'colour_id'])
        .expression((eb) => eb.selectFrom('piece_parts').select(['part_id', 'colour_id']).distinct())
        .execute();
      await db
        .updateTable('parts')
        .set((eb) => ({ piece_count: eb.selectFrom('part_usage').select((e) => e.fn.countAll<number>().as('n')).whereRef('part_usage.part_id', '=', 'parts.id') }))
        .execute();
    },

    /** Ranks the parts for search: the most used first, the order a search without a number reads them in. */
    rankParts: () => rankForSearch(db, 'parts', sql`piece_count desc, id`),
    /** Ranks the pieces for search: the newest first. */
    rankPieces: () => rankForSearch(db, 'pieces', sql`year desc nulls last, id desc`),

    /** Brings the planner's statistics of the catalogue's tables up to date (the same word on both engines). */
    analyze: async () => {
      for (const table of ['pieces', 'parts', 'piece_parts', 'part_usage', 'part_colours']) await sql`analyze ${sql.table(table)}`.execute(db);
    },

    pieceCount: async () => Number((await db.selectFrom('pieces').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
  };
}
/** Numbers a table's `search_rank` 1, 2, 3… in `order` (the text index is then rebuilt: its rows are keyed by it). */
async function rankForSearch(db: Db, table: 'parts' | 'pieces', order: RawBuilder<unknown>): Promise<void> {
  await sql`update ${sql.table(table)} set search_rank = ranked.rank
    from (select id, row_number() over (order by ${order}) as rank from ${sql.table(table)}) ranked
    where ${sql.ref(`${table}.id`)} = ranked.id`.execute(db);
}
export type CatalogueImportRepository = ReturnType<typeof catalogueImportRepository>;
