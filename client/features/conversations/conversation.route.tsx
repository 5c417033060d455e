import { useEffect, useRef } from 'react';
import { useLoaderData, useLocation, useParams } from 'react-router';
import type { SessionUser } from '@contracts/auth.contract';
import type { Conversation, ConversationMessage, UpdateConversation } from '@contracts/conversations.contract';
import { conversationThreadReads } from '@pages/conversations.reads';
import { AsyncButton } from '@/components/async-button';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { useToast } from '@/components/toast-host';
import { AppLink } from '@/lib/app-link';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useRead } from '@/lib/reads';
import { routeReads } from '@/lib/route-reads';
import { formatWhen } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useShellUser } from '@/lib/session';
import { MessageThread } from './components/message-thread';
import { ReplyComposer } from './components/reply-composer';
import { STATUS_LABELS, guestWhere } from './conversation-format';
import { conversationQuery, markConversationRead, sendMessage, updateConversation } from './conversations.api';

/** `/shell/nuhs/basic/:conversationId`: one thread beside the list (a malformed id is a 404 before any request). */
const reads = routeReads(conversationThreadReads);
export const { loader } = reads;
export const handle = { title: 'Conversation', ...reads.handle };

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const { conversationId } = useParams();
  const me = useShellUser();
  // The whole answer, not only its data: a thread gone or unreadable since says so above it.
  const query = useRead(conversationQuery(Number(conversationId)), loaded.conversation);
  const conversation = query.data;
  const { search } = useLocation();
  return (
    <div className="conv-thread">
      {/* On a phone the list is above, a long way up: the way back (with the same filters). */}
      <AppLink to={paths.conversations + search} className="back-link conv-back">
        <span aria-hidden="true">←</span> All conversations
      </AppLink>
      {query.error ? (
        <LoadError onRetry={() => void query.mutate()} retrying={query.isValidating}>
          {isApiError(query.error, 404) ? 'This conversation is gone.' : `Could not refresh the conversation: ${errorMessage(query.error)}`}
        </LoadError>
      ) : null}
      {/* A fresh thread state (scroll place, read marks) for each conversation. */}
      <StaffThread key={conversation.id} conversation={conversation} me={me} />
    </div>
  );
}

const newestGuestId = (messages: ConversationMessage[]) => messages.findLast((m) => m.author.kind === 'guest')?.id ?? 0;

/**
 * Marks the conversation read for this staff reader when it opens with unread guest messages, and
 * again whenever a newer guest message arrives while it is open (the list's badge goes with it).
 */
function useMarkRead(conversation: Conversation) {
  const newest = newestGuestId(conversation.messages);
  const markedUpTo = useRef<number | undefined>(undefined);
  const { id, unread } = conversation;
  useEffect(() => {
    const before = markedUpTo.current;
    if (before !== undefined && newest <= before) return;
    markedUpTo.current = newest;
    if (before === undefined && unread === 0) return;
    // A failed mark only leaves the badge up; the next guest message tries again.
    markConversationRead({ params: { id } }).catch(() => undefined);
  }, [id, newest, unread]);
}

function StaffThread({ conversation, me }: { conversation: Conversation; me: SessionUser }) {
  const toast = useToast();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useMarkRead(conversation);

  // On a phone the thread sits under the list: bring it into view when a conversation opens.
  useEffect(() => {
    if (window.matchMedia?.('(max-width: 860px)').matches) headingRef.current?.scrollIntoView?.({ block: 'start' });
  }, []);

  const { id, assignee, status } = conversation;
  const mine = assignee?.id === me.id;
  const where = guestWhere(conversation);

  const change = async (patch: UpdateConversation, done: string, failed: string) => {
    try {
      await updateConversation({ params: { id }, body: patch });
      toast.show({ tone: 'success', message: done });
    } catch (error) {
      toast.show({ tone: 'error', title: failed, message: errorMessage(error) });
    }
  };

  return (
    <>
      <header className="conv-head">
        <div className="conv-head-text">
          <h2 ref={headingRef} className="conv-title">
            {conversation.guestName}
          </h2>
          <p className="muted small">
            {where ? `${where} · ` : ''}asked {formatWhen(conversation.createdAt)}
          </p>
          <p className="conv-state">
            <span className={`badge ${status === 'open' ? 'badge-accent' : 'badge-ok'}`}>{STATUS_LABELS[status]}</span>
            <span className="conv-assignee">
              <Icon name="user" size={16} /> {assignee ? `Assigned to ${mine ? 'you' : assignee.name}` : 'Unassigned'}
            </span>
          </p>
        </div>
        <div className="conv-actions">
          {mine ? (
            <AsyncButton run={() => change({ assigneeId: null }, `${conversation.guestName}’s conversation is unassigned.`, 'Could not unassign')} pendingLabel="Unassigning…">
              Unassign
            </AsyncButton>
          ) : (
            <AsyncButton run={() => change({ assigneeId: me.id }, `${conversation.guestName}’s conversation is assigned to you.`, 'Could not assign')} pendingLabel="Assigning…">
              <Icon name="user" size={16} /> Assign to me
            </AsyncButton>
          )}
          {status === 'open' ? (
            <AsyncButton className="btn btn-small btn-primary" run={() => change({ status: 'resolved' }, `${conversation.guestName}’s conversation is resolved.`, 'Could not resolve')} pendingLabel="Resolving…">
              <Icon name="check" size={16} /> Resolve
            </AsyncButton>
          ) : (
            <AsyncButton run={() => change({ status: 'open' }, `${conversation.guestName}’s conversation is open again.`, 'Could not reopen')} pendingLabel="Reopening…">
              <Icon name="undo" size={16} /> Reopen
            </AsyncButton>
          )}
        </div>
      </header>

      <MessageThread
        messages={conversation.messages}
        outgoing="staff"
        isMine={(m) => m.author.kind === 'staff' && m.author.accountId === me.id}
        label={`Messages with ${conversation.guestName}`}
      />

      {status === 'resolved' ? <p className="muted small">Resolved. The guest reopens it by writing again; you can still answer.</p> : null}
      <ReplyComposer
        key={id}
        label={`Reply to ${conversation.guestName}`}
        draft={{ owner: me.id, place: `conversation.${id}` }}
        send={(body) => sendMessage({ params: { id }, body: { body, as: 'staff' } })}
      />
    </>
  );
}
