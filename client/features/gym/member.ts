import { useRouteLoaderData } from 'react-router';
import type { GymMember } from '@contracts/gym.contract';
import { useQuery } from '@/lib/cache';
import { fetchMember, memberKey } from './gym.api';
import type { loader } from './member-layout.route';

/** The route id of `/shell/gymowner/users/:id`, whose loader loads the member for every tab. */
export const MEMBER_ROUTE_ID = 'gym-member';

/** The member of the current member page, kept fresh from the cache (writes update it at once). */
export function useMember(): GymMember {
  const loaded = useRouteLoaderData<typeof loader>(MEMBER_ROUTE_ID);
  if (!loaded) throw new Error('useMember() is only for routes under /shell/gymowner/users/:id');
  return useQuery(memberKey(loaded.member.id), fetchMember, loaded.member).data ?? loaded.member;
}
