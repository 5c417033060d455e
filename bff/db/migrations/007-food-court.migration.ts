import { sql, type Kysely } from 'kysely';
import type { EngineDdl } from '../engine';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>, ddl: EngineDdl): Promise<void> {
  await db.schema
    .createTable('stalls')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('cuisine', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'paused')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stalls_name_idx').on('stalls').columns(['name', 'id']).execute();

  await db.schema
    .createTable('menu_items')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('stall_id', 'integer', (c) => c.notNull().references('stalls.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn('sold_out', 'integer', (c) => c.notNull().defaultTo(0))
    // A JSON array of allergen names: read and written whole, never queried inside.
    .addColumn('allergens', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('menu_items_stall_idx').on('menu_items').columns(['stall_id', 'category', 'name']).execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('table_number', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('received', 'preparing', 'ready', 'served', 'cancelled')`))
    .addColumn('total_cents', 'integer', (c) => c.notNull())
    // The diner's capability to follow this one order; kept readable so a retried submit can answer it again.
    .addColumn('token', 'text', (c) => c.notNull())
    // Unique: a retried submit with the same key finds the first order, even when the two race.
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_status_idx').on('orders').columns(['status', 'created_at', 'id']).execute();
  await db.schema.createIndex('orders_status_changed_idx').on('orders').columns(['status', 'updated_at', 'id']).execute();

  await db.schema
    .createTable('order_lines')
    .addColumn('id', 'integer', ddl.id)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    // The item and stall may be deleted later; the line keeps their name and price as ordered.
    .addColumn('item_id', 'integer', (c) => c.references('menu_items.id').onDelete('set null'))
    .addColumn('stall_id', 'integer', (c) => c.references('stalls.id').onDelete('set null'))
    .addColumn('stall_name', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit_price_cents', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity between 1 and 20`))
    .addColumn('note', 'text')
    .execute();
  await db.schema.createIndex('order_lines_order_idx').on('order_lines').column('order_id').execute();
  await db.schema.createIndex('order_lines_stall_idx').on('order_lines').column('stall_id').execute();
}
