import { Outlet, useMatch } from 'react-router';
import { chatApi } from '@contracts/chat.contract';
import { fetcherFor, keyFor } from '@/lib/api-client';
import { firstScreenApi } from '@/lib/first-screen-api';
import { UnreadCount } from '@/components/unread-count';
import { AppNavLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { hasRole, useShellUser } from '@/lib/session';
import { useQuery } from '@/lib/cache';
import { useLiveEvents } from '@/lib/live-events';

export const handle = { title: 'Staff shell' };

/** The shell's work, for those who may open it (a runner: the overview and the chat). Its demo pages are under Samples on the home page. */
const TABS: Array<{ to: string; label: string; end?: boolean; staffOnly?: boolean }> = [
  { to: paths.shell, label: 'Overview', end: true },
  { to: paths.chat, label: 'Chat' },
  { to: paths.conversations, label: 'Guest help', staffOnly: true },
  { to: paths.shellWebhook, label: 'Door events', staffOnly: true },
  { to: paths.uploadMany, label: 'Files', staffOnly: true },
];

/** The chat's channel list (the key the chat pages read and keep live), for the unread count on the Chat tab. */
const CHAT_CHANNELS_KEY = keyFor(chatApi.listChannels);
const fetchChatChannels = fetcherFor(chatApi.listChannels);
/** What waits for this reader in guest help, for the count on its tab (by its address: the contract would bring the guest help's chunk to every shell page). */
const GUEST_WAITING_KEY = keyFor(firstScreenApi.guestHelpWaiting);
const fetchGuestWaiting = fetcherFor(firstScreenApi.guestHelpWaiting);

/**
 * The Guest help tab's count, kept live on every shell page: a guest who writes while the desk is
 * on another page is seen at once (the front desk only: a runner has no such tab).
 */
function GuestHelpWaiting() {
  const { data, mutate } = useQuery(GUEST_WAITING_KEY, fetchGuestWaiting, undefined, { afterFirstPaint: true });
  useLiveEvents(['conversation'], () => void mutate());
  return <UnreadCount count={data?.unread ?? 0} className="badge badge-accent" />;
}

export function Component() {
  const user = useShellUser();
  // A count on a tab can come a moment after the page it frames.
  const unread = useQuery(CHAT_CHANNELS_KEY, fetchChatChannels, undefined, { afterFirstPaint: true }).data?.totalUnread ?? 0;
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
              {tab.to === paths.chat ? <UnreadCount count={unread} className="badge badge-accent" /> : null}
              {tab.to === paths.conversations ? <GuestHelpWaiting /> : null}
            </AppNavLink>
          ))}
        </nav>
      </div>
      <Outlet />
    </div>
  );
}
