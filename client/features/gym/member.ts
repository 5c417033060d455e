import { data, useRouteLoaderData, type LoaderFunctionArgs } from 'react-router';
import { isIdText } from '@contracts/common.contract';
import type { GymMember } from '@contracts/gym.contract';
import { loadQuery, useQuery } from '@/lib/cache';
import { fetchMember, memberKey } from './gym.api';

/** The route id of `/shell/gymowner/users/:id`, whose loader loads the member for every tab. */
export const MEMBER_ROUTE_ID = 'gym-member';

/** The member layout's loader (`/shell/gymowner/users/:id`): unknown or malformed id → not found. */
export async function loader({ params }: LoaderFunctionArgs): Promise<{ member: GymMember }> {
  if (!isIdText(params.id)) throw data(`No gym member with id ${params.id ?? ''}`, { status: 404, statusText: 'Not Found' });
  return { member: await loadQuery(memberKey(Number(params.id)), fetchMember) };
}

/** The member of the current member page, kept fresh from the cache (writes update it at once). */
export function useMember(): GymMember {
  const loaded = useRouteLoaderData<typeof loader>(MEMBER_ROUTE_ID);
  if (!loaded) throw new Error('useMember() is only for routes under /shell/gymowner/users/:id');
  return useQuery(memberKey(loaded.member.id), fetchMember, loaded.member).data ?? loaded.member;
}
