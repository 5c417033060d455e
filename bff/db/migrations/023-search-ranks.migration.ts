import { sql, type Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

/**
 * A search read best first and stopped at its page (issue 31). Parts and pieces get a `search_rank`
 * (1 = first): parts by how many pieces use them, pieces newest first, the orders a search without a
 * number gives. The text index hands its matches back in that order, so "with" (24,000 of 60,000
 * parts) reads its first page and no more; before, every match was looked up, sorted and counted
 * (8 ms a search). The importer ranks the rows again whenever the counts it ranks by change.
 */
const RANKED = [
  { table: 'parts', order: sql`piece_count desc, id` },
  { table: 'pieces', order: sql`year desc nulls last, id desc` },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  for (const { table, order } of RANKED) {
    await db.schema.alterTable(table).addColumn('search_rank', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update ${sql.table(table)} set search_rank = ranked.rank
      from (select id, row_number() over (order by ${order}) as rank from ${sql.table(table)}) ranked
      where ${sql.ref(`${table}.id`)} = ranked.id`.execute(db);
    await db.schema.createIndex(`${table}_rank_idx`).on(table).column('search_rank').execute();
    await ddl.rankedTextIndex(db, table, 'search_text', 'search_rank');
  }
}
