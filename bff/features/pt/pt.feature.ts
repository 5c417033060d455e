import type { Feature, FeatureContext } from '../../feature';
import { auditIn } from '../../db/audit-trail';
import { periodicJob } from '../../lib/jobs';
import { figuresRepository, keepFiguresInZone } from './figures.repository';
import { ordersRepository } from './orders.repository';
import { ptRoutes } from './pt.router';
import { ptSeeder } from './pt.seed';
import { ptService } from './pt.service';
import { reportsRepository } from './reports.repository';
import { reportsRoutes } from './reports.router';
import { reportsService } from './reports.service';
import { stallsRepository } from './stalls.repository';

const FIGURES_CHECK_MS = 3_600_000;

export interface PtFeatureOptions {
  /** Orders one client may place per minute (default ORDERS_PER_MINUTE; tests lower it to see the limit). */
  ordersPerMinute?: number;
}

/** `/api/pt`: the food court's stalls and menus, the diners' orders and their streams, the runner board, the day's figures. */
export function ptFeature({ config, database, logger, bus, streams, mount, counterStore, counters }: FeatureContext, options: PtFeatureOptions = {}): Feature {
  const routes = ptRoutes(
    ptService({
      stalls: stallsRepository(database.db, database.transactionLock),
      orders: ordersRepository(database.db),
      // Each write with the live event that announces it and its audit entry, in one transaction.
      inTransaction: (work) =>
        bus.write((trx, announce) =>
          work({
            stalls: stallsRepository(trx, database.transactionLock),
            orders: ordersRepository(trx),
            figures: figuresRepository(trx, config.VENUE_TIME_ZONE),
            announce: (order) => announce('order', order),
            announceMenu: (change) => announce('menu', change),
            audit: auditIn(trx),
          }),
        ),
      venue: { tables: config.VENUE_TABLES, currency: config.VENUE_CURRENCY, timeZone: config.VENUE_TIME_ZONE },
      counted: counters,
    }),
    {
      counterStore,
      ordersPerMinute: options.ordersPerMinute ?? config.ORDERS_PER_MINUTE,
      menuStreamsPerAddress: config.MENU_STREAMS_PER_ADDRESS,
      streams,
    },
  );
  const reports = reportsRoutes(reportsService({ figures: reportsRepository(database.db), venue: { timeZone: config.VENUE_TIME_ZONE, currency: config.VENUE_CURRENCY } }), config.VENUE_CURRENCY);
  // The reports' figures are counted from the orders when they were never counted in the venue's zone
  // (the first start after migration 030, VENUE_TIME_ZONE changed); checked again every hour (a restore).
  const figuresInZone = periodicJob('food-court figures in the venue zone', FIGURES_CHECK_MS, () => keepFiguresInZone(database, config.VENUE_TIME_ZONE), logger);
  return { ...mount([...routes, ...reports]), seeders: [ptSeeder], jobs: [figuresInZone] };
}
