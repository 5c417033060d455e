import { conversationsApi, type Conversation, type ConversationEvent, type ConversationMessage, type ConversationSummary } from '@contracts/conversations.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { DEFAULT_CONVERSATIONS_SEARCH, conversationRead, type ConversationsSearch } from '@pages/conversations.reads';
import { cachedData, invalidate, setQueryData } from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';
import { write } from '@/lib/endpoint-write';
import { byInstant } from '@/lib/format';
import { setPageParams } from '@pages/search-params';

/**
 * Guest conversations' data layer: the staff list's links, the thread's read, the writes, and how a
 * message or a change (from an answer or a live event) is folded into the cached thread. The reads
 * the pages start with, and their search params, are declared in pages/conversations.reads.ts.
 */

/**
 * The search part of a list URL: only what differs from the defaults, so the plain list is the
 * plain path; a later page with the cursor of the link that led to it. The thread beside the list
 * keeps these (`pathname` is the list's or a thread's).
 */
export function conversationsHref(pathname: string, search: ConversationsSearch): string {
  const params = new URLSearchParams();
  if (search.status !== DEFAULT_CONVERSATIONS_SEARCH.status) params.set('status', search.status);
  if (search.assignee !== DEFAULT_CONVERSATIONS_SEARCH.assignee) params.set('assignee', search.assignee);
  if (search.query) params.set('query', search.query);
  setPageParams(params, search);
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** One conversation with its thread, as the staff thread and the guest's help page read it. */
export const conversationQuery = (id: number) => queryOf(conversationRead(id));
/** The guest's own conversation as Server-Sent Events (the `guest` cookie proves it is theirs). */
export const conversationStreamUrl = (id: number) => urlOf(conversationsApi.stream, { params: { id } });

// ---- folding news into the cached thread -----------------------------------------------------

/** The thread with this message in it, once (an answer and its live event both bring it), oldest first. */
export function withMessage(conversation: Conversation, message: ConversationMessage): Conversation {
  if (message.conversationId !== conversation.id || conversation.messages.some((m) => m.id === message.id)) return conversation;
  const messages = [...conversation.messages, message].sort((a, b) => byInstant(a.createdAt, b.createdAt) || a.id - b.id);
  return { ...conversation, messages };
}

/** The thread with a newer summary's status, assignee and latest message (an older one changes nothing). */
export function withSummary(conversation: Conversation, summary: Omit<ConversationSummary, 'unread'> & { unread?: number }): Conversation {
  if (summary.id !== conversation.id || summary.updatedAt < conversation.updatedAt) return conversation;
  return { ...conversation, ...summary, unread: summary.unread ?? conversation.unread };
}

/**
 * Changes the cached thread (a thread never opened has nothing to correct). One on screen whose first
 * read has not reached the cache yet is read again instead: the answer on its way may be older than the news.
 */
function updateThread(id: number, change: (conversation: Conversation) => Conversation): void {
  const { key } = conversationQuery(id);
  if (cachedData(key) === undefined) void refreshConversation(id);
  else setQueryData(key, (current: Conversation | undefined) => current && change(current));
}

/** A live event (staff stream or the guest's own): the message and the new state go into the thread. */
export function applyConversationEvent(event: ConversationEvent): void {
  updateThread(event.conversation.id, (c) => withSummary(event.message ? withMessage(c, event.message) : c, event.conversation));
}

/** Every page of the staff list reads again (order, previews and badges follow the latest activity). */
export const refreshConversationList = () => invalidate(conversationsApi.list);

/** The thread reads again (after the live stream (re)opened: whatever happened in between). */
export const refreshConversation = (id: number) => invalidate(conversationsApi.get, { params: { id } });

// ---- writes (docs/decisions/0001-one-way-to-write.md) -------------------------------------------

/** A guest's help request; the answer's cookie lets this device read and write it from now on. */
export const startConversation = write(conversationsApi.start);

/**
 * Writes in a conversation (staff or its guest); the message shows at once, the list follows. A
 * staff answer may assign the conversation and a guest's may reopen it: the thread reads its state again.
 */
export const sendMessage = write(conversationsApi.reply, {
  apply: (message) => updateThread(message.conversationId, (c) => withMessage(c, message)),
  stale: ({ params }) => [conversationsApi.list, conversationsApi.waiting, [conversationsApi.get, { params }]],
});

/** Resolve, reopen, assign or unassign (staff). */
export const updateConversation = write(conversationsApi.update, {
  apply: (summary) => updateThread(summary.id, (c) => withSummary(c, summary)),
  stale: [conversationsApi.list, conversationsApi.waiting],
});

/** This staff reader has read the conversation up to its newest message: its unread badge goes. */
export const markConversationRead = write(conversationsApi.markRead, {
  apply: (summary) => updateThread(summary.id, (c) => withSummary(c, summary)),
  stale: [conversationsApi.list, conversationsApi.waiting],
});
