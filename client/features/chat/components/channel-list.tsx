import type { Channel } from '@contracts/chat.contract';
import { AppLink } from '@/lib/app-link';
import { chatHref } from '@/features/chat/chat.api';
import { formatListTime, previewOf } from '@/features/chat/chat-format';
import { UnreadCount } from '@/components/unread-count';

/**
 * The channels as links (`?channel=<id>` of this layout), each with its unread count and latest
 * message. On a phone the list folds into a row above the thread.
 */
export function ChannelList({ channels, selectedId, basePath, me, id }: { channels: readonly Channel[]; selectedId: number | undefined; basePath: string; me: number; id?: string }) {
  return (
    <nav id={id} className="chat-channels" aria-label="Channels">
      <h2 className="chat-channels-title">Channels</h2>
      <ul className="chat-channel-list">
        {channels.map((channel) => {
          const selected = channel.id === selectedId;
          return (
            <li key={channel.id}>
              <AppLink
                to={chatHref(basePath, channel.id)}
                className={`chat-channel${selected ? ' is-selected' : ''}${channel.unread ? ' has-unread' : ''}`}
                aria-current={selected ? 'page' : undefined}
                preventScrollReset
              >
                <span className="chat-channel-top">
                  <span className="chat-channel-name">
                    <span aria-hidden="true" className="chat-hash">
                      #
                    </span>
                    {channel.name}
                  </span>
                  {channel.lastMessage ? <span className="chat-channel-time muted">{formatListTime(channel.lastMessage.createdAt)}</span> : null}
                  <UnreadCount count={channel.unread} className="chat-unread" />
                </span>
                <span className="chat-channel-preview">{previewOf(channel.lastMessage, me)}</span>
              </AppLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
