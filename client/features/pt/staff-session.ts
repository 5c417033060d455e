import { SESSION_KEY, fetchSession, hasRole } from '@/lib/session';
import { useQuery } from '@/lib/cache';

/**
 * Whether staff (or an admin) is signed in, for the food court's public pages that show more to
 * them: the header's session read, shared through SWR (false while it is still unknown).
 */
export function useIsStaff(): boolean {
  return hasRole(useQuery(SESSION_KEY, fetchSession).data, ['staff']);
}

/** Whether someone who works the runner board (a runner, staff or an admin) is signed in. */
export function useIsRunner(): boolean {
  return hasRole(useQuery(SESSION_KEY, fetchSession).data, ['runner', 'staff']);
}
