import type { ConversationSummary } from '@contracts/conversations.contract';
import { Icon } from '@/components/icon';
import { UnreadCount } from '@/components/unread-count';
import { AppNavLink } from '@/lib/app-link';
import { formatWhen } from '@/lib/format';
import { STATUS_LABELS, formatRelative, guestWhere } from '../conversation-format';

/**
 * One conversation in the staff list: who asked and where, the latest message, how long ago, its
 * unread count, status and assignee. The open one is marked (aria-current) and shows no unread
 * count: it is being read.
 */
export function ConversationRow({ conversation, to, meId, now, active }: { conversation: ConversationSummary; to: string; meId: number; now: number; active: boolean }) {
  const { lastMessage, assignee, unread } = conversation;
  const author = lastMessage ? (lastMessage.author.kind === 'guest' ? '' : lastMessage.author.accountId === meId ? 'You: ' : `${lastMessage.author.name}: `) : '';
  const where = guestWhere(conversation);
  const showUnread = unread > 0 && !active;
  return (
    <li>
      <AppNavLink to={to} className={`conv-row${showUnread ? ' has-unread' : ''}`} preventScrollReset>
        <span className="conv-row-top">
          <span className="conv-row-name">{conversation.guestName}</span>
          <time className="conv-row-time" dateTime={conversation.updatedAt} title={formatWhen(conversation.updatedAt)}>
            {formatRelative(conversation.updatedAt, now)}
          </time>
        </span>
        {where ? <span className="conv-row-where">{where}</span> : null}
        <span className="conv-row-preview">
          {lastMessage ? (
            <>
              {author ? <span className="conv-row-author">{author}</span> : null}
              {lastMessage.body}
            </>
          ) : (
            <span className="muted">No messages</span>
          )}
        </span>
        <span className="conv-row-meta">
          <span className={`badge ${conversation.status === 'open' ? 'badge-accent' : 'badge-muted'}`}>{STATUS_LABELS[conversation.status]}</span>
          <span className="conv-row-assignee">
            <Icon name="user" size={14} />
            {assignee ? (
              <>
                <span className="visually-hidden">Assigned to </span>
                {assignee.id === meId ? 'You' : assignee.name}
              </>
            ) : (
              'Unassigned'
            )}
          </span>
          {showUnread ? <UnreadCount count={unread} className="conv-unread" /> : null}
        </span>
      </AppNavLink>
    </li>
  );
}
