import type { CSSProperties } from 'react';
import { useLoaderData, useNavigate } from 'react-router';
import { parseChatSearch } from '@pages/chat.reads';
import { LiveConnectionError } from '@/components/live-connection';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { errorMessage } from '@/lib/api-client';
import { useSearch } from '@/lib/search-params';
import { useShellUser } from '@/lib/session';
import { useUnreadTitle } from '@/lib/unread-title';
import { chatHref, selectChannel, useChannels, type ChatPageData } from './chat.api';
import { useChatLive } from './chat-live';
import { ChannelList as ChannelNav } from './components/channel-list';
import { ChatHeader } from './components/chat-header';
import { ChatThread } from './components/chat-thread';
import { SplitHandle, useListWidth } from './components/split-handle';
import './chat.css';

const LIST_ID = 'chat-channel-list';

/**
 * The list and split layouts of /shell/chat: channels beside one thread, the channel in
 * `?channel=<id>` (anything unknown: the first channel). They differ only in the split layout's
 * resizable separator. Their loader is the chat's (`loadChatPage`).
 */
export function ChatWorkspace({ layout, basePath }: { layout: 'list' | 'split'; basePath: string }) {
  const loaded = useLoaderData<ChatPageData>();
  const { channel } = useSearch(parseChatSearch);
  const me = useShellUser();
  const navigate = useNavigate();
  const { data: list, error, isValidating, mutate } = useChannels(loaded.channels);
  const selected = selectChannel(list.channels, channel);
  useChatLive(me.id);
  const [width, setWidth] = useListWidth();
  useUnreadTitle(list.totalUnread);

  const header = (
    <ChatHeader total={list.totalUnread} user={me} channelId={selected?.id} onCreated={(id) => void navigate(chatHref(basePath, id))} />
  );

  return (
    <div className="stack-lg chat-page">
      {header}
      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the channels: {errorMessage(error)}
        </LoadError>
      ) : null}
      <LiveConnectionError />
      {!selected ? (
        <section className="card">
          <EmptyState icon="inbox" title="No channels yet">
            {me.role === 'admin' ? 'Open the first channel with “New channel” above.' : 'An admin opens the channels; none is open to you yet.'}
          </EmptyState>
        </section>
      ) : (
        <div className={`chat-layout chat-layout-${layout}`} style={layout === 'split' ? ({ '--chat-list-width': `${width}px` } as CSSProperties) : undefined}>
          <ChannelNav id={LIST_ID} channels={list.channels} selectedId={selected.id} basePath={basePath} me={me.id} />
          {layout === 'split' ? <SplitHandle width={width} onResize={setWidth} controls={LIST_ID} /> : null}
          <section className="chat-main" aria-labelledby="chat-channel-title">
            <header className="chat-main-head">
              <h2 id="chat-channel-title" className="chat-main-title">
                <span aria-hidden="true" className="chat-hash">
                  #
                </span>
                {selected.name}
              </h2>
              {selected.topic ? <p className="chat-topic muted">{selected.topic}</p> : null}
              {selected.runnersMayJoin ? <span className="badge badge-muted">Runners too</span> : null}
            </header>
            <ChatThread key={selected.id} channel={selected} me={me} fallback={loaded.threadOf === selected.id ? loaded.thread : undefined} />
          </section>
        </div>
      )}
    </div>
  );
}
