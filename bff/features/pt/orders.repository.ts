import { sql, type Selectable, type SqlBool } from 'kysely';
import { OPEN_ORDER_STATUSES, type Order, type OrderListQuery, type OrderStatus } from '../../contracts/pt.contract';
import type { Db } from '../../db/database';
import type { OrderLinesTable, OrdersTable } from '../../db/schema';
import { paginate } from '../../lib/paginate';

export const OPEN_STATUSES: OrderStatus[] = [...OPEN_ORDER_STATUSES];

/**
 * "Still open", written as the partial index `orders_open_idx` (migration 015) is: with the statuses
 * as literals, not parameters, so either engine sees at planning time that the index holds exactly
 * these rows and reads the board's page straight from it (no sort of every open order).
 */
const isOpenOrder = sql<SqlBool>`status in (${sql.join(OPEN_ORDER_STATUSES.map((status) => sql.lit(status)))})`;

export interface NewOrder {
  table: number;
  totalCents: number;
  token: string;
  idempotencyKey: string | null;
  requestHash: string;
  lines: Array<{ itemId: number; stallId: number; stallName: string; name: string; unitPriceCents: number; quantity: number; note: string | null }>;
}

/** An order as stored, with what only the server sees (the token, the idempotency key's request). */
export type StoredOrder = Order & { token: string; requestHash: string };

const toOrder = (row: Selectable<OrdersTable>, lines: Selectable<OrderLinesTable>[]): StoredOrder => ({
  id: row.id,
  table: row.table_number,
  status: row.status,
  totalCents: row.total_cents,
  lines: lines
    .filter((line) => line.order_id === row.id)
    .map((line) => ({
      id: line.id,
      itemId: line.item_id,
      stallId: line.stall_id,
      stallName: line.stall_name,
      name: line.name,
      unitPriceCents: line.unit_price_cents,
      quantity: line.quantity,
      note: line.note,
    })),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  token: row.token,
  requestHash: row.request_hash,
});

/** Orders and their lines; an order is always read and written whole. */
export function ordersRepository(db: Db) {
  const withLines = async (rows: Selectable<OrdersTable>[]): Promise<StoredOrder[]> => {
    if (rows.length === 0) return [];
    const lines = await db.selectFrom('order_lines').selectAll().where('order_id', 'in', rows.map((r) => r.id)).orderBy('id').execute();
    return rows.map((row) => toOrder(row, lines));
  };
  const one = async (rows: Selectable<OrdersTable>[]) => (await withLines(rows))[0];

  return {
    find: async (id: number) => one(await db.selectFrom('orders').selectAll().where('id', '=', id).execute()),

    findByIdempotencyKey: async (key: string) => one(await db.selectFrom('orders').selectAll().where('idempotency_key', '=', key).execute()),

    /**
     * The order and its lines; answers it as stored. Called inside the transaction that checked the
     * cart, so a crash leaves all of it or none.
     */
    insert: async (order: NewOrder, now: string): Promise<StoredOrder> => {
      const { id } = await db
        .insertInto('orders')
        .values({
          table_number: order.table,
          status: 'received',
          total_cents: order.totalCents,
          token: order.token,
          idempotency_key: order.idempotencyKey,
          request_hash: order.requestHash,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const lines = await db
        .insertInto('order_lines')
        .values(
          order.lines.map((line) => ({
            order_id: id,
            item_id: line.itemId,
            stall_id: line.stallId,
            stall_name: line.stallName,
            name: line.name,
            unit_price_cents: line.unitPriceCents,
            quantity: line.quantity,
            note: line.note,
          })),
        )
        .returning('id')
        .execute();
      const lineIds = lines.map((line) => line.id).sort((x, y) => x - y);
      return {
        id,
        table: order.table,
        status: 'received',
        totalCents: order.totalCents,
        // Ids are drawn in the order the rows were inserted; RETURNING's own row order is not promised.
        lines: order.lines.map((line, i) => ({ id: lineIds[i]!, ...line })),
        createdAt: now,
        updatedAt: now,
        token: order.token,
        requestHash: order.requestHash,
      };
    },

    /**
     * `open`: not yet served, oldest first (the board's order); one status: the most recently
     * changed first (what was just served or cancelled is what an undo wants).
     */
    list: (query: OrderListQuery) => {
      const matching = () => (query.status === 'open' ? db.selectFrom('orders').where(isOpenOrder) : db.selectFrom('orders').where('status', '=', query.status));
      const [column, direction] = query.status === 'open' ? (['created_at', 'asc'] as const) : (['updated_at', 'desc'] as const);
      return paginate<Order>(
        query,
        async () => Number((await matching().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
        async (limit, offset) =>
          (await withLines(await matching().selectAll().orderBy(column, direction).orderBy('id', direction).limit(limit).offset(offset).execute())).map(publicOrder),
      );
    },

    /** Moves the order only if it is still `from` (true), so two runners bumping at once cannot both win. */
    moveStatus: async (id: number, from: OrderStatus, to: OrderStatus, now: string) =>
      Number((await db.updateTable('orders').set({ status: to, updated_at: now }).where('id', '=', id).where('status', '=', from).executeTakeFirst()).numUpdatedRows) > 0,
  };
}
export type OrdersRepository = ReturnType<typeof ordersRepository>;

/** What anyone but the server sees of an order. */
export const publicOrder = ({ token: _token, requestHash: _hash, ...order }: StoredOrder): Order => order;
