import * as v from 'valibot';
import { read } from '../bff/contracts/endpoint.contract';
import { kisiApi } from '../bff/contracts/kisi.contract';
import { idParam, inPage, type AreaReads, type PageAddress } from './reads';
import { pageParam, parseSearch, toApiPage } from './search-params';

/**
 * The /kisi pages: their search params (every key falls back silently), page sizes and the reads
 * they start with. Every read goes through the BFF's Kisi proxy, so an outage of Kisi shows inside the page.
 */

export const USERS_PAGE_SIZE = 20;
export const MEMBERS_PAGE_SIZE = 20;
export const GROUPS_PAGE_SIZE = 10;
export const GROUP_LINKS_PAGE_SIZE = 10;
/** Kisi's maximum for locks and role assignments: one page shows them all. */
export const ALL_LOCKS = 250;
export const ALL_ROLE_ASSIGNMENTS = 250;

const queryParam = v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), '');
const PageQuerySearchSchema = v.object({ page: pageParam, query: queryParam });
const PageSearchSchema = v.object({ page: pageParam });
export type PageQuerySearch = v.InferOutput<typeof PageQuerySearchSchema>;

export const parsePageQuery = (search: URLSearchParams) => parseSearch(PageQuerySearchSchema, search);
export const parsePage = (search: URLSearchParams) => parseSearch(PageSearchSchema, search);

/** Kisi pages by offset: `limit` and `offset` for a 1-based URL page. */
const paging = (page: number, limit: number) => ({ limit, offset: toApiPage(page) * limit });

export const kisiUsersRead = (search: PageQuerySearch) => inPage(read(kisiApi.listUsers, { query: { ...paging(search.page, USERS_PAGE_SIZE), query: search.query } }));
export const kisiMembersRead = (search: { page: number }) => inPage(read(kisiApi.listMembers, { query: paging(search.page, MEMBERS_PAGE_SIZE) }));
export const kisiGroupsRead = (search: { page: number }) => inPage(read(kisiApi.listGroups, { query: paging(search.page, GROUPS_PAGE_SIZE) }));
export const kisiGroupLinksRead = (search: PageQuerySearch) =>
  inPage(read(kisiApi.listGroupLinks, { query: { ...paging(search.page, GROUP_LINKS_PAGE_SIZE), query: search.query } }));
export const kisiLocksRead = inPage(read(kisiApi.listLocks, { query: paging(1, ALL_LOCKS) }));
export const kisiUserRead = (id: number) => inPage(read(kisiApi.getUser, { params: { id } }));
export const roleAssignmentsRead = (userId: number) => inPage(read(kisiApi.listRoleAssignments, { query: { user_id: userId, limit: ALL_ROLE_ASSIGNMENTS } }));

// ---- each page's reads (the /kisi layout reads nothing itself) ----

export const kisiUsersReads = ({ search }: PageAddress) => ({ users: kisiUsersRead(parsePageQuery(search)) });

/** The user and their role assignments, side by side. */
export const kisiUserReads = (address: PageAddress) => {
  const id = idParam(address, 'user_id', 'Kisi user');
  return { user: kisiUserRead(id), roles: roleAssignmentsRead(id) };
};

export const kisiMembersReads = ({ search }: PageAddress) => ({ members: kisiMembersRead(parsePage(search)) });
export const kisiGroupsReads = ({ search }: PageAddress) => ({ groups: kisiGroupsRead(parsePage(search)) });
export const kisiGroupLinksReads = ({ search }: PageAddress) => ({ links: kisiGroupLinksRead(parsePageQuery(search)) });
export const kisiLocksReads = () => ({ locks: kisiLocksRead });

export const kisiReads = {
  kisiUsers: kisiUsersReads,
  kisiUser: kisiUserReads,
  kisiMembers: kisiMembersReads,
  kisiGroups: kisiGroupsReads,
  kisiGroupLinks: kisiGroupLinksReads,
  kisiLocks: kisiLocksReads,
} satisfies AreaReads;
