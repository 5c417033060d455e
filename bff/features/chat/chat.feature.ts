import type { Feature, FeatureContext } from '../../feature';
import { auditIn } from '../../db/audit-trail';
import { chatRepository } from './chat.repository';
import { chatRoutes } from './chat.router';
import { chatSeeder } from './chat.seed';
import { chatService } from './chat.service';

/** `/api/chat`: staff channels, their messages and read positions, announced live. */
export function chatFeature({ config, database, bus, mount, counterStore, counters }: FeatureContext, options: { messagesPerMinute?: number } = {}): Feature {
  const chat = chatService({
    chat: chatRepository(database.db),
    // Each write with the live event that announces it and its audit entry, in one transaction.
    inTransaction: (work) => bus.write((trx, announce) => work({ chat: chatRepository(trx), announce: (event, audience) => announce('chat', { ...event, audience }), audit: auditIn(trx) })),
    counted: counters,
  });
  const routes = chatRoutes(chat, {
    counterStore,
    messagesPerMinute: options.messagesPerMinute ?? config.MESSAGES_PER_MINUTE,
  });
  return { ...mount(routes), seeders: [chatSeeder] };
}
