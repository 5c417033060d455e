import * as v from 'valibot';
import { idText } from '../bff/contracts/common.contract';
import { read } from '../bff/contracts/endpoint.contract';
import { GYM_PAGE_SIZE, gymApi, MEMBER_ACCESS_STATES, MEMBER_SORTS, type MemberAccessState, type MemberSort, type Membership } from '../bff/contracts/gym.contract';
import { pages } from './pages';
import { idParam, inPage, type AreaReads, type PageAddress } from './reads';
import { shellLayoutReads } from './shell.reads';
import { cursorParams, pageParam, parseSearch, toApiCursorPage, toApiPage } from './search-params';

/** The gym's pages: their search params (every key falls back silently) and the reads they start with. */

export const MEMBERSHIP_VALUES = ['active', 'paused', 'cancelled'] as const satisfies readonly Membership[];

const ownerIdParam = v.fallback(idText(), 0);
const membershipParam = v.fallback(v.picklist(['', ...MEMBERSHIP_VALUES]), '');
const queryParam = v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), '');
/** `?access=` of the member list: a recorded door access, any when absent or unknown. */
const accessParam = v.fallback(v.picklist(['', ...MEMBER_ACCESS_STATES]), '');
/** `?sort=` of the member list: the contract's orders, by name when absent or unknown. */
const sortParam = v.fallback(v.picklist(MEMBER_SORTS), 'name');

const OwnersSearchSchema = v.object({ page: pageParam, query: queryParam });
export type OwnersSearch = v.InferOutput<typeof OwnersSearchSchema>;
const MembersSearchSchema = v.object({ page: pageParam, ...cursorParams, query: queryParam, ownerId: ownerIdParam, membership: membershipParam, access: accessParam, sort: sortParam });
export type MembersSearch = v.InferOutput<typeof MembersSearchSchema>;
const OwnerPageSearchSchema = v.object({ page: pageParam });

export const parseOwnersSearch = (search: URLSearchParams) => parseSearch(OwnersSearchSchema, search);
export const parseMembersSearch = (search: URLSearchParams) => parseSearch(MembersSearchSchema, search);
export const parseOwnerPageSearch = (search: URLSearchParams) => parseSearch(OwnerPageSearchSchema, search);

/** `GET /api/gym/owners?page=<0-based>…` for a 1-based URL page. */
export const ownersRead = (search: { page: number; query?: string }) => read(gymApi.listOwners, { query: { page: toApiPage(search.page), pageSize: GYM_PAGE_SIZE, query: search.query } });

/** Every owner (up to the API's maximum page), for pickers and filters. */
export const ownerChoicesRead = read(gymApi.listOwners, { query: { page: 0, pageSize: 100 } });

/** A page of members: by name from the cursor of the link that led here (`next`/`previous`), by last visit by its number. */
export const membersRead = (search: { page: number; next?: string; previous?: string; query?: string; ownerId?: number; membership?: Membership | ''; access?: MemberAccessState | ''; sort?: MemberSort }) =>
  read(gymApi.listMembers, {
    query: {
      ...toApiCursorPage({ page: search.page, next: search.next ?? '', previous: search.previous ?? '' }),
      pageSize: GYM_PAGE_SIZE,
      query: search.query,
      ownerId: search.ownerId || undefined,
      membership: search.membership || undefined,
      access: search.access || undefined,
      // The default order stays out of the key: the same page by name is one cache entry however it was asked for.
      sort: search.sort === 'name' ? undefined : search.sort,
    },
  });

export const memberRead = (id: number | string) => read(gymApi.getMember, { params: { id } });
/** The member's door access: Kisi's live state, so an outage of Kisi shows inside the page. */
export const doorAccessRead = (id: number | string) => inPage(read(gymApi.doorAccess, { params: { id } }));

// ---- each route's reads, and each page's (a page behind the member layout reads the member too) ----

export const ownersListReads = ({ search }: PageAddress) => ({ owners: ownersRead(parseOwnersSearch(search)) });

export const ownerReads = (address: PageAddress) => {
  const id = idParam(address, 'id', 'gym owner');
  return { owner: read(gymApi.getOwner, { params: { id } }), members: membersRead({ page: parseOwnerPageSearch(address.search).page, ownerId: id }) };
};

/** Whether Kisi answers and how many members wait for their door access: a banner inside the page, never its failure. */
export const doorSyncRead = inPage(read(gymApi.doorSyncStatus));

export const membersListReads = ({ search }: PageAddress) => ({ members: membersRead(parseMembersSearch(search)), doorSync: doorSyncRead });

/** The member layout's read, for every tab. */
export const memberLayoutReads = (address: PageAddress) => ({ member: memberRead(idParam(address, 'id', 'gym member')) });

/** The member's attendance by the venue's days (our own records: a failure is the page's). */
export const attendanceRead = (id: number | string) => read(gymApi.memberAttendance, { params: { id } });

export const memberProfileReads = (address: PageAddress) => {
  const id = idParam(address, 'id', 'gym member');
  return { access: doorAccessRead(id), attendance: attendanceRead(id) };
};

export const gymReads = {
  gymOwners: ownersListReads,
  gymOwner: ownerReads,
  gymMembers: (address) => ({ ...shellLayoutReads(pages.gymMembers), ...membersListReads(address) }),
  gymMembersImport: () => shellLayoutReads(pages.gymMembersImport),
  gymMember: (address) => ({ ...shellLayoutReads(pages.gymMember), ...memberLayoutReads(address), ...memberProfileReads(address) }),
  gymMemberUnlocks: (address) => ({ ...shellLayoutReads(pages.gymMemberUnlocks), ...memberLayoutReads(address) }),
  gymMemberLinks: (address) => ({ ...shellLayoutReads(pages.gymMemberLinks), ...memberLayoutReads(address) }),
} satisfies AreaReads;
