import crypto from 'node:crypto';
import type { CookieOptions, Request } from 'express';
import { conversationsApi, GUEST_COOKIE, GUEST_COOKIE_PATH, type ConversationEvent, type ReplyAuthor } from '../../contracts/conversations.contract';
import { readCookie } from '../../lib/auth.middleware';
import { ipKeyGenerator } from 'express-rate-limit';
import { route } from '../../lib/endpoint-router';
import { limitRequests, type CounterStoreFor } from '../../lib/rate-limit';
import type { EventStreams } from '../../lib/event-stream';
import type { ConversationsService, Viewer } from './conversations.service';

export interface ConversationRouteOptions {
  counterStore: CounterStoreFor;
  cookieSecure: boolean;
  /** Help requests one client (IP) may start per hour. */
  helpRequestsPerHour: number;
  /** Messages one sender (account, or guest device) may write per minute. */
  messagesPerMinute: number;
  /** The app's event streams (a guest's stream picks out their conversation). */
  streams: EventStreams;
}

/** A guest's device keeps its token this long after its last help request. */
const GUEST_COOKIE_MAX_AGE_MS = 30 * 24 * 3_600_000;
const MAX_STREAMS_PER_CONVERSATION = 5;
const MAX_BACKLOG_BYTES = 64_000;

const guestTokenOf = (req: Request) => readCookie(req.headers.cookie, GUEST_COOKIE);

/**
 * The front desk by its session (staff and admins), else the guest device by its cookie; `as` picks
 * one of the two where a browser holds both.
 */
export function viewerOf(req: Request, as?: ReplyAuthor): Viewer {
  const staff = req.user && req.user.role !== 'runner' ? req.user : undefined;
  const token = guestTokenOf(req);
  if (staff && as !== 'guest') return { kind: 'staff', user: staff };
  if (token && as !== 'staff') return { kind: 'guest', token };
  return { kind: 'nobody' };
}

/** Who a send counts against: the account, the guest device, or the IP. */
const senderKey = (req: Request) => {
  const viewer = viewerOf(req);
  if (viewer.kind === 'staff') return `account:${viewer.user.id}`;
  if (viewer.kind === 'guest') return `guest:${crypto.createHash('sha256').update(viewer.token).digest('hex').slice(0, 32)}`;
  return `ip:${ipKeyGenerator(req.ip ?? '')}`;
};

/** `/api/conversations`: guests ask for help, the front desk answers. */
export function conversationRoutes(conversations: ConversationsService, options: ConversationRouteOptions) {
  const cookieOptions = (req: Request): CookieOptions => ({
    httpOnly: true,
    sameSite: 'lax',
    secure: options.cookieSecure || req.secure,
    path: GUEST_COOKIE_PATH,
    maxAge: GUEST_COOKIE_MAX_AGE_MS,
  });
  const startLimiter = limitRequests({
    limit: options.helpRequestsPerHour,
    windowMs: 3_600_000,
    store: options.counterStore('help-ip:'),
    message: (seconds) => `Too many help requests from this device. Please ask at the front desk, or try again in ${Math.ceil(seconds / 60)} minute(s).`,
  });
  const replyLimiter = limitRequests({
    limit: options.messagesPerMinute,
    windowMs: 60_000,
    store: options.counterStore('conversation-sender:'),
    keyGenerator: senderKey,
    message: (seconds) => `You are sending messages very fast. Wait ${seconds} seconds and send it again; your text is kept.`,
  });
  return [
    route(
      conversationsApi.start,
      async ({ body }, { req, res }) => {
        const started = await conversations.start(body, guestTokenOf(req));
        res.cookie(GUEST_COOKIE, started.token, cookieOptions(req));
        return started;
      },
      { before: [startLimiter] },
    ),
    // Staff only (the access guard): the session's account.
    route(conversationsApi.list, ({ query }, { req }) => conversations.list(req.user!, query)),
    // Before `/:id`, which would take "waiting" for an id.
    route(conversationsApi.waiting, (_input, { req }) => conversations.waiting(req.user!)),
    route(conversationsApi.get, ({ params }, { req }) => conversations.get(viewerOf(req), params.id)),
    route(conversationsApi.reply, ({ params, body }, { req }) => conversations.reply(viewerOf(req, body.as), params.id, body.body), { before: [replyLimiter] }),
    route(conversationsApi.update, ({ params, body }, { req }) => conversations.update(req.user!, params.id, body)),
    route(conversationsApi.markRead, ({ params }, { req }) => conversations.markRead(req.user!, params.id)),
    route(conversationsApi.stream, async ({ params }, { req, res }) => {
      const viewer = viewerOf(req);
      // Checked before the stream opens, so someone else's id is a plain 404.
      await conversations.assertMayRead(viewer, params.id);
      return options.streams.stream(req, res, {
        pick: (event) => {
          if (event.type !== 'conversation') return undefined;
          const { audience: _audience, ...data } = event.data as ConversationEvent & { audience?: unknown };
          return data.conversation.id === params.id ? { type: 'conversation', data } : undefined;
        },
        // The front desk following a guest's conversation stops hearing it when they sign out.
        session: viewer.kind === 'staff' ? req.sessionToken : undefined,
        // A few devices per conversation; the oldest gives way.
        group: { key: `conversation:${params.id}`, max: MAX_STREAMS_PER_CONVERSATION },
        maxBacklogBytes: MAX_BACKLOG_BYTES,
      });
    }),
  ];
}
