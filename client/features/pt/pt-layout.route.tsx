import './pt.css';
import { Outlet } from 'react-router';
import { AppNavLink } from '@/lib/app-link';
import { useAudience } from '@/lib/areas';
import { paths } from '@/lib/paths';
import { useIsRunner, useIsStaff } from './staff-session';
import { useCart } from './diner-store';

export const handle = { title: 'Food court' };

/**
 * `/pt`: the food court's tabs above each of its pages. The runner board and the QR sheet are tools
 * of the people who work here, so a diner sees neither tab (their URLs still lead to sign in); a
 * runner, who does not order, sees no menu or cart.
 */
export function Component() {
  const staff = useIsStaff();
  const runner = useIsRunner();
  const audience = useAudience();
  const orders = audience !== undefined && audience !== 'runner';
  const cart = useCart();
  const count = cart.reduce((sum, line) => sum + line.quantity, 0);
  return (
    <div className="stack-lg pt">
      <nav className="tabs pt-nav" aria-label="Food court">
        <AppNavLink to={paths.ptStalls} className="tab">
          Stalls
        </AppNavLink>
        {orders ? (
          <>
            <AppNavLink to={paths.ptDinerMenu} className="tab">
              Diner menu
            </AppNavLink>
            <AppNavLink to={paths.ptCart} className="tab">
              Cart
              {count > 0 ? (
                <>
                  {' '}
                  <span className="tab-count tabular">{count}</span>
                  <span className="visually-hidden"> {count === 1 ? 'item' : 'items'}</span>
                </>
              ) : null}
            </AppNavLink>
          </>
        ) : null}
        {runner ? (
          <AppNavLink to={paths.ptRunner} className="tab">
            Runner board
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
    </div>
  );
}
