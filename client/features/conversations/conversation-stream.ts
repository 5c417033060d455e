import * as v from 'valibot';
import { ConversationEventSchema } from '@contracts/conversations.contract';
import type { LiveState } from '@/lib/live-events';
import { useResourceStream } from '@/lib/resource-stream';
import { applyConversationEvent, conversationQuery, conversationStreamUrl, refreshConversation } from './conversations.api';

/** The guest's stream names its events as `/api/events` does (`kind` in the data says message or updated). */
const EVENT_NAME = 'conversation';

/**
 * Follows the guest's own conversation through its Server-Sent Events stream
 * (`/api/conversations/:id/stream`, opened by the `guest` cookie): each staff reply and status
 * change goes into the cached thread (a message already there is not added twice). A guest has no
 * account, so this is a resource stream of its own (`useResourceStream`), not the staff's
 * `/api/events`.
 *
 * Every time the stream opens, the thread is read again: a reply sent while it was away is not
 * missed. A refused stream is asked about once through the thread itself: a 404 means the
 * conversation is gone for this device.
 */
export function useConversationStream(id: number): { state: LiveState; gone: boolean } {
  return useResourceStream({
    url: conversationStreamUrl(id),
    eventName: EVENT_NAME,
    withCredentials: true,
    onMessage: (data) => {
      const parsed = v.safeParse(ConversationEventSchema, data);
      if (parsed.success && parsed.output.conversation.id === id) applyConversationEvent(parsed.output);
    },
    onOpen: () => void refreshConversation(id),
    whenRefused: () => {
      const { key, fetcher } = conversationQuery(id);
      return fetcher(key);
    },
  });
}
