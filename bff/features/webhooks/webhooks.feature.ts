import type { Feature, FeatureContext } from '../../feature';
import type { Kisi } from '../../kisi/kisi';
import { kisiEventWrites } from './kisi-event.receive';
import { kisiEventsRepository } from './kisi-events.repository';
import { kisiEventsCatchUp } from './kisi-events.catch-up';
import { kisiWebhookRoute } from './kisi-webhook.router';
import { webhookInboxRoutes } from './webhook-inbox.router';
import { webhookInboxService } from './webhook-inbox.service';

/**
 * Kisi's door events: the signed webhook (`POST /api/webhooks/kisi`), the inbox staff read, and with
 * a Kisi the catch-up from its event log of what arrived while this server was down.
 */
export function webhooksFeature({ config, database, logger, bus, mount }: FeatureContext, { kisi }: { kisi?: Kisi }): Feature {
  const events = kisiEventsRepository(database.db);
  const emailOfKisiUser = kisi ? async (id: number) => (await kisi.client.getUser(id))?.email ?? null : undefined;
  // Each event stored with the live event that announces it, in one transaction.
  const inTransaction = kisiEventWrites(bus);
  const receive = kisiWebhookRoute({ events, secret: kisi?.settings.webhookSecret, emailOfKisiUser, inTransaction, logger });
  const catchUp =
    kisi &&
    kisiEventsCatchUp({
      events,
      readLog: (query, stop) => kisi.client.listEvents(query, stop),
      emailOfKisiUser: emailOfKisiUser!,
      inTransaction,
      logger,
    });
  return {
    ...mount([receive, ...webhookInboxRoutes(webhookInboxService({ events }))]),
    jobs: catchUp ? [{ name: 'Kisi event catch-up', start: () => catchUp.start(config.KISI_CATCH_UP_MINUTES * 60_000), stop: () => catchUp.stop() }] : [],
  };
}
