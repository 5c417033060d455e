import { sql, type Kysely } from 'kysely';

/**
 * Kitchen tickets: one row per stall per order, that stall's progress on its lines. The order keeps
 * its own status (the runner's); a ticket's move sets the order's open status from its tickets.
 * Orders placed before this get their tickets from their lines, at the step the order had reached
 * (served counts as ready: the kitchen was done with it).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_tickets')
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    // A stall is deleted only once none of its orders is open; its closed tickets go with it (the lines keep its name).
    .addColumn('stall_id', 'integer', (c) => c.notNull().references('stalls.id').onDelete('cascade'))
    .addColumn('stall_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('received', 'preparing', 'ready')`))
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('preparing_at', 'text')
    .addColumn('ready_at', 'text')
    .addPrimaryKeyConstraint('order_tickets_pk', ['order_id', 'stall_id'])
    .execute();
  // A stall's screen: its tickets, found by stall, then their orders by id.
  await db.schema.createIndex('order_tickets_stall_idx').on('order_tickets').columns(['stall_id', 'order_id']).execute();

  await sql`
    insert into order_tickets (order_id, stall_id, stall_name, status, received_at, preparing_at, ready_at)
    select o.id, l.stall_id, min(l.stall_name),
      case when o.status in ('ready', 'served') then 'ready' when o.status = 'preparing' then 'preparing' else 'received' end,
      o.created_at,
      case when o.status in ('preparing', 'ready', 'served') then o.updated_at end,
      case when o.status in ('ready', 'served') then o.updated_at end
    from order_lines l join orders o on o.id = l.order_id
    where l.stall_id is not null
    group by o.id, l.stall_id, o.status, o.created_at, o.updated_at
  `.execute(db);
}
