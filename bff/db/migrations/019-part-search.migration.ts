import { sql, type Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

/**
 * Parts are found by number and name words as pieces are (issue 31): the same kind of text column
 * and index. Rows already imported get their number and name (the text index splits them into
 * words itself); the importer writes it from then on. The parts list's orders: most used first,
 * by name, and within a part category (by number: the unique index on `number` serves it).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await db.schema.alterTable('parts').addColumn('search_text', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.updateTable('parts').set({ search_text: sql`lower(number || ' ' || name)` }).execute();
  await ddl.textIndex(db, 'parts', 'search_text');
  await db.schema.createIndex('parts_used_idx').on('parts').columns(['piece_count', 'id']).execute();
  await db.schema.createIndex('parts_name_idx').on('parts').columns(['name', 'id']).execute();
  await db.schema.createIndex('parts_category_idx').on('parts').columns(['category_id', 'piece_count', 'id']).execute();
}
