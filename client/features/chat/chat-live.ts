import { useEffect, useRef } from 'react';
import * as v from 'valibot';
import { ChatEventSchema, type ChannelList, type ChatEvent } from '@contracts/chat.contract';
import { cachedData } from '@/lib/reads';
import { useLiveEvents, useWhenLiveOpens } from '@/lib/live-events';
import { useNotify, type Notice } from '@/lib/notify';
import { paths } from '@/lib/paths';
import { applyChatEvent, channelsQuery, chatHref, isReading, refreshChannels, refreshChat } from './chat.api';

/** After live messages, the channel list is read again once things are quiet for this long (the server's counts win). */
export const LIST_REFRESH_MS = 3000;

/**
 * What a live event is worth telling the reader: a message someone else posted, newer than its
 * channel's latest in the list (a replayed event is old news), in a channel listed to this reader
 * and not archived. Nothing while the reader has that thread on screen at its newest message.
 * Read before the event goes into the caches, which would make it the latest.
 */
function noticeOf(event: ChatEvent, me: number): Notice | undefined {
  if (event.kind !== 'posted' || event.message.deleted || event.message.author.accountId === me) return undefined;
  const channel = (cachedData(channelsQuery.key) as ChannelList | undefined)?.channels.find((c) => c.id === event.channelId);
  if (!channel || channel.archivedAt || (channel.lastMessage && channel.lastMessage.id >= event.message.id)) return undefined;
  if (isReading(channel.id) && !document.hidden) return undefined;
  return { title: `${event.message.author.name} in ${channel.name}`, body: event.message.body, tag: `chat-${channel.id}`, url: chatHref(paths.chat, channel.id) };
}

/**
 * The chat pages' live events: each `chat` event goes into the caches at once (threads, unread
 * counts); the list is checked against the server a little later. When the stream opens again,
 * everything is read again, since events may have been missed while it was down. News from others
 * chimes and, in a hidden tab, shows a notification, as far as this device opted in.
 */
export function useChatLive(me: number): void {
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const notify = useNotify();
  useLiveEvents(['chat'], (event) => {
    // The event's `audience` is the server's business; valibot's object leaves it out.
    const parsed = v.safeParse(ChatEventSchema, event.data);
    if (!parsed.success) return;
    const notice = noticeOf(parsed.output, me);
    applyChatEvent(parsed.output, me);
    if (notice) notify(notice);
    if (parsed.output.kind === 'channel') return;
    clearTimeout(refreshTimer.current);
    refreshTimer.current = setTimeout(() => void refreshChannels(), LIST_REFRESH_MS);
  });
  useEffect(() => () => clearTimeout(refreshTimer.current), []);

  useWhenLiveOpens(() => void refreshChat());
}
