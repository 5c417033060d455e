import { Outlet, useMatch } from 'react-router';
import type { LiveEventType } from '@contracts/events.contract';
import { matchPage } from '@pages/pages';
import type { PageRead } from '@pages/reads';
import { doorSyncRead } from '@pages/gym.reads';
import { chatChannelsRead, guestWaitingRead, shellLayoutReads } from '@pages/shell.reads';
import { UnreadCount } from '@/components/unread-count';
import { AppNavLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { hasRole, useShellUser } from '@/lib/session';
import { preloadRead, useRead, type Query } from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';
import { useLiveEvents, useWhenLiveOpens } from '@/lib/live-events';

export const handle = {
  title: 'Staff shell',
  /** A link's hover warms the tabs' counts, as the page behind it names them (pages/shell.reads.ts). */
  preload: ({ url }: { url: URL }) => {
    const page = matchPage(url.pathname)?.page;
    if (page) for (const read of Object.values<PageRead | undefined>(shellLayoutReads(page))) if (read) preloadRead(queryOf(read));
  },
};

/** The shell's work, for those who may open it (a runner: the overview and the chat). Its demo pages are under Samples on the home page. */
const TABS: Array<{ to: string; label: string; end?: boolean; staffOnly?: boolean }> = [
  { to: paths.shell, label: 'Overview', end: true },
  { to: paths.chat, label: 'Chat' },
  { to: paths.conversations, label: 'Guest help', staffOnly: true },
  { to: paths.shellWebhook, label: 'Door events', staffOnly: true },
  { to: paths.uploadMany, label: 'Files', staffOnly: true },
];

/** The chat's channel list (the read the chat pages list and keep live), for the unread count on the Chat tab. */
const chatChannels = queryOf(chatChannelsRead);
/** What waits for this reader in guest help, for the count on its tab. */
const guestWaiting = queryOf(guestWaitingRead);

/**
 * A tab's count, kept live on every shell page: read again on each live event of its kind, and
 * when the stream opens again (what came while it was down). A count comes a moment after the page
 * it frames. `keptLiveByPage`: the page on screen writes the events into this read itself.
 */
function LiveTabCount<T>({ read, countOf, events, keptLiveByPage = false }: { read: Query<T>; countOf: (data: T) => number; events: LiveEventType[]; keptLiveByPage?: boolean }) {
  const { data, mutate } = useRead(read);
  const readAgain = () => void (keptLiveByPage || mutate());
  useLiveEvents(events, readAgain);
  useWhenLiveOpens(readAgain);
  return <UnreadCount count={data === undefined ? 0 : countOf(data)} className="badge badge-accent" />;
}

/** Whether Kisi answers and how many members wait for their doors, asked again every half minute (nothing announces it live). */
const doorSync = queryOf(doorSyncRead);
const DOOR_SYNC_EVERY_MS = 30_000;

/** The desk is told on every shell page when Kisi cannot be reached (the members list says more, so not there). */
function KisiAwayNotice() {
  const onMembers = useMatch(paths.gymMembers) !== null;
  const { data } = useRead(doorSync, undefined, { refreshInterval: DOOR_SYNC_EVERY_MS });
  if (onMembers || data?.kisi !== 'unreachable') return null;
  return (
    <p className="banner banner-warning" role="status" data-testid="shell-kisi-away">
      <strong>Kisi cannot be reached.</strong>{' '}
      {data.waiting > 0 ? `${data.waiting === 1 ? '1 member waits' : `${data.waiting} members wait`} for door access to follow their membership. ` : ''}
      <AppNavLink to={paths.gymMembers}>Members</AppNavLink>
    </p>
  );
}

export function Component() {
  const user = useShellUser();
  const onChat = useMatch(`${paths.chat}/*`) !== null;
  // The greeting is the overview's: on the work pages the header's menu says who is signed in, and the page's own title comes first.
  const onOverview = useMatch({ path: paths.shell, end: true }) !== null;
  return (
    <div className="stack-lg shell">
      <div className="shell-head">
        {onOverview ? (
          <div>
            <p className="eyebrow">Staff shell</p>
            <p className="shell-hello">Hello, {user.name.split(' ')[0]}</p>
          </div>
        ) : null}
        <nav className="tabs" aria-label="Staff shell">
          {TABS.filter((tab) => !tab.staffOnly || hasRole(user, ['staff'])).map((tab) => (
            <AppNavLink key={tab.to} to={tab.to} end={tab.end} className="tab">
              {tab.label}
              {tab.to === paths.chat ? <LiveTabCount read={chatChannels} countOf={(list) => list.totalUnread} events={['chat']} keptLiveByPage={onChat} /> : null}
              {/* The front desk's only: a runner has no such tab, and may not read guest help. */}
              {tab.to === paths.conversations ? <LiveTabCount read={guestWaiting} countOf={(waiting) => waiting.unread} events={['conversation']} /> : null}
            </AppNavLink>
          ))}
        </nav>
      </div>
      {hasRole(user, doorSyncRead.endpoint.access) ? <KisiAwayNotice /> : null}
      <Outlet />
    </div>
  );
}
