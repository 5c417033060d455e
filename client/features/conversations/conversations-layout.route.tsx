import './conversations.css';
import { useState } from 'react';
import { Outlet, useLoaderData, useLocation, useNavigation, useParams } from 'react-router';
import * as v from 'valibot';
import { isIdText } from '@contracts/common.contract';
import { ConversationEventSchema } from '@contracts/conversations.contract';
import {
  DEFAULT_CONVERSATIONS_SEARCH,
  conversationsListReads,
  conversationsRead,
  parseConversationsSearch,
  type AssigneeFilter,
  type StatusFilter,
} from '@pages/conversations.reads';
import { LiveConnectionBadge, LiveConnectionError } from '@/components/live-connection';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import { SearchBox } from '@/components/search-box';
import { errorMessage } from '@/lib/api-client';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { useLiveEvents, useWhenLiveOpens } from '@/lib/live-events';
import { useNotify } from '@/lib/notify';
import { paths } from '@/lib/paths';
import { useSearch, useSetSearchParam } from '@/lib/search-params';
import { useShellUser } from '@/lib/session';
import { useUnreadTitle } from '@/lib/unread-title';
import { useNow } from '@/lib/use-now';
import { ConversationRow } from './components/conversation-row';
import { applyConversationEvent, conversationsHref, refreshConversation, refreshConversationList } from './conversations.api';

/** `/shell/nuhs/basic?status&assignee&query&page&next|previous` (staff): the list; a thread opens beside it. */
const reads = routeReads(conversationsListReads);
export const { loader } = reads;
export const handle = { title: 'Guest conversations', ...reads.handle };

const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'all', label: 'All' },
];
const ASSIGNEE_OPTIONS: { value: AssigneeFilter; label: string }[] = [
  { value: 'anyone', label: 'Anyone' },
  { value: 'mine', label: 'Me' },
  { value: 'unassigned', label: 'Nobody' },
];

/** Relative times in the list move on this often. */
const TICK_MS = 30_000;

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const search = useSearch(parseConversationsSearch);
  const me = useShellUser();
  // The whole answer, not only its data: a list that cannot be read again says so above it, with a retry.
  const query = useRead(queryOf(conversationsRead(search)), loaded.conversations);
  const list = query.data;
  const { pathname } = useLocation();
  const { conversationId } = useParams();
  const activeId = isIdText(conversationId) ? Number(conversationId) : null;
  const navigation = useNavigation();
  const setSearchParam = useSetSearchParam();
  const now = useNow(TICK_MS);
  const [announcement, setAnnouncement] = useState('');
  const notify = useNotify();
  // Guest messages not read yet, as the list counts them: in the tab's title while this page is open.
  useUnreadTitle(list.items.reduce((sum, c) => sum + c.unread, 0));
  // A filter or search is loading: the same page with other params.
  const busy = navigation.state === 'loading' && navigation.location.pathname === pathname;
  const filtered = search.status !== DEFAULT_CONVERSATIONS_SEARCH.status || search.assignee !== DEFAULT_CONVERSATIONS_SEARCH.assignee || Boolean(search.query);

  // One stream for the list and the open thread: a message goes into the thread's cache (once), and the list reads again.
  useLiveEvents(['conversation'], (event) => {
    const parsed = v.safeParse(ConversationEventSchema, event.data);
    if (!parsed.success) return;
    const { conversation, message } = parsed.output;
    applyConversationEvent(parsed.output);
    void refreshConversationList();
    if (message?.author.kind === 'guest' && conversation.id !== activeId) setAnnouncement(`New message from ${conversation.guestName}.`);
    // A new help request is a conversation whose first message (the guest's, written with it) just arrived.
    if (message?.author.kind === 'guest' && message.createdAt === conversation.createdAt) {
      notify({
        title: `Help request from ${conversation.guestName}`,
        body: `${conversation.table !== null ? `Table ${conversation.table}: ` : ''}${message.body}`,
        tag: `conversation-${conversation.id}`,
        url: paths.conversation(conversation.id),
      });
    }
  });

  // The list and thread were read before the stream opened (or while it was away): read them again once
  // it is open, unless it began where those reads ended and brings what came after as events (decision 0089).
  useWhenLiveOpens(() => {
    void refreshConversationList();
    if (activeId) void refreshConversation(activeId);
  });

  const setFilter = (name: 'status' | 'assignee' | 'query', value: string) =>
    setSearchParam(name, value === DEFAULT_CONVERSATIONS_SEARCH[name] ? '' : value, { replace: name === 'query' });

  return (
    <div className="stack-lg conversations">
      <PageHeader eyebrow="Front desk" title="Guest conversations" actions={<LiveConnectionBadge label="Live conversations" />}>
        <p>Guests ask for help from their table or the help page. Pick a conversation to answer it; new messages arrive live.</p>
      </PageHeader>

      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <LiveConnectionError />

      <div className={`conv-split${activeId ? ' has-thread' : ''}`}>
        <section className="conv-list-pane stack" aria-label="Conversation list">
          <div className="conv-filters">
            <SearchBox value={search.query} onSearch={(q) => setFilter('query', q)} label="Search conversations" placeholder="Search names, emails, messages" busy={busy} />
            <div className="conv-selects">
              <label className="field-inline">
                <span>Status</span>
                <select value={search.status} onChange={(e) => setFilter('status', e.target.value)}>
                  {STATUS_OPTIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field-inline">
                <span>Assigned to</span>
                <select value={search.assignee} onChange={(e) => setFilter('assignee', e.target.value)}>
                  {ASSIGNEE_OPTIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          </div>

          {query.error ? (
            <LoadError onRetry={() => void query.mutate()} retrying={query.isValidating}>
              Could not refresh the conversations: {errorMessage(query.error)}
            </LoadError>
          ) : null}

          <PagedList
            page={search.page}
            pageSize={list.pageSize}
            total={list.total}
            totalIsLowerBound={list.totalIsLowerBound}
            next={list.next}
            previous={list.previous}
            count={list.items.length}
            hrefFor={(page, cursor) => conversationsHref(pathname, { ...search, page, next: cursor?.next ?? '', previous: cursor?.previous ?? '' })}
            label="Conversation pages"
            noun="conversations"
            empty={
              filtered ? (
                <NoMatchState title="No conversations match" clearTo={conversationsHref(pathname, DEFAULT_CONVERSATIONS_SEARCH)} clearLabel="Show all open conversations">
                  {search.query ? `Nothing matches “${search.query}” with these filters.` : 'No conversation has this status and assignee.'}
                </NoMatchState>
              ) : (
                <EmptyState icon="inbox" title="No open conversations">
                  When a guest asks for help from their table or the help page, it shows up here.
                </EmptyState>
              )
            }
          >
            <ul className="conv-list" aria-label="Conversations" aria-busy={busy}>
              {list.items.map((conversation) => (
                <ConversationRow
                  key={conversation.id}
                  conversation={conversation}
                  to={conversationsHref(paths.conversation(conversation.id), search)}
                  meId={me.id}
                  now={now}
                  active={conversation.id === activeId}
                />
              ))}
            </ul>
          </PagedList>
        </section>

        <section className="conv-thread-pane card" aria-label="Conversation">
          <Outlet />
        </section>
      </div>
    </div>
  );
}
