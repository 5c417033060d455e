import type { SessionUser } from '../../contracts/auth.contract';
import { chatApi } from '../../contracts/chat.contract';
import { read } from '../../contracts/endpoint.contract';
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
  // The thread a chat page opens: of the channel its address names when listed, else of the first
  // channel (the page's own rule), so the page's HTML can ask for it beside the scripts.
  const openingThread = async (user: SessionUser, search: URLSearchParams) => {
    const { channels } = await chat.listChannels(user, false);
    const wanted = Number(search.get('channel'));
    const opened = channels.find((c) => c.id === wanted) ?? channels[0];
    return opened && read(chatApi.listMessages, { params: { id: opened.id } });
  };
  return { ...mount(routes), seeders: [chatSeeder], dataReads: { chat: openingThread, chatGrid: openingThread, chatFlex: openingThread } };
}
