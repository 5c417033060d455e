import type { Feature, FeatureContext } from '../../feature';
import { conversationsRepository } from './conversations.repository';
import { conversationRoutes } from './conversations.router';
import { conversationsSeeder } from './conversations.seed';
import { conversationsService } from './conversations.service';

export interface ConversationsFeatureOptions {
  /** Messages one sender may write per minute, help requests one client may start per hour (tests lower them). */
  messagesPerMinute?: number;
  helpRequestsPerHour?: number;
}

/** `/api/conversations`: guests' help requests and the front desk's replies, with the guest's own stream. */
export function conversationsFeature({ config, database, bus, streams, mount, counterStore }: FeatureContext, options: ConversationsFeatureOptions = {}): Feature {
  const routes = conversationRoutes(
    conversationsService({
      conversations: conversationsRepository(database.db, database.containsMatch),
      // Each write with the live event that announces it, in one transaction.
      inTransaction: (work) => bus.write((trx, announce) => work({ conversations: conversationsRepository(trx, database.containsMatch), announce: (event) => announce('conversation', event) })),
      venue: { tables: config.VENUE_TABLES },
    }),
    {
      counterStore,
      cookieSecure: config.COOKIE_SECURE,
      helpRequestsPerHour: options.helpRequestsPerHour ?? config.HELP_REQUESTS_PER_HOUR,
      messagesPerMinute: options.messagesPerMinute ?? config.MESSAGES_PER_MINUTE,
      streams,
    },
  );
  return { ...mount(routes), seeders: [conversationsSeeder] };
}
