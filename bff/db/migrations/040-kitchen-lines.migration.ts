import { sql, type Kysely } from 'kysely';

/**
 * Kitchen tickets bumped dish by dish (issue 52, decision 0108):
 * - `order_lines.ready_at`: when the stall's kitchen marked that line ready (null: not yet). A
 *   ticket is ready once all its lines are; the lines of tickets already ready count as ready then.
 * - `order_lines.allergens`: the dish's allergens (a JSON array of text) as it had them when it was
 *   ordered, what the kitchen's ticket shows; lines already there get their dish's allergens now
 *   (none when the dish is gone).
 * - `report_stall_hours.prep_seconds` and `prep_tickets`: each stall's tickets made ready (counted
 *   in the hour their order was placed) and their seconds from received to ready, kept by the ticket
 *   writes. The zone the figures were counted in is forgotten, so the server's next start counts
 *   every figure again from the orders kept (`keepFiguresInZone`), these with them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_lines').addColumn('ready_at', 'text').execute();
  await db.schema.alterTable('order_lines').addColumn('allergens', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await sql`
    update order_lines set ready_at = (
      select t.ready_at from order_tickets t
      where t.order_id = order_lines.order_id and t.stall_id = order_lines.stall_id and t.status = 'ready'
    )
    where stall_id is not null
  `.execute(db);
  await sql`
    update order_lines set allergens = coalesce((select m.allergens from menu_items m where m.id = order_lines.item_id), '[]')
    where item_id is not null
  `.execute(db);

  await db.schema.alterTable('report_stall_hours').addColumn('prep_seconds', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('report_stall_hours').addColumn('prep_tickets', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`delete from app_meta where key = 'report_figures_zone'`.execute(db);
}
