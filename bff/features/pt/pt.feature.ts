import type { Feature, FeatureContext } from '../../feature';
import { sharedCounterStore } from '../../db/shared-limits';
import { ordersRepository } from './orders.repository';
import { ptRoutes } from './pt.router';
import { ptSeeder } from './pt.seed';
import { ptService } from './pt.service';
import { stallsRepository } from './stalls.repository';

export interface PtFeatureOptions {
  /** Orders one client may place per minute (default ORDERS_PER_MINUTE; tests lower it to see the limit). */
  ordersPerMinute?: number;
}

/** `/api/pt`: the food court's stalls and menus, the diners' orders and their streams, the runner board. */
export function ptFeature({ config, database, logger, bus, streams, mount }: FeatureContext, options: PtFeatureOptions = {}): Feature {
  const routes = ptRoutes(
    ptService({
      stalls: stallsRepository(database.db, database.transactionLock),
      orders: ordersRepository(database.db),
      inTransaction: (work) => database.db.transaction().execute((trx) => work({ stalls: stallsRepository(trx, database.transactionLock), orders: ordersRepository(trx) })),
      venue: { tables: config.VENUE_TABLES, currency: config.VENUE_CURRENCY },
      // The order is stored whatever happens here: a failed announcement is logged, the diner still gets their 201.
      publish: (order) => bus.publish('order', order).catch((err: unknown) => logger.error({ err, orderId: order.id }, 'order event could not be announced')),
    }),
    {
      counterStore: (prefix) => sharedCounterStore(database.db, prefix),
      ordersPerMinute: options.ordersPerMinute ?? config.ORDERS_PER_MINUTE,
      streams,
    },
  );
  return { ...mount(routes), seeders: [ptSeeder] };
}
