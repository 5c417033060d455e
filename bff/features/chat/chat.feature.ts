import type { Feature, FeatureContext } from '../../feature';
import { sharedCounterStore } from '../../db/shared-limits';
import { chatRepository } from './chat.repository';
import { chatRoutes } from './chat.router';
import { chatSeeder } from './chat.seed';
import { chatService } from './chat.service';

/** `/api/chat`: staff channels, their messages and read positions, announced live. */
export function chatFeature({ config, database, logger, bus, mount }: FeatureContext, options: { messagesPerMinute?: number } = {}): Feature {
  const chat = chatService({
    chat: chatRepository(database.db),
    // The message is stored whatever happens here: a failed announcement is logged, the sender still gets their answer
    // (a 500 would have them send it again); readers catch up when their stream reopens.
    publish: (event, audience) =>
      bus.publish('chat', { ...event, audience }).catch((err: unknown) => logger.error({ err, channelId: event.channelId }, 'chat event could not be announced')),
  });
  const routes = chatRoutes(chat, {
    counterStore: (prefix) => sharedCounterStore(database.db, prefix),
    messagesPerMinute: options.messagesPerMinute ?? config.MESSAGES_PER_MINUTE,
  });
  return { ...mount(routes), seeders: [chatSeeder] };
}
