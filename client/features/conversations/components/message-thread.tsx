import { Fragment } from 'react';
import type { ConversationMessage } from '@contracts/conversations.contract';
import type { MessageAuthor } from '@contracts/message.contract';
import { Icon } from '@/components/icon';
import { LinkedText } from '@/components/linked-text';
import { useFollowNewest } from '@/lib/follow-newest';
import { dayKey, formatDay, formatTime, formatWhen } from '@/lib/format';
import { useNow } from '@/lib/use-now';

/** Messages of one author this close together share one name line. */
const SAME_RUN_MS = 5 * 60_000;

/**
 * A conversation's thread, oldest first with a divider for each day. `outgoing` is the side
 * drawn on the right (the reader's side: staff for the front desk, the guest on the help page);
 * `isMine` marks the reader's own messages ("You").
 *
 * It follows the newest message while the reader is there (useFollowNewest); scrolled back, a
 * "N new messages" button jumps to the newest. The log is a polite live region, so a screen reader
 * hears new messages without losing its place.
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
  const log = useFollowNewest({ entries: messages, isMine });
  const now = useNow(60_000);

  return (
    <div className="thread">
      <div ref={log.ref} className="thread-scroll" role="log" aria-live="polite" aria-label={label} tabIndex={0} onScroll={log.onScroll}>
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
      {log.unseen > 0 ? (
        <button type="button" className="btn btn-small btn-primary thread-jump" onClick={log.jumpToNewest}>
          <Icon name="arrow" size={16} /> {log.unseen} new {log.unseen === 1 ? 'message' : 'messages'}
        </button>
      ) : null}
    </div>
  );
}
