import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { SessionUser } from '@contracts/auth.contract';
import type { Channel, ChatMessage } from '@contracts/chat.contract';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { errorMessage } from '@/lib/api-client';
import { useFollowNewest } from '@/lib/follow-newest';
import { loadOlderMessages, markRead, startReading, useThread, type Thread } from '@/features/chat/chat.api';
import { continuesFrom, countLabel, groupByDay } from '@/features/chat/chat-format';
import { Composer } from './composer';
import { MessageItem } from './message-item';

/** Older messages load once the reader scrolls this close to the top. */
export const LOAD_OLDER_PX = 160;

/**
 * Whether the element is on screen. Not until the browser says so (a tile below the fold is not
 * read on mount); where it cannot tell, a mounted thread is taken as seen.
 */
function useOnScreen(ref: RefObject<HTMLElement | null>): boolean {
  const [onScreen, setOnScreen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setOnScreen(entries.some((e) => e.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return onScreen;
}

/** Whether the page is the visible tab (a thread in a background tab has not been read). */
function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => typeof document === 'undefined' || document.visibilityState === 'visible');
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  return visible;
}

/**
 * A channel's messages and its composer. The log follows new messages only while the reader is at
 * the newest one; scrolled back, a "N new messages" button counts what arrived and jumps there.
 * Scrolling to the top loads older messages and keeps the reader's place. While the newest
 * message is on screen, the channel is marked read.
 */
export function ChatThread({ channel, me, fallback, compact = false }: { channel: Channel; me: SessionUser; fallback?: Thread; compact?: boolean }) {
  const { data: thread, error, isValidating, mutate } = useThread(channel.id, fallback);
  const [olderPending, setOlderPending] = useState(false);
  const [olderError, setOlderError] = useState<string>();
  const olderLoading = useRef(false);
  const mine = useCallback((m: ChatMessage) => m.author.kind === 'staff' && m.author.accountId === me.id, [me.id]);
  const items = useMemo(() => thread?.items ?? [], [thread]);
  const log = useFollowNewest({ entries: items, isMine: mine, counts: (m) => !m.deleted });
  const onScreen = useOnScreen(log.ref);
  const pageVisible = usePageVisible();
  const days = useMemo(() => groupByDay([...items].reverse()), [items]);

  const loadOlder = async () => {
    if (!thread || thread.older === null || olderLoading.current) return;
    olderLoading.current = true;
    setOlderPending(true);
    setOlderError(undefined);
    try {
      await loadOlderMessages(channel.id, thread.older);
    } catch (failure) {
      setOlderError(errorMessage(failure));
    } finally {
      olderLoading.current = false;
      setOlderPending(false);
    }
  };

  const onScroll = () => {
    const el = log.onScroll();
    if (el && el.scrollTop <= LOAD_OLDER_PX && !olderError) void loadOlder();
  };

  // Read while the newest message is in view: news arriving then is not counted as unread.
  const reading = log.atNewest && onScreen && pageVisible && thread !== undefined;
  useEffect(() => (reading ? startReading(channel.id) : undefined), [reading, channel.id]);

  const newestTheirs = items.find((m) => !mine(m) && !m.deleted)?.id ?? 0;
  const readUpTo = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!reading || !newestTheirs) return;
    const known = readUpTo.current;
    // Nothing unread when opened: what is here has been read already; only what arrives later needs saying.
    if (channel.unread === 0 && (known === undefined || newestTheirs <= known)) {
      readUpTo.current = Math.max(known ?? 0, newestTheirs);
      return;
    }
    readUpTo.current = newestTheirs;
    markRead({ params: { id: channel.id }, body: { upTo: newestTheirs } }).catch(() => {
      // Not saved: the count stays, and the next message (or visit) tries again.
      readUpTo.current = known;
    });
  }, [reading, newestTheirs, channel.unread, channel.id]);

  const logLabel = `Messages in ${channel.name}`;

  return (
    <div className={`chat-thread${compact ? ' is-compact' : ''}`}>
      {error ? (
        <LoadError className="chat-thread-error" onRetry={() => void mutate()} retrying={isValidating}>
          Could not read {channel.name}: {errorMessage(error)}
        </LoadError>
      ) : null}
      <div className="chat-log-wrap">
        <div ref={log.ref} className="chat-log" role="log" aria-live="polite" aria-label={logLabel} aria-busy={olderPending || undefined} tabIndex={0} onScroll={onScroll}>
          {!thread ? (
            // A first read that failed says so above (with a retry): it is not loading any more.
            error ? null : (
              <p className="inline-pending chat-loading">
                <span className="spinner" aria-hidden="true" /> Loading messages…
              </p>
            )
          ) : (
            <>
              <div className="chat-log-start">
                {thread.older !== null ? (
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => void loadOlder()} disabled={olderPending} aria-busy={olderPending}>
                    {olderPending ? 'Loading older messages…' : 'Load older messages'}
                  </button>
                ) : items.length ? (
                  <p className="muted small">This is the start of {channel.name}.</p>
                ) : null}
                {olderError ? (
                  <p className="field-error" role="alert">
                    Could not load older messages: {olderError}
                  </p>
                ) : null}
              </div>
              {items.length === 0 ? (
                <div className="chat-empty">
                  <span className="empty-icon" aria-hidden="true">
                    <Icon name="inbox" size={24} />
                  </span>
                  <p>No messages yet — say hello</p>
                </div>
              ) : (
                days.map((group) => (
                  <div key={group.key} className="chat-day">
                    <h3 className="chat-day-label">
                      <span>{group.label}</span>
                    </h3>
                    <ol className="chat-messages">
                      {group.messages.map((message, i) => (
                        <MessageItem key={message.id} message={message} mine={mine(message)} continued={continuesFrom(group.messages[i - 1], message)} mayDelete={me.role === 'admin'} />
                      ))}
                    </ol>
                  </div>
                ))
              )}
            </>
          )}
        </div>
        {log.unseen > 0 ? (
          <button type="button" className="btn btn-primary btn-small chat-jump" onClick={log.jumpToNewest}>
            <Icon name="arrow" size={16} /> {countLabel(log.unseen, 'new message')}
          </button>
        ) : null}
      </div>
      <Composer key={channel.id} channel={channel} compact={compact} />
    </div>
  );
}
