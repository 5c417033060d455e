import './kisi.css';
import { Outlet } from 'react-router';
import { AppNavLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';

export const handle = { title: 'Access control' };

const TABS = [
  { to: paths.kisiUsers, label: 'Users' },
  { to: paths.kisiMembers, label: 'Members' },
  { to: paths.kisiGroups, label: 'Groups' },
  { to: paths.kisiGroupLinks, label: 'Access links' },
  { to: paths.kisiLocks, label: 'Locks' },
];

/** `/kisi`: Kisi's lists as tabs above each page. */
export function Component() {
  return (
    <div className="stack-lg kisi">
      <nav className="tabs kisi-nav" aria-label="Access control">
        {TABS.map((tab) => (
          <AppNavLink key={tab.to} to={tab.to} className="tab">
            {tab.label}
          </AppNavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
