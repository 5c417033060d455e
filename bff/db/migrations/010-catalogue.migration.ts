import type { Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

/**
 * The parts catalogue in Rebrickable's model: pieces (sets) grouped in categories (themes), parts in
 * part categories, colours, and each piece's lines (part, colour, quantity, spare). Ids of themes,
 * part categories and colours are Rebrickable's own; pieces and parts get ids of ours and keep
 * their numbers (`10270-1`, `3001pr0001`) unique. What the pages ask often is kept ready by the
 * importer: a part's where-used rows and colours, and the count of pieces it is in. Booleans are 0/1.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await db.schema
    .createTable('catalogue_themes')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'integer')
    .execute();

  await db.schema
    .createTable('part_categories')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('colours')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('rgb', 'text', (c) => c.notNull())
    .addColumn('transparent', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('parts')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category_id', 'integer')
    .addColumn('material', 'text')
    .addColumn('image_url', 'text')
    .addColumn('piece_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('pieces')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('year', 'integer')
    .addColumn('theme_id', 'integer')
    .addColumn('part_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('image_url', 'text')
    // The number's and the name's words, for the full-text index (`10270-1 Bookshop` → `10270 1 Bookshop`).
    .addColumn('search_text', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pieces_year_idx').on('pieces').columns(['year', 'id']).execute();
  await db.schema.createIndex('pieces_name_idx').on('pieces').columns(['name', 'id']).execute();
  await db.schema.createIndex('pieces_theme_idx').on('pieces').columns(['theme_id', 'year', 'id']).execute();
  await db.schema.createIndex('pieces_part_count_idx').on('pieces').columns(['part_count', 'id']).execute();
  await ddl.textIndex(db, 'pieces', 'search_text');

  // Rebrickable's inventories: one piece may have several versions; the newest is the piece's composition.
  await db.schema
    .createTable('catalogue_inventories')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('piece_number', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('piece_parts')
    .addColumn('piece_id', 'integer', (c) => c.notNull().references('pieces.id').onDelete('cascade'))
    .addColumn('part_id', 'integer', (c) => c.notNull().references('parts.id').onDelete('cascade'))
    .addColumn('colour_id', 'integer', (c) => c.notNull())
    .addColumn('spare', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('piece_parts_pk', ['piece_id', 'part_id', 'colour_id', 'spare'])
    .execute();

  // Where-used, kept by the importer: one row per part and piece (every colour and spares summed), in the list's order.
  await db.schema
    .createTable('part_usage')
    .addColumn('part_id', 'integer', (c) => c.notNull())
    .addColumn('piece_id', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('spares', 'integer', (c) => c.notNull())
    .addColumn('colours', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('part_usage_pk', ['part_id', 'piece_id'])
    .execute();
  await db.schema.createIndex('part_usage_order_idx').on('part_usage').columns(['part_id', 'quantity', 'piece_id']).execute();

  await db.schema
    .createTable('part_colours')
    .addColumn('part_id', 'integer', (c) => c.notNull())
    .addColumn('colour_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('part_colours_pk', ['part_id', 'colour_id'])
    .execute();
}
