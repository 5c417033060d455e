import * as v from 'valibot';
import { CURSOR_PAGE_ENTRIES, EmailSchema, IdParamSchema, idNumber, pageOf, requiredText } from './common.contract';
import { endpoint } from './endpoint.contract';
import { MessageAuthorSchema, MessageBodySchema, SendMessageSchema } from './message.contract';

/**
 * Guest conversations (`/api/conversations`): a diner at a table or a gym member at the desk asks
 * for help without an account; the front desk answers. The guest's device holds a token (the
 * `guest` cookie, also in the 201 answer) that opens that guest's own conversations and nothing else.
 */

/** The cookie that carries a guest's token; scoped to the conversation endpoints. */
export const GUEST_COOKIE = 'guest';
export const GUEST_COOKIE_PATH = '/api/conversations';

export const CONVERSATION_STATUSES = ['open', 'resolved'] as const;
export const ConversationStatusSchema = v.picklist(CONVERSATION_STATUSES, 'Expected open or resolved');
export type ConversationStatus = v.InferOutput<typeof ConversationStatusSchema>;

export const ConversationMessageSchema = v.object({
  id: v.number(),
  conversationId: v.number(),
  author: MessageAuthorSchema,
  body: v.string(),
  createdAt: v.string(),
});
export type ConversationMessage = v.InferOutput<typeof ConversationMessageSchema>;

const AssigneeSchema = v.object({ id: v.number(), name: v.string() });

/** A conversation in the staff list: who asked, where, its status and assignee, the latest message. */
export const ConversationSummarySchema = v.object({
  id: v.number(),
  guestName: v.string(),
  table: v.nullable(v.number()),
  email: v.nullable(v.string()),
  status: ConversationStatusSchema,
  assignee: v.nullable(AssigneeSchema),
  lastMessage: v.nullable(ConversationMessageSchema),
  /** Guest messages this staff reader has not read (0 for the guest). */
  unread: v.number(),
  createdAt: v.string(),
  /** The last message or status change. */
  updatedAt: v.string(),
});
export type ConversationSummary = v.InferOutput<typeof ConversationSummarySchema>;
export const ConversationPageSchema = pageOf(ConversationSummarySchema);

/** One conversation with its whole thread, oldest first (help requests are short; the newest 500 at most). */
export const ConversationSchema = v.object({ ...ConversationSummarySchema.entries, messages: v.array(ConversationMessageSchema) });
export type Conversation = v.InferOutput<typeof ConversationSchema>;

const optionalEmail = v.optional(v.union([v.pipe(v.literal(''), v.transform(() => null)), v.null(), EmailSchema], 'Enter an email address such as name@example.com'));
const TABLE_WORDS = 'Enter your table number, such as 4';
const optionalTable = v.optional(v.nullable(v.pipe(v.number(TABLE_WORDS), v.integer(TABLE_WORDS), v.minValue(1, 'Tables are numbered from 1'))));

/** A guest's help request: who they are, where to find them (a table or an email), and what they need. */
export const StartConversationSchema = v.pipe(
  v.object({
    name: requiredText('Enter your name', 60),
    table: optionalTable,
    email: optionalEmail,
    body: MessageBodySchema,
  }),
  v.forward(
    v.check((input) => input.table != null || input.email != null, 'Give your table number or an email address so we can find you'),
    ['table'],
  ),
);
export type StartConversation = v.InferOutput<typeof StartConversationSchema>;

/**
 * A reply, and who writes it: `guest` writes as this device's guest (its cookie) even where a staff
 * session is signed in too (a desk tablet, a demo); `staff` as the signed-in front desk. Without
 * `as`, a staff session writes as staff.
 */
export const REPLY_AUTHORS = ['guest', 'staff'] as const;
export const ReplySchema = v.object({ ...SendMessageSchema.entries, as: v.optional(v.picklist(REPLY_AUTHORS, 'Expected guest or staff')) });
export type ReplyAuthor = (typeof REPLY_AUTHORS)[number];

export const StartedConversationSchema = v.object({ id: v.number(), token: v.string() });

export const CONVERSATION_ASSIGNEE_FILTERS = ['anyone', 'mine', 'unassigned'] as const;

export const ConversationListQuerySchema = v.object({
  ...CURSOR_PAGE_ENTRIES,
  status: v.optional(v.picklist([...CONVERSATION_STATUSES, 'all'], 'Expected open, resolved or all'), 'open'),
  assignee: v.optional(v.picklist(CONVERSATION_ASSIGNEE_FILTERS, 'Expected anyone, mine or unassigned'), 'anyone'),
  /** Searches the guest's name and email and every message. */
  query: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'Search is at most 200 characters'))),
});
export type ConversationListQuery = v.InferOutput<typeof ConversationListQuerySchema>;

export const UpdateConversationSchema = v.pipe(
  v.object({
    status: v.optional(ConversationStatusSchema),
    /** A staff or admin account; null unassigns. */
    assigneeId: v.optional(v.nullable(idNumber('Expected an account id'))),
  }),
  v.check((patch) => Object.values(patch).some((value) => value !== undefined), 'Send status, assigneeId or both'),
);
export type UpdateConversation = v.InferOutput<typeof UpdateConversationSchema>;

/** The `data` of a `conversation` live event (front desk only); a guest's stream gets the same for their own conversation. */
export const ConversationEventSchema = v.object({
  kind: v.picklist(['message', 'updated']),
  conversation: v.omit(ConversationSummarySchema, ['unread']),
  message: v.optional(ConversationMessageSchema),
});
export type ConversationEvent = v.InferOutput<typeof ConversationEventSchema>;

/** What waits for the front desk reader: guest messages in open conversations they have not read. */
export const WaitingSchema = v.object({ unread: v.number() });
export type Waiting = v.InferOutput<typeof WaitingSchema>;

const frontDesk = ['staff'] as const;

export const conversationsApi = {
  start: endpoint({
    method: 'POST',
    path: '/api/conversations',
    summary: "A guest asks for help (no account). Answers the conversation's id and the guest token, also set as the `guest` cookie; a device that has one keeps it",
    access: 'public',
    body: StartConversationSchema,
    response: StartedConversationSchema,
    status: 201,
    errors: [429],
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/conversations',
    summary: 'Conversations by latest activity, by cursor (`next` or `previous`: the answer’s own): `status` (default open), `assignee` (mine, unassigned), `query` searches names, emails and messages; the total stops at 1,000 past the page',
    access: frontDesk,
    query: ConversationListQuerySchema,
    response: ConversationPageSchema,
  }),
  waiting: endpoint({
    method: 'GET',
    path: '/api/conversations/waiting',
    summary: 'Guest messages in open conversations this reader has not read: the count on the front desk’s Guest help tab',
    access: frontDesk,
    response: WaitingSchema,
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/conversations/:id',
    summary: "One conversation with its thread: for the front desk, or for the guest whose token (cookie) opened it; anyone else 404",
    access: 'public',
    params: IdParamSchema,
    response: ConversationSchema,
    errors: [404],
  }),
  stream: endpoint({
    method: 'GET',
    path: '/api/conversations/:id/stream',
    summary: "The guest's view of their conversation as Server-Sent Events: each new message and status change",
    access: 'public',
    params: IdParamSchema,
    response: ConversationEventSchema,
    stream: 'sse',
    errors: [404],
  }),
  reply: endpoint({
    method: 'POST',
    path: '/api/conversations/:id/messages',
    summary:
      'Write in a conversation: the front desk, or its guest (which reopens it when resolved; `as: guest` says so where a staff session is signed in too). An unassigned conversation is assigned to the staff who answers',
    access: 'public',
    params: IdParamSchema,
    body: ReplySchema,
    response: ConversationMessageSchema,
    status: 201,
    errors: [404, 429],
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/conversations/:id',
    summary: 'Resolve or reopen a conversation, assign it (to a staff or admin account) or unassign it',
    access: frontDesk,
    params: IdParamSchema,
    body: UpdateConversationSchema,
    response: ConversationSummarySchema,
    errors: [404, 422],
  }),
  markRead: endpoint({
    method: 'POST',
    path: '/api/conversations/:id/read',
    summary: "Mark a conversation read by this staff reader (up to its newest message)",
    access: frontDesk,
    params: IdParamSchema,
    response: ConversationSummarySchema,
    errors: [404],
  }),
};
