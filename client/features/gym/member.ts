import { useRouteLoaderData } from 'react-router';
import type { GymMember } from '@contracts/gym.contract';
import { memberLayoutReads, memberRead } from '@pages/gym.reads';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';

/** The route id of `/shell/gymowner/users/:id`, whose loader loads the member for every tab. */
export const MEMBER_ROUTE_ID = 'gym-member';

/** The member layout's reads (`/shell/gymowner/users/:id`): unknown or malformed id → not found. */
export const memberLayout = routeReads(memberLayoutReads);

/** The member of the current member page, kept fresh from the cache (writes update it at once). */
export function useMember(): GymMember {
  const loaded = useRouteLoaderData<typeof memberLayout.loader>(MEMBER_ROUTE_ID);
  if (!loaded) throw new Error('useMember() is only for routes under /shell/gymowner/users/:id');
  return useRead(queryOf(memberRead(loaded.member.id)), loaded.member).data;
}
