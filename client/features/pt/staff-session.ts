import { hasRole, sessionRead } from '@/lib/session';
import { useRead } from '@/lib/reads';

/**
 * Whether staff (or an admin) is signed in, for the food court's public pages that show more to
 * them: the header's session read, shared through SWR (false while it is still unknown).
 */
export function useIsStaff(): boolean {
  return hasRole(useRead(sessionRead).data, ['staff']);
}

/** Whether someone who works the runner board (a runner, staff or an admin) is signed in. */
export function useIsRunner(): boolean {
  return hasRole(useRead(sessionRead).data, ['runner', 'staff']);
}
