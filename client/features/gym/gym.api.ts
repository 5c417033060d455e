import * as v from 'valibot';
import { GYM_PAGE_SIZE, gymApi, MEMBER_SORTS, type MemberSort, type Membership } from '@contracts/gym.contract';
import { idText } from '@contracts/common.contract';
import { fetcherFor, keyFor } from '@/lib/api-client';
import { setQueryData } from '@/lib/cache';
import { write } from '@/lib/endpoint-write';
import { lastListAddress } from '@/lib/last-list';
import { paths } from '@/lib/paths';
import { pageParam, parseSearch, toApiPage } from '@/lib/search-params';

/**
 * The gym area's data layer: keys and fetchers of its reads (keys name the endpoint and its input), and the writes
 * with what each one changes.
 */
export const MEMBERSHIP_VALUES = ['active', 'paused', 'cancelled'] as const satisfies readonly Membership[];
export const PAGE_SIZE = GYM_PAGE_SIZE;

// ---- search params of the list pages (every key falls back silently) -----------------------

const ownerIdParam = v.fallback(idText(), 0);
const membershipParam = v.fallback(v.picklist(['', ...MEMBERSHIP_VALUES]), '');
const queryParam = v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), '');
/** `?sort=` of the member list: the contract's orders, by name when absent or unknown. */
const sortParam = v.fallback(v.picklist(MEMBER_SORTS), 'name');

export const OwnersSearchSchema = v.object({ page: pageParam, query: queryParam });
export type OwnersSearch = v.InferOutput<typeof OwnersSearchSchema>;

export const MembersSearchSchema = v.object({ page: pageParam, query: queryParam, ownerId: ownerIdParam, membership: membershipParam, sort: sortParam });
export type MembersSearch = v.InferOutput<typeof MembersSearchSchema>;

export const OwnerPageSearchSchema = v.object({ page: pageParam });

export const parseOwnersSearch = (url: URL | URLSearchParams) => parseSearch(OwnersSearchSchema, url);
export const parseMembersSearch = (url: URL | URLSearchParams) => parseSearch(MembersSearchSchema, url);

/** The members list's address for a search: its query, owner, membership, sort and page (the defaults left out). */
export function membersHref(search: MembersSearch): string {
  const params = new URLSearchParams();
  if (search.query) params.set('query', search.query);
  if (search.ownerId) params.set('ownerId', String(search.ownerId));
  if (search.membership) params.set('membership', search.membership);
  if (search.sort !== 'name') params.set('sort', search.sort);
  if (search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query ? `${paths.gymMembers}?${query}` : paths.gymMembers;
}

/** The members list as the desk last had it (search, filters, page): where a member's page goes back to, through its tabs too. */
export const lastMembersList = lastListAddress(paths.gymMembers);

// ---- keys and fetchers -----------------------------------------------------------------------

/** `GET /api/gym/owners?page=<0-based>…` for a 1-based URL page. */
export const ownersKey = (search: { page: number; query?: string }, pageSize = PAGE_SIZE) =>
  keyFor(gymApi.listOwners, { query: { page: toApiPage(search.page), pageSize, query: search.query } });

/** Every owner (up to the API's maximum page), for pickers and filters. */
export const OWNER_CHOICES_KEY = keyFor(gymApi.listOwners, { query: { page: 0, pageSize: 100 } });

export const ownerKey = (id: number | string) => keyFor(gymApi.getOwner, { params: { id } });

export const membersKey = (search: { page: number; query?: string; ownerId?: number; membership?: Membership | ''; sort?: MemberSort }) =>
  keyFor(gymApi.listMembers, {
    query: {
      page: toApiPage(search.page),
      pageSize: PAGE_SIZE,
      query: search.query,
      ownerId: search.ownerId || undefined,
      membership: search.membership || undefined,
      // The default order stays out of the key: the same page by name is one cache entry however it was asked for.
      sort: search.sort === 'name' ? undefined : search.sort,
    },
  });

export const memberKey = (id: number | string) => keyFor(gymApi.getMember, { params: { id } });
export const memberAccessKey = (id: number | string) => keyFor(gymApi.doorAccess, { params: { id } });

export const fetchOwnerPage = fetcherFor(gymApi.listOwners);
export const fetchOwner = fetcherFor(gymApi.getOwner);
export const fetchMemberPage = fetcherFor(gymApi.listMembers);
export const fetchMember = fetcherFor(gymApi.getMember);
export const fetchDoorAccess = fetcherFor(gymApi.doorAccess);

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
