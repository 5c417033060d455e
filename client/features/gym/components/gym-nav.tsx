import { AppNavLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';

/** The gym area's two lists, as tabs above each of its pages. */
export function GymNav() {
  return (
    <nav className="tabs gym-nav" aria-label="Gym">
      <AppNavLink to={paths.gymOwners} className="tab">
        Owners
      </AppNavLink>
      <AppNavLink to={paths.gymMembers} className="tab">
        Members
      </AppNavLink>
    </nav>
  );
}
