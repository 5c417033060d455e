import { Outlet } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { AppNavLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { ARCO_IDS } from './arcos';

export const handle = { title: 'Arcos' };

export function Component() {
  return (
    <div className="stack-lg">
      <PageHeader eyebrow="Nested routes" title="Arcos">
        <p>The list is the parent route and stays put; each arco opens beside it as a child route with its own URL.</p>
      </PageHeader>
      <div className="split">
        <nav className="split-nav card" aria-label="Arcos">
          <ul className="pill-list">
            {ARCO_IDS.map((id) => (
              <li key={id}>
                <AppNavLink to={paths.arco(id)}>Arco {id}</AppNavLink>
              </li>
            ))}
          </ul>
        </nav>
        <section className="split-main card" aria-live="polite">
          <Outlet />
        </section>
      </div>
    </div>
  );
}
