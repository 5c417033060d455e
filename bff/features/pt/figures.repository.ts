import { sql } from 'kysely';
import type { Order } from '../../contracts/pt.contract';
import { appMetaValue } from '../../db/app-meta';
import type { Database, Db } from '../../db/database';
import type { ReportHoursTable, ReportStallHoursTable } from '../../db/schema';
import { zonedDayAndHour } from '../../lib/time-zone';

/**
 * The food court's figures by venue hour (`report_hours`, `report_stall_hours`, migration 030,
 * decision 0099), kept by the writes that change them, in their own transaction: an order placed,
 * an order cancelled or brought back, a stall's ticket made ready or taken back from ready
 * (its preparation time, migration 040, decision 0108), a stall deleted. The reports add them up.
 */

/** Figures to add to an hour: an order more, one cancelled more (or less), cents more (or less). */
interface Change {
  orders: number;
  cancelled: number;
  revenueCents: number;
}

/** A stall's row: its id (its name `''`), or 0 and the name its lines kept when it has been deleted. */
interface StallKey {
  stallId: number;
  stallName: string;
}

const stallKeyOf = (line: { stallId: number | null; stallName: string }): StallKey => (line.stallId === null ? { stallId: 0, stallName: line.stallName } : { stallId: line.stallId, stallName: '' });

/** An order's lines' revenue by stall: one entry per stall it has lines from. */
function revenueByStall(lines: Order['lines']): Array<StallKey & { revenueCents: number }> {
  const stalls = new Map<string, StallKey & { revenueCents: number }>();
  for (const line of lines) {
    const key = stallKeyOf(line);
    const id = `${key.stallId}:${key.stallName}`;
    const stall = stalls.get(id) ?? stalls.set(id, { ...key, revenueCents: 0 }).get(id)!;
    stall.revenueCents += line.unitPriceCents * line.quantity;
  }
  return [...stalls.values()];
}

type HourRow = ReportHoursTable;
type StallHourRow = ReportStallHoursTable;

const row = (day: string, hour: number, { orders, cancelled, revenueCents }: Change): HourRow => ({ day, hour, orders, cancelled, revenue_cents: revenueCents });
const NO_PREP = { prep_seconds: 0, prep_tickets: 0 };

/** A ticket's preparation in whole seconds, from received to ready. */
export const prepSeconds = (receivedAt: string, readyAt: string) => Math.max(0, Math.round((Date.parse(readyAt) - Date.parse(receivedAt)) / 1000));

/** Adds rows to the figures: new hours and stalls are inserted, known ones added to. Rows must be distinct by key. */
async function addRows(db: Db, hours: readonly HourRow[], stallHours: readonly StallHourRow[]) {
  if (hours.length > 0) {
    await db
      .insertInto('report_hours')
      .values(hours)
      .onConflict((oc) =>
        oc.columns(['day', 'hour']).doUpdateSet((eb) => ({
          orders: eb('report_hours.orders', '+', eb.ref('excluded.orders')),
          cancelled: eb('report_hours.cancelled', '+', eb.ref('excluded.cancelled')),
          revenue_cents: eb('report_hours.revenue_cents', '+', eb.ref('excluded.revenue_cents')),
        })),
      )
      .execute();
  }
  if (stallHours.length > 0) {
    await db
      .insertInto('report_stall_hours')
      .values(stallHours)
      .onConflict((oc) =>
        oc.columns(['day', 'hour', 'stall_id', 'stall_name']).doUpdateSet((eb) => ({
          orders: eb('report_stall_hours.orders', '+', eb.ref('excluded.orders')),
          cancelled: eb('report_stall_hours.cancelled', '+', eb.ref('excluded.cancelled')),
          revenue_cents: eb('report_stall_hours.revenue_cents', '+', eb.ref('excluded.revenue_cents')),
          prep_seconds: eb('report_stall_hours.prep_seconds', '+', eb.ref('excluded.prep_seconds')),
          prep_tickets: eb('report_stall_hours.prep_tickets', '+', eb.ref('excluded.prep_tickets')),
        })),
      )
      .execute();
  }
}

/** What the order writes tell the figures, counted in the venue's zone. */
export function figuresRepository(db: Db, timeZone: string) {
  /** The order's change in its hour (the one it was placed in), to the whole and to each of its stalls. */
  const change = async (order: Pick<Order, 'createdAt' | 'lines'>, ofOrder: (revenueCents: number) => Change) => {
    const { day, hour } = zonedDayAndHour(new Date(order.createdAt), timeZone);
    const stalls = revenueByStall(order.lines);
    const total = stalls.reduce((sum, stall) => sum + stall.revenueCents, 0);
    await addRows(
      db,
      [row(day, hour, ofOrder(total))],
      stalls.map((stall) => ({ ...row(day, hour, ofOrder(stall.revenueCents)), stall_id: stall.stallId, stall_name: stall.stallName, ...NO_PREP })),
    );
  };

  return {
    /** A new order (not cancelled): one order more in its hour, and to each of its stalls, with its lines' revenue. */
    placed: (order: Pick<Order, 'createdAt' | 'lines'>) => change(order, (revenueCents) => ({ orders: 1, cancelled: 0, revenueCents })),

    /** An order cancelled (`true`) or brought back from cancelled (`false`): its revenue leaves (or comes back to) its hour. */
    cancelled: (order: Pick<Order, 'createdAt' | 'lines'>, cancelled: boolean) =>
      change(order, (revenueCents) => (cancelled ? { orders: 0, cancelled: 1, revenueCents: -revenueCents } : { orders: 0, cancelled: -1, revenueCents })),

    /**
     * A stall's ticket made ready (`true`) or taken back from ready (`false`, with the ready time it
     * had): its seconds from received to ready join (or leave) its stall's figures in the hour its
     * order was placed (the ticket is received then).
     */
    prepared: async (ticket: { stallId: number; receivedAt: string; readyAt: string }, ready: boolean) => {
      const { day, hour } = zonedDayAndHour(new Date(ticket.receivedAt), timeZone);
      const sign = ready ? 1 : -1;
      await addRows(db, [], [{ ...row(day, hour, { orders: 0, cancelled: 0, revenueCents: 0 }), stall_id: ticket.stallId, stall_name: '', prep_seconds: sign * prepSeconds(ticket.receivedAt, ticket.readyAt), prep_tickets: sign }]);
    },

    /**
     * A stall deleted (in its delete's transaction): its figures stay, under the name it had (id 0,
     * added to those of an earlier deleted stall of that name), so a later stall given its id (SQLite
     * may reuse the highest) starts from nothing.
     */
    stallDeleted: async (stallId: number, name: string) => {
      await db
        .insertInto('report_stall_hours')
        .columns(['day', 'hour', 'stall_id', 'stall_name', 'orders', 'cancelled', 'revenue_cents', 'prep_seconds', 'prep_tickets'])
        .expression(
          db
            .selectFrom('report_stall_hours')
            .select((eb) => ['day', 'hour', eb.lit(0).as('stall_id'), sql<string>`cast(${name} as text)`.as('stall_name'), 'orders', 'cancelled', 'revenue_cents', 'prep_seconds', 'prep_tickets'])
            .where('stall_id', '=', stallId),
        )
        .onConflict((oc) =>
          oc.columns(['day', 'hour', 'stall_id', 'stall_name']).doUpdateSet((eb) => ({
            orders: eb('report_stall_hours.orders', '+', eb.ref('excluded.orders')),
            cancelled: eb('report_stall_hours.cancelled', '+', eb.ref('excluded.cancelled')),
            revenue_cents: eb('report_stall_hours.revenue_cents', '+', eb.ref('excluded.revenue_cents')),
            prep_seconds: eb('report_stall_hours.prep_seconds', '+', eb.ref('excluded.prep_seconds')),
            prep_tickets: eb('report_stall_hours.prep_tickets', '+', eb.ref('excluded.prep_tickets')),
          })),
        )
        .execute();
      await db.deleteFrom('report_stall_hours').where('stall_id', '=', stallId).execute();
    },
  };
}
export type FiguresRepository = ReturnType<typeof figuresRepository>;

// ---- counted from the orders: the first start after migration 030, a zone changed, a bench's history ----

/** Where `app_meta` keeps the zone the figures are counted in. */
export const FIGURES_ZONE_KEY = 'report_figures_zone';
const BATCH_ORDERS = 10_000;
const INSERT_ROWS = 500;

/**
 * Inside a transaction: order and stall writes wait until it ends (reads go on). PostgreSQL's
 * `share row exclusive` also keeps out another instance counting; SQLite has one writer anyway.
 */
const holdOrderWrites = async (db: Db, engine: Database['engine']) => {
  if (engine === 'postgres') await sql`lock table orders, stalls in share row exclusive mode`.execute(db);
};

/**
 * Counts every figure again from the orders kept, in `timeZone`, and notes that zone; the days
 * before the oldest kept order (purged orders', 0099) keep the figures they had. Inside a
 * transaction (`db`), which it makes order writes wait for. Orders are read 10,000 at a time by id, each one's lines summed by stall in
 * SQL; the hours are found here (`lib/time-zone`, as the writes find them). Two years of a busy venue
 * (500,000 orders) take a few seconds.
 */
export async function countFigures(db: Db, engine: Database['engine'], timeZone: string): Promise<void> {
  await holdOrderWrites(db, engine);
  const hours = new Map<string, HourRow>();
  const stallHours = new Map<string, StallHourRow>();
  const add = <R extends HourRow>(rows: Map<string, R>, key: string, fresh: () => R, cancelled: boolean, revenueCents: number) => {
    const r = rows.get(key) ?? rows.set(key, fresh()).get(key)!;
    r.orders += 1;
    if (cancelled) r.cancelled += 1;
    else r.revenue_cents += revenueCents;
  };
  const addPrep = (at: string, stallId: number, stallName: string, tickets: number, seconds: number) => {
    const { day, hour } = zonedDayAndHour(new Date(at), timeZone);
    const key = `${day} ${hour} ${stallId} ${stallName}`;
    const r = stallHours.get(key) ?? stallHours.set(key, { day, hour, stall_id: stallId, stall_name: stallName, orders: 0, cancelled: 0, revenue_cents: 0, ...NO_PREP }).get(key)!;
    r.prep_tickets += tickets;
    r.prep_seconds += seconds;
  };
  const last = Number((await db.selectFrom('orders').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0);
  for (let after = 0; after < last; after += BATCH_ORDERS) {
    const parts = await db
      .selectFrom('orders as o')
      .innerJoin('order_lines as l', 'l.order_id', 'o.id')
      .select((eb) => [
        'o.id',
        'o.created_at',
        'o.status',
        'l.stall_id',
        sql<string>`case when l.stall_id is null then l.stall_name else '' end`.as('stall_name'),
        eb.fn.sum<number>(sql`l.unit_price_cents * l.quantity`).as('revenue'),
      ])
      .where('o.id', '>', after)
      .where('o.id', '<=', after + BATCH_ORDERS)
      .groupBy(['o.id', 'o.created_at', 'o.status', 'l.stall_id', sql`case when l.stall_id is null then l.stall_name else '' end`])
      .orderBy('o.id')
      .execute();
    let order: { id: number; day: string; hour: number; cancelled: boolean; revenue: number } | undefined;
    const ended = () => order && add(hours, `${order.day} ${order.hour}`, () => ({ day: order!.day, hour: order!.hour, orders: 0, cancelled: 0, revenue_cents: 0 }), order.cancelled, order.revenue);
    for (const part of parts) {
      if (order?.id !== part.id) {
        ended();
        order = { id: part.id, ...zonedDayAndHour(new Date(part.created_at), timeZone), cancelled: part.status === 'cancelled', revenue: 0 };
      }
      const { day, hour, cancelled } = order;
      const key = { stallId: part.stall_id ?? 0, stallName: part.stall_name };
      const revenue = Number(part.revenue);
      order.revenue += revenue;
      add(stallHours, `${day} ${hour} ${key.stallId} ${key.stallName}`, () => ({ day, hour, stall_id: key.stallId, stall_name: key.stallName, orders: 0, cancelled: 0, revenue_cents: 0, ...NO_PREP }), cancelled, revenue);
    }
    ended();
    // The batch's tickets made ready: their preparation, to their stall in their order's hour.
    const ready = await db
      .selectFrom('order_tickets')
      .select(['stall_id', 'received_at', 'ready_at'])
      .where('order_id', '>', after)
      .where('order_id', '<=', after + BATCH_ORDERS)
      .where('ready_at', 'is not', null)
      .execute();
    for (const ticket of ready) addPrep(ticket.received_at, ticket.stall_id, '', 1, prepSeconds(ticket.received_at, ticket.ready_at!));
  }
  // The days of the orders still kept are counted again; older ones are all that is left of purged
  // orders, and stay as they were counted. Two days' margin: no zone moves an order further.
  const oldest = (await db.selectFrom('orders').select((eb) => eb.fn.min('created_at').as('at')).executeTakeFirst())?.at;
  if (oldest) {
    const countedFrom = new Date(Date.parse(`${zonedDayAndHour(new Date(oldest), timeZone).day}T00:00:00Z`) - 2 * 86_400_000).toISOString().slice(0, 10);
    // A deleted stall's tickets went with it (its lines keep its name, and so its revenue): the
    // preparation its figures had is kept as counted, in the hour it was counted in.
    const deletedPrep = await db.selectFrom('report_stall_hours').select(['day', 'hour', 'stall_name', 'prep_seconds', 'prep_tickets']).where('day', '>=', countedFrom).where('stall_id', '=', 0).where('prep_tickets', '<>', 0).execute();
    for (const r of deletedPrep) {
      const key = `${r.day} ${r.hour} 0 ${r.stall_name}`;
      const kept = stallHours.get(key) ?? stallHours.set(key, { day: r.day, hour: r.hour, stall_id: 0, stall_name: r.stall_name, orders: 0, cancelled: 0, revenue_cents: 0, ...NO_PREP }).get(key)!;
      kept.prep_tickets += Number(r.prep_tickets);
      kept.prep_seconds += Number(r.prep_seconds);
    }
    await db.deleteFrom('report_hours').where('day', '>=', countedFrom).execute();
    await db.deleteFrom('report_stall_hours').where('day', '>=', countedFrom).execute();
  }
  const rows = [...hours.values()];
  for (let i = 0; i < rows.length; i += INSERT_ROWS) await db.insertInto('report_hours').values(rows.slice(i, i + INSERT_ROWS)).execute();
  const stallRows = [...stallHours.values()];
  for (let i = 0; i < stallRows.length; i += INSERT_ROWS) await db.insertInto('report_stall_hours').values(stallRows.slice(i, i + INSERT_ROWS)).execute();
  await db
    .insertInto('app_meta')
    .values({ key: FIGURES_ZONE_KEY, value: timeZone })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: timeZone }))
    .execute();
}

/** The zone the figures are counted in; undefined before they ever were (a database from before migration 030). */
export const figuresZone = (db: Db) => appMetaValue(db, FIGURES_ZONE_KEY);

/**
 * Sees that the figures are counted in the venue's zone: at the first start after migration 030 (a
 * migration does not know the zone) and after VENUE_TIME_ZONE changed, counts them from the orders
 * (true); otherwise one read of `app_meta` (false). Checked again inside the counting's transaction,
 * so two instances starting together count once.
 */
export async function keepFiguresInZone(database: Pick<Database, 'db' | 'engine'>, timeZone: string): Promise<boolean> {
  if ((await figuresZone(database.db)) === timeZone) return false;
  return database.db.transaction().execute(async (trx) => {
    await holdOrderWrites(trx, database.engine);
    if ((await figuresZone(trx)) === timeZone) return false;
    await countFigures(trx, database.engine, timeZone);
    return true;
  });
}

/**
 * Counts the figures again from the orders in the venue's zone, for history written straight into
 * the tables (bench/two-years.ts): a server then starts with them counted.
 */
export async function countFiguresAgain(database: Pick<Database, 'db' | 'engine'>, timeZone: string): Promise<void> {
  await database.db.transaction().execute((trx) => countFigures(trx, database.engine, timeZone));
}
