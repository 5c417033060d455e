import { useEffect, useRef } from 'react';
import * as v from 'valibot';
import { ChatEventSchema } from '@contracts/chat.contract';
import { useLiveEvents, useWhenLiveOpens } from '@/lib/live-events';
import { applyChatEvent, refreshChannels, refreshChat } from './chat.api';

/** After live messages, the channel list is read again once things are quiet for this long (the server's counts win). */
export const LIST_REFRESH_MS = 3000;

/**
 * The chat pages' live events: each `chat` event goes into the caches at once (threads, unread
 * counts); the list is checked against the server a little later. When the stream (re)opens,
 * everything is read again, since events may have been missed while it was down.
 */
export function useChatLive(me: number) {
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const live = useLiveEvents(['chat'], (event) => {
    // The event's `audience` is the server's business; valibot's object leaves it out.
    const parsed = v.safeParse(ChatEventSchema, event.data);
    if (!parsed.success) return;
    applyChatEvent(parsed.output, me);
    if (parsed.output.kind === 'channel') return;
    clearTimeout(refreshTimer.current);
    refreshTimer.current = setTimeout(() => void refreshChannels(), LIST_REFRESH_MS);
  });
  useEffect(() => () => clearTimeout(refreshTimer.current), []);

  useWhenLiveOpens(live.state, () => void refreshChat());
  return live;
}
