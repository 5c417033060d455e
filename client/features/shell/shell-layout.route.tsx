import { Outlet } from 'react-router';
import { AppNavLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { useShellUser } from './shell-user';

export const handle = { title: 'Staff shell' };

const TABS = [
  { to: paths.shell, label: 'Overview', end: true },
  { to: paths.shellWebhook, label: 'Door events' },
  { to: paths.shellSse, label: 'Live stream' },
  { to: paths.shellApi, label: 'Service status' },
  { to: paths.shellEmpty, label: 'Empty state' },
  { to: paths.shellContain, label: 'Container layout' },
];

export function Component() {
  const user = useShellUser();
  return (
    <div className="stack-lg">
      <div className="shell-head">
        <div>
          <p className="eyebrow">Staff shell</p>
          <p className="shell-hello">Hello, {user.name.split(' ')[0]}</p>
        </div>
        <nav className="tabs" aria-label="Staff shell">
          {TABS.map((tab) => (
            <AppNavLink key={tab.to} to={tab.to} end={tab.end} className="tab">
              {tab.label}
            </AppNavLink>
          ))}
        </nav>
      </div>
      <Outlet />
    </div>
  );
}
