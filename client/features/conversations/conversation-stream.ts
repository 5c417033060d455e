import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { ConversationEventSchema } from '@contracts/conversations.contract';
import { isApiError } from '@/lib/api-client';
import { RETRY_DELAYS_MS, type LiveState } from '@/lib/live-events';
import { applyConversationEvent, conversationStreamUrl, fetchConversation, conversationKey, refreshConversation } from './conversations.api';

/** The guest's stream names its events as `/api/events` does (`kind` in the data says message or updated). */
const EVENT_NAME = 'conversation';

/**
 * Follows the guest's own conversation through its Server-Sent Events stream
 * (`/api/conversations/:id/stream`, opened by the `guest` cookie): each staff reply and status
 * change goes into the cached thread (a message already there is not added twice). The shared
 * `/api/events` stream is for signed-in staff; a guest has no account, so this one is separate.
 *
 * Every time the stream opens, the thread is read again: a reply sent while it was away is not
 * missed. A refused stream (an HTTP error) is asked about once through the thread itself: a 404
 * means the conversation is gone for this device, anything else is tried again a little later.
 */
export function useConversationStream(id: number): { state: LiveState; gone: boolean } {
  const [state, setState] = useState<LiveState>('connecting');
  const [gone, setGone] = useState(false);

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      setState('closed');
      return;
    }
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;

    const receive = (message: Event) => {
      try {
        const parsed = v.safeParse(ConversationEventSchema, JSON.parse((message as MessageEvent<string>).data));
        if (parsed.success && parsed.output.conversation.id === id) void applyConversationEvent(parsed.output);
      } catch {
        // not JSON (a comment or heartbeat): nothing to show
      }
    };

    const open = () => {
      const current = new EventSource(conversationStreamUrl(id), { withCredentials: true });
      source = current;
      current.onopen = () => {
        failures = 0;
        setState('open');
        void refreshConversation(id);
      };
      current.addEventListener(EVENT_NAME, receive);
      current.onerror = () => {
        if (current.readyState !== EventSource.CLOSED) return setState('reconnecting');
        current.close();
        void refused();
      };
    };

    const refused = async () => {
      try {
        await fetchConversation(conversationKey(id));
      } catch (error) {
        if (stopped) return;
        if (isApiError(error, 404)) {
          setGone(true);
          setState('closed');
          return;
        }
      }
      if (stopped) return;
      if (failures >= RETRY_DELAYS_MS.length) return setState('closed');
      setState('reconnecting');
      timer = setTimeout(open, RETRY_DELAYS_MS[failures++]);
    };

    setGone(false);
    setState('connecting');
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [id]);

  return { state, gone };
}
