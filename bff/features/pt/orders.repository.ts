import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Page } from '../../contracts/common.contract';
import { OPEN_ORDER_STATUSES, ORDER_STATUSES, type Order, type OrderListQuery, type OrderStatus, type OrderTicket, type TicketStatus, type WaitRange } from '../../contracts/pt.contract';
import type { Db } from '../../db/database';
import type { OrderLinesTable, OrdersTable, OrderTicketsTable } from '../../db/schema';
import { keysetPaginate, paginate, type KeysetOrder } from '../../lib/paginate';
import type { StallLoad } from './wait-estimate';

export const OPEN_STATUSES: OrderStatus[] = [...OPEN_ORDER_STATUSES];

const CLOSED_ORDER_STATUSES = ORDER_STATUSES.filter((status) => !(OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(status));

/**
 * One side of the orders, written as its partial index (`orders_open_idx`, `orders_closed_changed_idx`,
 * migrations 015 and 018) is: with the statuses as literals, not parameters, so either engine sees at
 * planning time that the index holds exactly these rows. A list names its side even when it asks for
 * one status: that is what lets it use the side's index.
 */
const statusAmong = (statuses: readonly OrderStatus[], column = 'status') => sql<SqlBool>`${sql.ref(column)} in (${sql.join(statuses.map((status) => sql.lit(status)))})`;
/** "Still open": the board's page is read straight from `orders_open_idx` (no sort of every open order). */
const isOpenOrder = statusAmong(OPEN_ORDER_STATUSES);
const isOpenStatus = (status: OrderStatus) => (OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(status);
const sideOf = (status: OrderStatus) => (isOpenStatus(status) ? isOpenOrder : statusAmong(CLOSED_ORDER_STATUSES));

export interface NewOrder {
  table: number;
  totalCents: number;
  token: string;
  idempotencyKey: string | null;
  requestHash: string;
  wait: WaitRange | null;
  lines: Array<{ itemId: number; stallId: number; stallName: string; name: string; unitPriceCents: number; quantity: number; note: string | null; allergens: string[] }>;
}

/** An order as stored, with what only the server sees (the token, the idempotency key's request). */
export type StoredOrder = Order & { token: string; requestHash: string };

const toTicket = (row: Selectable<OrderTicketsTable>): OrderTicket => ({
  stallId: row.stall_id,
  stallName: row.stall_name,
  status: row.status,
  receivedAt: row.received_at,
  preparingAt: row.preparing_at,
  readyAt: row.ready_at,
});

/** An order's tickets in the order its stalls first appear in its lines (the order the diner chose them). */
const inLineOrder = (tickets: OrderTicket[], lines: Order['lines']) => {
  const firstLine = (stallId: number) => {
    const i = lines.findIndex((line) => line.stallId === stallId);
    return i < 0 ? lines.length : i;
  };
  return [...tickets].sort((a, b) => firstLine(a.stallId) - firstLine(b.stallId) || a.stallId - b.stallId);
};

/** Rows of many orders by their order, in the order read (a page's lines and tickets in one pass, not one scan per order). */
function byOrder<T extends { order_id: number }>(rows: readonly T[]): Map<number, T[]> {
  const byId = new Map<number, T[]>();
  for (const row of rows) {
    const list = byId.get(row.order_id);
    if (list) list.push(row);
    else byId.set(row.order_id, [row]);
  }
  return byId;
}

const toOrder = (row: Selectable<OrdersTable>, lineRows: readonly Selectable<OrderLinesTable>[], ticketRows: readonly Selectable<OrderTicketsTable>[]): StoredOrder => {
  const lines = lineRows.map((line) => ({
    id: line.id,
    itemId: line.item_id,
    stallId: line.stall_id,
    stallName: line.stall_name,
    name: line.name,
    unitPriceCents: line.unit_price_cents,
    quantity: line.quantity,
    note: line.note,
    allergens: JSON.parse(line.allergens) as string[],
    readyAt: line.ready_at,
  }));
  return {
    id: row.id,
    table: row.table_number,
    status: row.status,
    totalCents: row.total_cents,
    lines,
    tickets: inLineOrder(ticketRows.map(toTicket), lines),
    wait: row.wait_low_minutes === null || row.wait_high_minutes === null ? null : { low: row.wait_low_minutes, high: row.wait_high_minutes },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    token: row.token,
    requestHash: row.request_hash,
  };
};

/** The step times a ticket's move writes: the step reached gets its time, a step undone loses its own. */
function ticketTimes(from: TicketStatus, to: TicketStatus, now: string): Partial<Pick<OrderTicketsTable, 'preparing_at' | 'ready_at'>> {
  if (to === 'preparing' && from === 'received') return { preparing_at: now };
  // Straight from received (its only line marked ready): started and done at once.
  if (to === 'ready' && from === 'received') return { preparing_at: now, ready_at: now };
  if (to === 'ready') return { ready_at: now };
  if (from === 'ready') return { ready_at: null };
  return { preparing_at: null };
}

/** A ticket its stall has not made ready yet, written as `order_tickets_not_ready_idx` (migration 024) is. */
const isNotReadyTicket = sql<SqlBool>`${sql.ref('t.status')} <> ${sql.lit('ready')}`;

/**
 * The queue of `stallIds` (or of every stall): each one's tickets not ready, of orders still open.
 * Counted from the open orders (`orders_open_idx`), each one's tickets not ready found by its id
 * (`order_tickets_not_ready_idx`): it costs what the open orders do, however long the history. The
 * CROSS JOIN keeps that order on SQLite whatever its statistics say (it is how SQLite is told which
 * table comes first; without statistics it walked a stall's every ticket instead); to PostgreSQL it
 * is an inner join like any other. Its own function so a test can check its plan.
 */
export const queuesQuery = (db: Db, stallIds?: readonly number[]) => {
  const waiting = db
    .selectFrom('orders as o')
    .crossJoin('order_tickets as t')
    .whereRef('t.order_id', '=', 'o.id')
    .where(statusAmong(OPEN_ORDER_STATUSES, 'o.status'))
    .where(isNotReadyTicket);
  return (stallIds ? waiting.where('t.stall_id', 'in', stallIds) : waiting).select(['t.stall_id', (eb) => eb.fn.countAll<number>().as('waiting')]).groupBy('t.stall_id');
};

/**
 * The preparation times of every stall's tickets made ready since `since` (through
 * `order_tickets_ready_idx`: an hour's throughput, however long the history). Its own function so a
 * test can check its plan.
 */
export const recentTicketsQuery = (db: Db, since: string) => db.selectFrom('order_tickets').select(['stall_id', 'received_at', 'ready_at']).where('ready_at', '>=', since);

/** The orders a list asks for: `open`, or one status within its side. Its own function so a test can check its plan. */
export const matchingOrders = (db: Db, status: OrderListQuery['status']) =>
  status === 'open' ? db.selectFrom('orders').where(isOpenOrder) : db.selectFrom('orders').where(sideOf(status)).where('status', '=', status);

/** The board's page of open orders, oldest first (they leave as they are served: a page of a small set, counted whole). */
export const orderPageQuery = (db: Db, limit: number, offset: number) => matchingOrders(db, 'open').selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc').limit(limit).offset(offset);

/**
 * Served or cancelled orders (they grow with the years), the most recently changed first (what an
 * undo wants): by keyset along `orders_closed_changed_idx (status, updated_at, id)`, counted up to 1,000.
 */
export const CHANGED_ORDER: KeysetOrder = {
  direction: 'desc',
  columns: [
    ['updated_at', 'text'],
    ['id', 'integer'],
  ],
};

/** Orders and their lines; an order is always read and written whole. */
export function ordersRepository(db: Db) {
  const withLines = async (rows: Selectable<OrdersTable>[]): Promise<StoredOrder[]> => {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    // One after the other: inside a transaction both go through its one connection anyway.
    const lines = byOrder(await db.selectFrom('order_lines').selectAll().where('order_id', 'in', ids).orderBy('id').execute());
    const tickets = byOrder(await db.selectFrom('order_tickets').selectAll().where('order_id', 'in', ids).execute());
    return rows.map((row) => toOrder(row, lines.get(row.id) ?? [], tickets.get(row.id) ?? []));
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
          wait_low_minutes: order.wait?.low ?? null,
          wait_high_minutes: order.wait?.high ?? null,
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
            allergens: JSON.stringify(line.allergens),
          })),
        )
        .returning('id')
        .execute();
      const lineIds = lines.map((line) => line.id).sort((x, y) => x - y);
      // One ticket per stall, in the order the stalls first appear in the cart.
      const stalls = [...new Map(order.lines.map((line) => [line.stallId, line.stallName])).entries()];
      const tickets: OrderTicket[] = stalls.map(([stallId, stallName]) => ({ stallId, stallName, status: 'received', receivedAt: now, preparingAt: null, readyAt: null }));
      await db
        .insertInto('order_tickets')
        .values(tickets.map((t) => ({ order_id: id, stall_id: t.stallId, stall_name: t.stallName, status: t.status, received_at: now })))
        .execute();
      return {
        id,
        table: order.table,
        status: 'received',
        totalCents: order.totalCents,
        // Ids are drawn in the order the rows were inserted; RETURNING's own row order is not promised.
        lines: order.lines.map((line, i) => ({ id: lineIds[i]!, ...line, readyAt: null })),
        tickets,
        wait: order.wait,
        createdAt: now,
        updatedAt: now,
        token: order.token,
        requestHash: order.requestHash,
      };
    },

    list: async (query: OrderListQuery): Promise<Page<Order>> => {
      if (query.status === 'open') {
        return paginate<Order>(
          query,
          async () => Number((await matchingOrders(db, 'open').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
          async (limit, offset) => (await withLines(await orderPageQuery(db, limit, offset).execute())).map(publicOrder),
        );
      }
      const status = query.status;
      const page = await keysetPaginate(db, query, { matching: () => matchingOrders(db, status), order: CHANGED_ORDER, select: (q) => q.selectAll(), toItem: (row: Selectable<OrdersTable>) => row });
      return { ...page, items: (await withLines(page.items)).map(publicOrder) };
    },

    /** Orders not yet served or cancelled that have a ticket of this stall, oldest first (a kitchen's screen). */
    openForStall: async (stallId: number) =>
      (
        await withLines(
          await db
            .selectFrom('orders')
            .selectAll()
            .where(isOpenOrder)
            .where('id', 'in', db.selectFrom('order_tickets').select('order_id').where('stall_id', '=', stallId))
            .orderBy('created_at', 'asc')
            .orderBy('id', 'asc')
            .execute(),
        )
      ).map(publicOrder),

    /**
     * What stalls' waits are made of (`stallIds`, or every stall): the preparation times of tickets
     * made ready since `since`, and the queue each stall has now. A stall with neither is absent.
     */
    stallLoads: async (since: string, stallIds?: readonly number[]): Promise<Map<number, StallLoad>> => {
      // One after the other: inside a transaction both go through its one connection anyway.
      const ready = await recentTicketsQuery(db, since).execute();
      const queues = await queuesQuery(db, stallIds).execute();
      const loads = new Map<number, StallLoad>();
      const loadOf = (stallId: number) => loads.get(stallId) ?? loads.set(stallId, { prepMinutes: [], ahead: 0 }).get(stallId)!;
      for (const row of ready) loadOf(row.stall_id).prepMinutes.push((Date.parse(row.ready_at!) - Date.parse(row.received_at)) / 60_000);
      for (const row of queues) loadOf(row.stall_id).ahead = Number(row.waiting);
      return loads;
    },

    /**
     * Inside a transaction, first: holds the order until the transaction ends (PostgreSQL's row lock;
     * SQLite has one writer anyway), so two taps on its lines at once are counted one after the
     * other: the one that finds every line ready makes the ticket ready, exactly once.
     */
    lockOrder: async (id: number) => {
      await db.updateTable('orders').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', id).execute();
    },

    /** Marks a line of a stall's ticket ready (at `readyAt`) or not (null), only if it is not so already (true). */
    markLine: async (orderId: number, stallId: number, lineId: number, readyAt: string | null) =>
      Number(
        (
          await db
            .updateTable('order_lines')
            .set({ ready_at: readyAt })
            .where('id', '=', lineId)
            .where('order_id', '=', orderId)
            .where('stall_id', '=', stallId)
            .where('ready_at', readyAt === null ? 'is not' : 'is', null)
            .executeTakeFirst()
        ).numUpdatedRows,
      ) > 0,

    /**
     * A stall's whole ticket bumped ready: its lines not ready yet are ready `now`. Taken back
     * (`now` null): the lines made ready at `readyAt` (the tap or bump that made the ticket ready) are
     * not ready any more, or every line (`readyAt` null: the ticket went back to new).
     */
    markTicketLines: async (orderId: number, stallId: number, now: string | null, readyAt: string | null = null) => {
      const lines = db.updateTable('order_lines').where('order_id', '=', orderId).where('stall_id', '=', stallId);
      if (now !== null) await lines.set({ ready_at: now }).where('ready_at', 'is', null).execute();
      else if (readyAt !== null) await lines.set({ ready_at: null }).where('ready_at', '=', readyAt).execute();
      else await lines.set({ ready_at: null }).where('ready_at', 'is not', null).execute();
    },

    /** Moves a stall's ticket only if it is still `from` (true), so two screens bumping at once cannot both win. */
    moveTicket: async (orderId: number, stallId: number, from: TicketStatus, to: TicketStatus, now: string) =>
      Number(
        (
          await db
            .updateTable('order_tickets')
            .set({ status: to, ...ticketTimes(from, to, now) })
            .where('order_id', '=', orderId)
            .where('stall_id', '=', stallId)
            .where('status', '=', from)
            .executeTakeFirst()
        ).numUpdatedRows,
      ) > 0,

    /**
     * The runner moved the whole order on (the expo's call): every stall's part that is behind it
     * comes along, stamped now — to preparing, the parts not started; to ready, every part not ready.
     * A stall screen then never shows as new an order the runner has already sent out. Answers the
     * tickets it made ready (their lines are then all ready too), for the preparation figures.
     */
    bringTicketsTo: async (orderId: number, to: 'preparing' | 'ready', now: string): Promise<Array<{ stallId: number; receivedAt: string }>> => {
      const behind = db.updateTable('order_tickets').where('order_id', '=', orderId);
      if (to === 'preparing') {
        await behind.set({ status: 'preparing', preparing_at: now }).where('status', '=', 'received').execute();
        return [];
      }
      const made = await behind
        .set((eb) => ({ status: 'ready', preparing_at: eb.fn.coalesce('preparing_at', eb.val(now)), ready_at: now }))
        .where('status', '!=', 'ready')
        .returning(['stall_id', 'received_at'])
        .execute();
      await db.updateTable('order_lines').set({ ready_at: now }).where('order_id', '=', orderId).where('stall_id', 'is not', null).where('ready_at', 'is', null).execute();
      return made.map((t) => ({ stallId: t.stall_id, receivedAt: t.received_at }));
    },

    /** Moves the order only if it is still `from` (true), so two runners bumping at once cannot both win. */
    moveStatus: async (id: number, from: OrderStatus, to: OrderStatus, now: string) =>
      Number((await db.updateTable('orders').set({ status: to, updated_at: now }).where('id', '=', id).where('status', '=', from).executeTakeFirst()).numUpdatedRows) > 0,
  };
}
export type OrdersRepository = ReturnType<typeof ordersRepository>;

/** What anyone but the server sees of an order. */
export const publicOrder = ({ token: _token, requestHash: _hash, ...order }: StoredOrder): Order => order;
