import { useLoaderData, useNavigate } from 'react-router';
import type { ChannelList } from '@contracts/chat.contract';
import { LiveConnectionError } from '@/components/live-connection';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { errorMessage } from '@/lib/api-client';
import { AppLink } from '@/lib/app-link';
import { cachedData, load, preloadRead } from '@/lib/reads';
import { paths } from '@/lib/paths';
import { useShellUser } from '@/lib/session';
import { useUnreadTitle } from '@/lib/unread-title';
import { channelsQuery, chatHref, loadChatFirstReads, preloadChatPage, threadQuery, useChannels, type Thread } from './chat.api';
import { useChatLive } from './chat-live';
import { ChatHeader } from './components/chat-header';
import { ChatThread } from './components/chat-thread';
import { UnreadCount } from '@/components/unread-count';
import './chat.css';

type Data = { channels: ChannelList; threads: Record<number, Thread | undefined> };

/** `/shell/chat/grid`: every channel at once, each a tile with its latest messages and a small composer. */
export async function loader(): Promise<Data> {
  const { channels } = await loadChatFirstReads();
  // Every tile's thread, known from the list; one that cannot be read says so in itself, the others still show.
  const read = await Promise.all(channels.channels.map((c) => load(threadQuery(c.id)).catch(() => undefined)));
  return { channels, threads: Object.fromEntries(channels.channels.map((c, i) => [c.id, read[i]])) };
}

export const handle = {
  title: 'Chat (grid)',
  preload: (args: Parameters<typeof preloadChatPage>[0]) => {
    preloadChatPage(args);
    const list = cachedData(channelsQuery.key) as ChannelList | undefined;
    for (const channel of list?.channels ?? []) preloadRead(threadQuery(channel.id));
  },
};

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const me = useShellUser();
  const navigate = useNavigate();
  const { data: list, error, isValidating, mutate } = useChannels(loaded.channels);
  useChatLive(me.id);
  useUnreadTitle(list.totalUnread);

  return (
    <div className="stack-lg chat-page">
      <ChatHeader total={list.totalUnread} user={me} onCreated={(id) => void navigate(chatHref(paths.chat, id))} />
      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the channels: {errorMessage(error)}
        </LoadError>
      ) : null}
      <LiveConnectionError />
      {list.channels.length === 0 ? (
        <section className="card">
          <EmptyState icon="inbox" title="No channels yet">
            {me.role === 'admin' ? 'Open the first channel with “New channel” above.' : 'An admin opens the channels; none is open to you yet.'}
          </EmptyState>
        </section>
      ) : (
        <ul className="chat-grid" aria-label="Channels">
          {list.channels.map((channel) => (
            <li key={channel.id}>
              <section className="chat-tile" aria-labelledby={`chat-tile-${channel.id}`}>
                <header className="chat-tile-head">
                  <h2 id={`chat-tile-${channel.id}`} className="chat-tile-title">
                    <span aria-hidden="true" className="chat-hash">
                      #
                    </span>
                    {channel.name}
                  </h2>
                  <UnreadCount count={channel.unread} className="chat-unread" />
                  <AppLink to={chatHref(paths.chat, channel.id)} className="btn btn-small btn-ghost chat-tile-open">
                    Open<span className="visually-hidden"> {channel.name}</span>
                  </AppLink>
                </header>
                {channel.topic ? <p className="chat-tile-topic muted small">{channel.topic}</p> : null}
                <ChatThread channel={channel} me={me} fallback={loaded.threads[channel.id]} compact />
              </section>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
