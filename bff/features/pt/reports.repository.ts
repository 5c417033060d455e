import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** Figures as summed: orders placed, how many of them are cancelled, what the others are worth. */
export interface Sums {
  orders: number;
  cancelled: number;
  revenueCents: number;
}

/** A stall's sums: by its id and name now, or (id null) by the name it had when it was deleted; with its tickets made ready and their seconds of preparation. */
export interface StallSums extends Sums {
  stallId: number | null;
  stallName: string;
  prepTickets: number;
  prepSeconds: number;
}

/** One hour of one day for one stall (the CSV's row). */
export interface StallHourSums extends StallSums {
  day: string;
  hour: number;
}

const sums = {
  orders: sql<number>`sum(f.orders)`.as('orders'),
  cancelled: sql<number>`sum(f.cancelled)`.as('cancelled'),
  revenueCents: sql<number>`sum(f.revenue_cents)`.as('revenueCents'),
};

const toSums = (row: Sums): Sums => ({ orders: Number(row.orders), cancelled: Number(row.cancelled), revenueCents: Number(row.revenueCents) });
const prepSums = {
  prepTickets: sql<number>`sum(f.prep_tickets)`.as('prepTickets'),
  prepSeconds: sql<number>`sum(f.prep_seconds)`.as('prepSeconds'),
};

/** A deleted stall is id 0 in the figures and null to the report; a stall still there goes by its name now. */
const toStall = <R extends Sums & { stallId: number; storedName: string; nameNow: string | null; prepTickets: number; prepSeconds: number }>({ stallId, storedName, nameNow, prepTickets, prepSeconds, ...figures }: R): StallSums => ({
  stallId: stallId === 0 ? null : stallId,
  stallName: stallId === 0 ? storedName : (nameNow ?? storedName),
  ...toSums(figures),
  prepTickets: Number(prepTickets),
  prepSeconds: Number(prepSeconds),
});

/**
 * What the food court's reports read: the figures kept by venue hour (migration 030), for the venue
 * days `from`–`to` (both included, at most a month): at most 31 × 24 rows of the hours, and as many
 * per stall, read by their primary keys' day range.
 */
export function reportsRepository(db: Db) {
  const stallHours = (from: string, to: string) =>
    db
      .selectFrom('report_stall_hours as f')
      .leftJoin('stalls as s', (join) => join.onRef('s.id', '=', 'f.stall_id').on('f.stall_id', '<>', 0))
      .where('f.day', '>=', from)
      .where('f.day', '<=', to);

  return {
    /** The days' figures by hour of the day (only the hours that had orders). */
    byHour: async (from: string, to: string): Promise<Array<Sums & { hour: number }>> =>
      (
        await db
          .selectFrom('report_hours as f')
          .select(['f.hour', sums.orders, sums.cancelled, sums.revenueCents])
          .where('f.day', '>=', from)
          .where('f.day', '<=', to)
          .groupBy('f.hour')
          .execute()
      ).map((row) => ({ hour: row.hour, ...toSums(row) })),

    /** The days' figures of each stall that had orders. */
    byStall: async (from: string, to: string): Promise<StallSums[]> =>
      (
        await stallHours(from, to)
          .select(['f.stall_id as stallId', 'f.stall_name as storedName', 's.name as nameNow', sums.orders, sums.cancelled, sums.revenueCents, prepSums.prepTickets, prepSums.prepSeconds])
          .groupBy(['f.stall_id', 'f.stall_name', 's.name'])
          .execute()
      ).map(toStall),

    /** Each day, hour and stall that had orders, by day and hour. */
    byStallHour: async (from: string, to: string): Promise<StallHourSums[]> =>
      (
        await stallHours(from, to)
          .select([
            'f.day',
            'f.hour',
            'f.stall_id as stallId',
            'f.stall_name as storedName',
            's.name as nameNow',
            'f.orders',
            'f.cancelled',
            'f.revenue_cents as revenueCents',
            'f.prep_tickets as prepTickets',
            'f.prep_seconds as prepSeconds',
          ])
          .orderBy('f.day')
          .orderBy('f.hour')
          .execute()
      ).map(({ day, hour, ...stall }) => ({ day, hour, ...toStall(stall) })),
  };
}
export type ReportsRepository = ReturnType<typeof reportsRepository>;
