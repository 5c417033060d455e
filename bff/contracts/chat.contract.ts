import * as v from 'valibot';
import { IdParamSchema, NoContentSchema, idNumber, idText, optionalText, requiredText } from './common.contract';
import { endpoint } from './endpoint.contract';
import { MessageAuthorSchema, SendMessageSchema } from './message.contract';

/**
 * Staff chat (`/api/chat`): channels such as Front desk, Kitchen and Managers. Staff and admins
 * see every channel; runners see the channels open to them (the kitchen). Admins create, rename
 * and archive channels. Each reader has a last-read position per channel, from which the unread
 * counts come.
 */

export const ChatMessageSchema = v.object({
  id: v.number(),
  channelId: v.number(),
  author: MessageAuthorSchema,
  /** Empty once deleted (the message stays in the thread as "deleted", so places and cursors hold). */
  body: v.string(),
  createdAt: v.string(),
  editedAt: v.nullable(v.string()),
  deleted: v.boolean(),
});
export type ChatMessage = v.InferOutput<typeof ChatMessageSchema>;

export const ChannelSchema = v.object({
  id: v.number(),
  name: v.string(),
  topic: v.nullable(v.string()),
  /** Runners may read and write here (the kitchen channel). */
  runnersMayJoin: v.boolean(),
  archivedAt: v.nullable(v.string()),
  createdAt: v.string(),
  /**
   * Messages by others after this reader's last-read position (or, before they have one, since
   * their account was made), deleted ones not counted; counted no further than 100 ("99+").
   */
  unread: v.number(),
  lastMessage: v.nullable(ChatMessageSchema),
});
export type Channel = v.InferOutput<typeof ChannelSchema>;

export const ChannelListSchema = v.object({
  channels: v.array(ChannelSchema),
  /** The sum of `unread` over the channels listed that are not archived. */
  totalUnread: v.number(),
});
export type ChannelList = v.InferOutput<typeof ChannelListSchema>;

export const ChannelListQuerySchema = v.object({
  /** `include`: archived channels too (after the active ones). */
  archived: v.optional(v.picklist(['include', 'exclude'], 'Expected include or exclude'), 'exclude'),
});

export const CreateChannelSchema = v.object({
  name: requiredText('Enter the channel’s name', 40),
  topic: optionalText(200),
  runnersMayJoin: v.optional(v.boolean('Expected true or false'), false),
});
export type CreateChannel = v.InferOutput<typeof CreateChannelSchema>;

export const UpdateChannelSchema = v.pipe(
  v.object({
    name: v.optional(requiredText('Enter the channel’s name', 40)),
    topic: optionalText(200),
    runnersMayJoin: v.optional(v.boolean('Expected true or false')),
    archived: v.optional(v.boolean('Expected true or false')),
  }),
  v.check((patch) => Object.values(patch).some((value) => value !== undefined), 'Send at least one of name, topic, runnersMayJoin, archived'),
);
export type UpdateChannel = v.InferOutput<typeof UpdateChannelSchema>;

export const DEFAULT_MESSAGES_LIMIT = 30;
export const MAX_MESSAGES_LIMIT = 100;

export const MessagesQuerySchema = v.object({
  /** Only messages older than this id: the `older` cursor of the previous answer. */
  before: v.optional(idText('Expected a message id')),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, `Expected a limit from 1 to ${MAX_MESSAGES_LIMIT}`),
      v.transform(Number),
      v.minValue(1, `Expected a limit from 1 to ${MAX_MESSAGES_LIMIT}`),
      v.maxValue(MAX_MESSAGES_LIMIT, `Expected a limit from 1 to ${MAX_MESSAGES_LIMIT}`),
    ),
    String(DEFAULT_MESSAGES_LIMIT),
  ),
});
export type MessagesQuery = v.InferOutput<typeof MessagesQuerySchema>;

/** A slice of a thread, newest first; `older` is the cursor for the slice before it, null at the start. */
export const MessageSliceSchema = v.object({
  items: v.array(ChatMessageSchema),
  older: v.nullable(v.number()),
});
export type MessageSlice = v.InferOutput<typeof MessageSliceSchema>;

/** `upTo`: read up to this message (default: the newest). A position never moves back. */
export const MarkReadSchema = v.object({ upTo: v.optional(idNumber('Expected a message id')) });

export const ReadStateSchema = v.object({ channelId: v.number(), lastReadId: v.number(), unread: v.number(), totalUnread: v.number() });
export type ReadState = v.InferOutput<typeof ReadStateSchema>;

export const CreatedChannelSchema = v.object({ id: v.number() });

export const MessageIdParamSchema = IdParamSchema;

/** The `data` of a `chat` live event. Heard only by those who may read the channel. */
export const ChatEventSchema = v.variant('kind', [
  v.object({ kind: v.picklist(['posted', 'edited', 'deleted']), channelId: v.number(), message: ChatMessageSchema }),
  /** A channel was created, renamed or archived: lists refresh. */
  v.object({ kind: v.literal('channel'), channelId: v.number() }),
]);
export type ChatEvent = v.InferOutput<typeof ChatEventSchema>;

const chatters = ['staff', 'runner'] as const;

export const chatApi = {
  listChannels: endpoint({
    method: 'GET',
    path: '/api/chat/channels',
    summary: 'The channels this account may read, by name, each with its unread count and latest message; the total unread',
    access: chatters,
    query: ChannelListQuerySchema,
    response: ChannelListSchema,
  }),
  createChannel: endpoint({ method: 'POST', path: '/api/chat/channels', summary: 'Open a channel (409 when the name is taken)', access: ['admin'], body: CreateChannelSchema, response: CreatedChannelSchema, status: 201, errors: [409] }),
  updateChannel: endpoint({
    method: 'PATCH',
    path: '/api/chat/channels/:id',
    summary: 'Rename a channel, change its topic or who may join, archive or unarchive it',
    access: ['admin'],
    params: IdParamSchema,
    body: UpdateChannelSchema,
    response: ChannelSchema,
    errors: [404, 409],
  }),
  listMessages: endpoint({
    method: 'GET',
    path: '/api/chat/channels/:id/messages',
    summary: "A channel's messages newest first, `limit` at a time; `before` (the previous answer's `older`) pages back",
    access: chatters,
    params: IdParamSchema,
    query: MessagesQuerySchema,
    response: MessageSliceSchema,
    errors: [404],
  }),
  postMessage: endpoint({
    method: 'POST',
    path: '/api/chat/channels/:id/messages',
    summary: 'Send a message (plain text); it goes out live as a `chat` event. 409 in an archived channel',
    access: chatters,
    params: IdParamSchema,
    body: SendMessageSchema,
    response: ChatMessageSchema,
    status: 201,
    errors: [404, 409, 429],
  }),
  editMessage: endpoint({ method: 'PATCH', path: '/api/chat/messages/:id', summary: 'Edit your own message', access: chatters, params: MessageIdParamSchema, body: SendMessageSchema, response: ChatMessageSchema, errors: [404, 409] }),
  deleteMessage: endpoint({
    method: 'DELETE',
    path: '/api/chat/messages/:id',
    summary: 'Delete your own message (admins may delete any); it stays in the thread as deleted. 409 in an archived channel (unarchive it first)',
    access: chatters,
    params: MessageIdParamSchema,
    response: NoContentSchema,
    status: 204,
    errors: [404, 409],
  }),
  markRead: endpoint({
    method: 'POST',
    path: '/api/chat/channels/:id/read',
    summary: 'Mark the channel read up to a message (default: the newest)',
    access: chatters,
    params: IdParamSchema,
    body: MarkReadSchema,
    response: ReadStateSchema,
    errors: [404],
  }),
};
