import { gymApi } from '@contracts/gym.contract';
import { Icon, type IconName } from '@/components/icon';
import { errorMessage, fetcherFor, keyFor } from '@/lib/api-client';
import { AppLink } from '@/lib/app-link';
import { useQuery } from '@/lib/cache';
import { startOfTodayIso } from '@/lib/format';
import { paths } from '@/lib/paths';
import { hasRole, useShellUser } from '@/lib/session';
import { useNow } from '@/lib/use-now';
import { ROLE_DESCRIPTIONS } from './shell-user';

export const handle = { title: 'Overview' };

const LINKS: Array<{ to: string; title: string; text: string; icon: IconName; staffOnly?: boolean }> = [
  { to: paths.chat, title: 'Chat', text: 'Staff channels: the list beside one thread, unread counts, live.', icon: 'users' },
  { to: paths.chatGrid, title: 'Chat grid', text: 'Every channel at once, each with its latest messages.', icon: 'panel' },
  { to: paths.chatFlex, title: 'Chat split', text: 'The channel list and thread with a divider you can drag.', icon: 'panel' },
  { to: paths.conversations, title: 'Guest help', text: 'Questions from diners and members, answered live.', icon: 'inbox', staffOnly: true },
  { to: paths.uploadOne, title: 'Upload a file', text: 'One file with a progress bar; it resumes after a dropped connection.', icon: 'arrow', staffOnly: true },
  { to: paths.uploadMany, title: 'Files', text: 'Drop several files at once; download or delete what is stored.', icon: 'inbox', staffOnly: true },
  { to: paths.posts, title: 'Posts', text: 'Sample posts from JSONPlaceholder: each with its author and comments.', icon: 'post', staffOnly: true },
  { to: paths.shellWebhook, title: 'Door events', text: 'Unlocks and refusals Kisi reports, arriving live.', icon: 'inbox' },
  { to: paths.shellSse, title: 'Live stream', text: 'Watch the raw event stream: state, reconnects, every event.', icon: 'activity' },
  { to: paths.shellApi, title: 'Service status', text: 'Version, uptime, database and door-access mode.', icon: 'server' },
  { to: paths.shellEmpty, title: 'Empty state', text: 'What a page with nothing in it yet looks like.', icon: 'inbox' },
  { to: paths.shellContain, title: 'Container layout', text: 'Cards that fit the space they are given.', icon: 'panel' },
  { to: paths.selfTest, title: 'Self-test', text: 'Check this browser against the service.', icon: 'test' },
];

// Through the contract, not the gym area's module: features stay apart.
const fetchVisitCount = fetcherFor(gymApi.countVisits);
const count = new Intl.NumberFormat();

/**
 * Today's visits (successful door unlocks) for the desk. "Today" starts at this browser's local
 * midnight, sent as an instant: the desk's clock is the venue's. Past midnight the key changes and
 * the count starts again.
 */
function TodayVisits() {
  const since = startOfTodayIso(useNow(60_000));
  const { data, error, isLoading } = useQuery(keyFor(gymApi.countVisits, { query: { since } }), fetchVisitCount);
  return (
    <section className="card visits-card" aria-labelledby="visits-title">
      <h2 id="visits-title" className="card-heading">
        <Icon name="door" /> Today’s visits
      </h2>
      <p className="visits-count" aria-busy={isLoading}>
        {data ? count.format(data.count) : isLoading ? '…' : '—'}
      </p>
      <p className="muted">{error && !data ? `Could not count them: ${errorMessage(error)}` : 'Members and staff let in by the doors since midnight.'}</p>
      <AppLink to={paths.shellWebhook}>See the door events</AppLink>
    </section>
  );
}

export function Component() {
  const user = useShellUser();
  return (
    <div className="shell-grid">
      <div className="stack-lg">
      <section className="card account-card" aria-labelledby="account-title">
        <h1 id="account-title" className="card-heading">
          <Icon name="user" /> Your account
        </h1>
        <dl className="facts">
          <div>
            <dt>Name</dt>
            <dd>{user.name}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{user.email}</dd>
          </div>
          <div>
            <dt>Role</dt>
            <dd>
              <span className="badge badge-accent">{user.role}</span>
            </dd>
          </div>
          <div>
            <dt>Account id</dt>
            <dd className="tabular">{user.id}</dd>
          </div>
        </dl>
        <p className="muted">Your role gives you: {ROLE_DESCRIPTIONS[user.role]}</p>
      </section>
      {hasRole(user, ['staff']) ? <TodayVisits /> : null}
      </div>
      <section aria-labelledby="tools-title">
        <h2 id="tools-title" className="section-title">
          Tools
        </h2>
        <ul className="card-grid card-grid-compact">
          {LINKS.filter((link) => !link.staffOnly || hasRole(user, ['staff'])).map((link) => (
            <li key={link.to}>
              <AppLink to={link.to} className="card card-link">
                <span className="card-icon" aria-hidden="true">
                  <Icon name={link.icon} />
                </span>
                <span className="card-title">{link.title}</span>
                <span className="card-text">{link.text}</span>
              </AppLink>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
