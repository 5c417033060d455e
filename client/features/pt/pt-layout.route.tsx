import './pt.css';
import { Outlet } from 'react-router';
import { AppNavLink } from '@/lib/app-link';
import { dinerPages, useAudience } from '@/lib/areas';
import { helpPath, paths } from '@/lib/paths';
import { askSession } from '@/lib/session';
import { useIsRunner, useIsStaff } from './staff-session';
import { useCart, useRememberedTable } from './diner-store';
import { BuzzWatcher } from './components/buzz-watcher';

export const handle = { title: 'Food court' };

/**
 * Who is asking, before the first paint: the tabs are the role's, so they are there when the page
 * first shows instead of appearing above it a moment later and pushing it down (the HTML has the
 * session read under way, so a first load waits for nothing more). One try: a failed read is the
 * header's to show, and the page goes on without a role's tabs rather than wait through retries.
 */
export async function loader(): Promise<null> {
  await askSession().catch(() => undefined);
  return null;
}

/**
 * `/pt`: the food court's tabs above each of its pages. A diner (no account) is offered their
 * pages only, the same as their header (decision 0061): menu, cart, order, help. The stalls list,
 * the runner board and the QR sheet are for the people who work here (their URLs stay open, or lead
 * to sign in); a runner, who does not order, sees no menu, cart or order; only a visitor asks the
 * desk for help.
 */
export function Component() {
  const staff = useIsStaff();
  const runner = useIsRunner();
  const audience = useAudience();
  const table = useRememberedTable();
  const cart = useCart();
  const count = cart.reduce((sum, line) => sum + line.quantity, 0);
  // Nothing until the session has answered, so a signed-in desk never sees the diner's tabs flash by.
  const worker = audience !== undefined && audience !== 'visitor';
  const orders = audience !== undefined && audience !== 'runner';
  const diner = orders ? dinerPages.filter((page) => page.for.includes(audience)) : [];
  return (
    <div className="stack-lg pt">
      <nav className="tabs pt-nav" aria-label="Food court">
        {worker ? (
          <AppNavLink to={paths.ptStalls} className="tab">
            Stalls
          </AppNavLink>
        ) : null}
        {diner.map((page) => (
          // Help carries the remembered table, so the desk knows where to come.
          <AppNavLink key={page.href} to={page.href === paths.help ? helpPath({ table }) : page.href} className="tab">
            {page.title}
            {page.href === paths.ptCart && count > 0 ? (
              <>
                {' '}
                <span className="tab-count tabular">{count}</span>
                <span className="visually-hidden"> {count === 1 ? 'item' : 'items'}</span>
              </>
            ) : null}
          </AppNavLink>
        ))}
        {runner ? (
          <AppNavLink to={paths.ptRunner} className="tab">
            Runner board
          </AppNavLink>
        ) : null}
        {runner ? (
          <AppNavLink to={paths.ptKitchens} className="tab">
            Kitchen screens
          </AppNavLink>
        ) : null}
        {staff ? (
          <AppNavLink to={paths.ptTables} className="tab">
            Table QR codes
          </AppNavLink>
        ) : null}
        {staff ? (
          <AppNavLink to={paths.ptReports} className="tab">
            Figures
          </AppNavLink>
        ) : null}
      </nav>
      <Outlet />
      <BuzzWatcher />
    </div>
  );
}
