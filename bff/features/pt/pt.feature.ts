import type { Feature, FeatureContext } from '../../feature';
import { auditIn } from '../../db/audit-trail';
import { ordersRepository } from './orders.repository';
import { ptRoutes } from './pt.router';
import { ptSeeder } from './pt.seed';
import { ptService } from './pt.service';
import { reportsRepository } from './reports.repository';
import { reportsRoutes } from './reports.router';
import { reportsService } from './reports.service';
import { stallsRepository } from './stalls.repository';

export interface PtFeatureOptions {
  /** Orders one client may place per minute (default ORDERS_PER_MINUTE; tests lower it to see the limit). */
  ordersPerMinute?: number;
}

/** `/api/pt`: the food court's stalls and menus, the diners' orders and their streams, the runner board, the day's figures. */
export function ptFeature({ config, database, bus, streams, mount, counterStore, counters }: FeatureContext, options: PtFeatureOptions = {}): Feature {
  const routes = ptRoutes(
    ptService({
      stalls: stallsRepository(database.db, database.transactionLock),
      orders: ordersRepository(database.db),
      // Each write with the live event that announces it and its audit entry, in one transaction.
      inTransaction: (work) =>
        bus.write((trx, announce) => work({ stalls: stallsRepository(trx, database.transactionLock), orders: ordersRepository(trx), announce: (order) => announce('order', order), audit: auditIn(trx) })),
      venue: { tables: config.VENUE_TABLES, currency: config.VENUE_CURRENCY },
      counted: counters,
    }),
    {
      counterStore,
      ordersPerMinute: options.ordersPerMinute ?? config.ORDERS_PER_MINUTE,
      streams,
    },
  );
  const reports = reportsRoutes(reportsService({ lines: reportsRepository(database.db), venue: { timeZone: config.VENUE_TIME_ZONE, currency: config.VENUE_CURRENCY } }), config.VENUE_CURRENCY);
  return { ...mount([...routes, ...reports]), seeders: [ptSeeder] };
}
