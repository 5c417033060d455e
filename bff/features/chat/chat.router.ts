import type { Request } from 'express';
import { chatApi } from '../../contracts/chat.contract';
import { ipKeyGenerator } from 'express-rate-limit';
import { route } from '../../lib/endpoint-router';
import { limitRequests, type CounterStoreFor } from '../../lib/rate-limit';
import type { ChatService } from './chat.service';

export interface ChatRouteOptions {
  counterStore: CounterStoreFor;
  /** Messages (and edits) one account may send per minute. */
  messagesPerMinute: number;
}

/** Counted per account: a busy front desk behind one IP must not throttle each other. */
export const senderKey = (req: Request) => (req.user ? `account:${req.user.id}` : `ip:${ipKeyGenerator(req.ip ?? '')}`);

/** `/api/chat`: staff channels, their messages and read positions. */
export function chatRoutes(chat: ChatService, options: ChatRouteOptions) {
  const sendLimiter = limitRequests({
    limit: options.messagesPerMinute,
    windowMs: 60_000,
    store: options.counterStore('message-sender:'),
    keyGenerator: senderKey,
    message: (seconds) => `You are sending messages very fast. Wait ${seconds} seconds and send it again; your text is kept.`,
  });
  // Every chat endpoint is for signed-in accounts: the access guard has set `req.user`.
  return [
    route(chatApi.listChannels, ({ query }, { req }) => chat.listChannels(req.user!, query.archived === 'include')),
    route(chatApi.createChannel, ({ body }, { req }) => chat.createChannel(req.user!, body)),
    route(chatApi.updateChannel, ({ params, body }, { req }) => chat.updateChannel(req.user!, params.id, body)),
    route(chatApi.listMessages, ({ params, query }, { req }) => chat.listMessages(req.user!, params.id, query)),
    route(chatApi.postMessage, ({ params, body }, { req }) => chat.postMessage(req.user!, params.id, body.body), { before: [sendLimiter] }),
    route(chatApi.editMessage, ({ params, body }, { req }) => chat.editMessage(req.user!, params.id, body.body), { before: [sendLimiter] }),
    route(chatApi.deleteMessage, ({ params }, { req }) => chat.deleteMessage(req.user!, params.id)),
    route(chatApi.markRead, ({ params, body }, { req }) => chat.markRead(req.user!, params.id, body.upTo)),
  ];
}
