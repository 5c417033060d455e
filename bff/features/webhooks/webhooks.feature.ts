import type { Feature, FeatureContext } from '../../feature';
import type { Kisi } from '../../kisi/kisi';
import { ACTOR_EMAIL_SWEEP_MS, kisiActorEmails } from './kisi-actor-emails';
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
  const events = kisiEventsRepository(database.db, database.containsMatch);
  // Each event stored with the live event that announces it, in one transaction.
  const inTransaction = kisiEventWrites(bus);
  // Actor emails within Kisi's 5 requests/s: known ones at once, the rest filled in after (decision 0017).
  const actorEmails = kisi && kisiActorEmails({ events, lookup: async (id, stop) => (await kisi.client.getUser(id, stop))?.email ?? null, inTransaction, logger });
  const emailOfKisiUser = actorEmails?.emailNow;
  const onEmailMissing = actorEmails?.wake;
  const receive = kisiWebhookRoute({ events, secret: kisi?.settings.webhookSecret, emailOfKisiUser, onEmailMissing, inTransaction, logger });
  const catchUp =
    kisi &&
    kisiEventsCatchUp({
      events,
      readLog: (query, stop) => kisi.client.listEvents(query, stop),
      emailOfKisiUser: emailOfKisiUser!,
      onEmailMissing,
      actorEmailSeen: actorEmails?.learn,
      inTransaction,
      logger,
    });
  return {
    ...mount([receive, ...webhookInboxRoutes(webhookInboxService({ events, inTransaction }))]),
    jobs: [
      ...(actorEmails ? [{ name: 'Kisi actor emails', start: () => actorEmails.start(ACTOR_EMAIL_SWEEP_MS), stop: () => actorEmails.stop() }] : []),
      ...(catchUp ? [{ name: 'Kisi event catch-up', start: () => catchUp.start(config.KISI_CATCH_UP_MINUTES * 60_000), stop: () => catchUp.stop() }] : []),
    ],
  };
}
