import { Icon } from '@/components/icon';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { ROLE_DESCRIPTIONS, useShellUser } from './shell-user';

export const handle = { title: 'Overview' };

const LINKS = [
  { to: paths.chat, title: 'Chat', text: 'Staff channels: the list beside one thread, unread counts, live.', icon: 'users' as const },
  { to: paths.chatGrid, title: 'Chat grid', text: 'Every channel at once, each with its latest messages.', icon: 'panel' as const },
  { to: paths.chatFlex, title: 'Chat split', text: 'The channel list and thread with a divider you can drag.', icon: 'panel' as const },
  { to: paths.shellWebhook, title: 'Door events', text: 'Unlocks and refusals Kisi reports, arriving live.', icon: 'inbox' as const },
  { to: paths.shellSse, title: 'Live stream', text: 'Watch the raw event stream: state, reconnects, every event.', icon: 'activity' as const },
  { to: paths.shellApi, title: 'Service status', text: 'Version, uptime, database and door-access mode.', icon: 'server' as const },
  { to: paths.shellEmpty, title: 'Empty state', text: 'What a page with nothing in it yet looks like.', icon: 'inbox' as const },
  { to: paths.shellContain, title: 'Container layout', text: 'Cards that fit the space they are given.', icon: 'panel' as const },
  { to: paths.selfTest, title: 'Self-test', text: 'Check this browser against the service.', icon: 'test' as const },
];

export function Component() {
  const user = useShellUser();
  return (
    <div className="shell-grid">
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
      <section aria-labelledby="tools-title">
        <h2 id="tools-title" className="section-title">
          Tools
        </h2>
        <ul className="card-grid card-grid-compact">
          {LINKS.map((link) => (
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
