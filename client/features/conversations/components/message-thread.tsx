import { Fragment, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ConversationMessage } from '@contracts/conversations.contract';
import type { MessageAuthor } from '@contracts/message.contract';
import { Icon } from '@/components/icon';
import { LinkedText } from '@/components/linked-text';
import { dayKey, formatDay, formatTime, formatWhen } from '@/lib/format';
import { useNow } from '@/lib/use-now';

/** How close to the end (px) still counts as "reading the newest": new messages keep it in view. */
const NEAR_BOTTOM_PX = 48;
/** Messages of one author this close together share one name line. */
const SAME_RUN_MS = 5 * 60_000;

/**
 * A conversation's thread, oldest first with a divider for each day. `outgoing` is the side
 * drawn on the right (the reader's side: staff for the front desk, the guest on the help page);
 * `isMine` marks the reader's own messages ("You").
 *
 * While the reader is at the newest message, new ones scroll into view; when they have scrolled
 * back to read, the place is kept and a "N new messages" button jumps to the newest. A message the
 * reader sent always scrolls into view. The log is a polite live region, so a screen reader hears
 * new messages without losing its place.
 */
export function MessageThread({
  messages,
  outgoing,
  isMine,
  label,
}: {
  messages: ConversationMessage[];
  outgoing: MessageAuthor['kind'];
  isMine: (message: ConversationMessage) => boolean;
  label: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const newest = messages.at(-1);
  const newestId = newest?.id ?? 0;
  const [seenUpTo, setSeenUpTo] = useState(newestId);
  const now = useNow(60_000);
  // The latest props for the effect below, which runs only when a newer message arrives.
  const latest = useRef({ newest, isMine, seenUpTo });
  useEffect(() => {
    latest.current = { newest, isMine, seenUpTo };
  });

  const scrollToNewest = () => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
    atBottom.current = true;
  };

  // The first showing goes to the newest message in the next frame, before it paints: read in a
  // layout effect, the thread's height would lay the page out inside the first render's task (the
  // staff chat's thread does the same).
  const shown = useRef(false);
  // A newer message: follow it when the reader was at the end or wrote it; otherwise it waits, counted.
  useLayoutEffect(() => {
    if (!shown.current) {
      const frame = requestAnimationFrame(() => {
        shown.current = true;
        scrollToNewest();
      });
      return () => cancelAnimationFrame(frame);
    }
    const { newest: last, isMine: mine, seenUpTo: seen } = latest.current;
    if (atBottom.current || (last && last.id > seen && mine(last))) {
      scrollToNewest();
      setSeenUpTo(newestId);
    }
  }, [newestId]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM_PX;
    if (atBottom.current && seenUpTo < newestId) setSeenUpTo(newestId);
  };

  const jump = () => {
    scrollToNewest();
    setSeenUpTo(newestId);
    // The button goes away: the keyboard focus moves to the thread it scrolled.
    scroller.current?.focus({ preventScroll: true });
  };

  const unseen = messages.filter((m) => m.id > seenUpTo && !isMine(m)).length;

  return (
    <div className="thread">
      <div ref={scroller} className="thread-scroll" role="log" aria-live="polite" aria-label={label} tabIndex={0} onScroll={onScroll}>
        {messages.length === 0 ? (
          <p className="muted thread-empty">No messages yet.</p>
        ) : (
          <ol className="thread-list">
            {messages.map((message, i) => {
              const before = messages[i - 1];
              const newDay = !before || dayKey(before.createdAt) !== dayKey(message.createdAt);
              const sameRun =
                !newDay &&
                before !== undefined &&
                before.author.kind === message.author.kind &&
                before.author.accountId === message.author.accountId &&
                new Date(message.createdAt).getTime() - new Date(before.createdAt).getTime() < SAME_RUN_MS;
              const side = message.author.kind === outgoing ? 'out' : 'in';
              const name = isMine(message) ? 'You' : message.author.name;
              return (
                <Fragment key={message.id}>
                  {newDay ? (
                    <li className="thread-day">
                      <span>{formatDay(message.createdAt, now)}</span>
                    </li>
                  ) : null}
                  <li className={`msg msg-${side} msg-${message.author.kind}${sameRun ? ' msg-run' : ''}`}>
                    <div className="msg-bubble">
                      <p className={sameRun ? 'visually-hidden' : 'msg-author'}>{name}</p>
                      <LinkedText className="msg-body" text={message.body} />
                      <p className="msg-time">
                        <time dateTime={message.createdAt} title={formatWhen(message.createdAt)}>
                          {formatTime(message.createdAt)}
                        </time>
                      </p>
                    </div>
                  </li>
                </Fragment>
              );
            })}
          </ol>
        )}
      </div>
      {unseen > 0 ? (
        <button type="button" className="btn btn-small btn-primary thread-jump" onClick={jump}>
          <Icon name="arrow" size={16} /> {unseen} new {unseen === 1 ? 'message' : 'messages'}
        </button>
      ) : null}
    </div>
  );
}
