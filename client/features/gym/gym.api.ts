import * as v from 'valibot';
import { GYM_PAGE_SIZE, MemberNewsSchema, gymApi } from '@contracts/gym.contract';
import type { MembersSearch } from '@pages/gym.reads';
import { memberRead } from '@pages/gym.reads';
import { queryOf } from '@/lib/route-reads';
import { invalidate, setQueryData } from '@/lib/reads';
import { useLiveEvents } from '@/lib/live-events';
import { write } from '@/lib/endpoint-write';
import { lastListAddress } from '@/lib/last-list';
import { paths } from '@/lib/paths';
import { setPageParams } from '@pages/search-params';

/** The gym area's writes, with what each one changes (its reads are declared in pages/gym.reads.ts). */
export const PAGE_SIZE = GYM_PAGE_SIZE;

/** The members list's address for a search: its query, owner, membership, door access, sort, page and its cursor (the defaults left out). */
export function membersHref(search: MembersSearch): string {
  const params = new URLSearchParams();
  if (search.query) params.set('query', search.query);
  if (search.ownerId) params.set('ownerId', String(search.ownerId));
  if (search.membership) params.set('membership', search.membership);
  if (search.access) params.set('access', search.access);
  if (search.sort !== 'name') params.set('sort', search.sort);
  setPageParams(params, search);
  const query = params.toString();
  return query ? `${paths.gymMembers}?${query}` : paths.gymMembers;
}

/** The members list as the desk last had it (search, filters, page): where a member's page goes back to, through its tabs too. */
export const lastMembersList = lastListAddress(paths.gymMembers);

const memberKey = (id: number) => queryOf(memberRead(id)).key;

// ---- writes (docs/decisions/0001-one-way-to-write.md) -------------------------------------------

/** Owner lists, pickers and owner details (member counts change with members). */
const OWNERS = [gymApi.listOwners, gymApi.getOwner] as const;

export const createOwner = write(gymApi.createOwner, { stale: OWNERS });
// The deleted owner's page is not read again (it would be a 404); no other owner's details change.
export const deleteOwner = write(gymApi.deleteOwner, { gone: ({ params }) => [[gymApi.getOwner, { params }]], stale: [gymApi.listOwners] });
export const createMember = write(gymApi.createMember, { stale: [gymApi.listMembers, ...OWNERS] });

/** A changed member goes straight into the cache; lists, counts and the live door state refresh. */
export const updateMember = write(gymApi.updateMember, {
  apply: (member) => setQueryData(memberKey(member.id), member),
  stale: ({ params, body }) => [gymApi.listMembers, [gymApi.doorAccess, { params }], ...(body.ownerId !== undefined ? OWNERS : [])],
});

/** Retries switching the member's door access to match the membership. */
export const retryDoorAccess = write(gymApi.syncDoorAccess, {
  apply: (member) => setQueryData(memberKey(member.id), member),
  stale: ({ params }) => [gymApi.listMembers, [gymApi.doorAccess, { params }]],
});

export const deleteMember = write(gymApi.deleteMember, {
  gone: ({ params }) => [[gymApi.getMember, { params }], [gymApi.doorAccess, { params }]],
  stale: [gymApi.listMembers, ...OWNERS],
});

/**
 * Members the server changed by itself (a pause that ended on its day, the live `member` event): the
 * member's page (their record and door card) and the members list read again. `memberId`: only that
 * member's news (their page); without it, anyone's (a list).
 */
export function useMemberNews(memberId?: number) {
  useLiveEvents(['member'], (event) => {
    if (!v.is(MemberNewsSchema, event.data) || (memberId !== undefined && event.data.memberId !== memberId)) return;
    const params = { id: event.data.memberId };
    void invalidate(gymApi.getMember, { params });
    void invalidate(gymApi.doorAccess, { params });
    void invalidate(gymApi.listMembers);
  });
}
