import * as v from 'valibot';
import { kisiApi } from '@contracts/kisi.contract';
import { keyFor } from '@/lib/api-client';
import { kisiPageFetcher } from '@/lib/kisi';
import { pageParam, parseSearch, toApiPage } from '@pages/search-params';

/**
 * The /kisi pages' own part of the data layer: their search params, page sizes and the key of each
 * page. The calls, writes and error reading are the one Kisi module's (`@/lib/kisi`).
 */
export const USERS_PAGE_SIZE = 20;
export const MEMBERS_PAGE_SIZE = 20;
export const GROUPS_PAGE_SIZE = 10;
export const GROUP_LINKS_PAGE_SIZE = 10;
/** Kisi's maximum for locks and role assignments: one page shows them all. */
export const ALL_LOCKS = 250;
export const ALL_ROLE_ASSIGNMENTS = 250;

// ---- search params (every key falls back silently) ------------------------------------------

const queryParam = v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), '');
export const PageQuerySearchSchema = v.object({ page: pageParam, query: queryParam });
export const PageSearchSchema = v.object({ page: pageParam });
export type PageQuerySearch = v.InferOutput<typeof PageQuerySearchSchema>;

export const parsePageQuery = (url: URL | URLSearchParams) => parseSearch(PageQuerySearchSchema, url);
export const parsePage = (url: URL | URLSearchParams) => parseSearch(PageSearchSchema, url);

/** A page's own URL with its search params (page 1 and an empty query are left out). */
export function pageHref(path: string, search: { page: number; query?: string }): string {
  const params = new URLSearchParams();
  if (search.query) params.set('query', search.query);
  if (search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

// ---- keys: one page of each list (Kisi pages by offset) ----------------------------------------

/** `limit` and `offset` for a 1-based URL page. */
const paging = (search: { page: number }, limit: number) => ({ limit, offset: toApiPage(search.page) * limit });

export const usersKey = (search: PageQuerySearch) => keyFor(kisiApi.listUsers, { query: { ...paging(search, USERS_PAGE_SIZE), query: search.query } });
export const membersKey = (search: { page: number }) => keyFor(kisiApi.listMembers, { query: paging(search, MEMBERS_PAGE_SIZE) });
export const groupsKey = (search: { page: number }) => keyFor(kisiApi.listGroups, { query: paging(search, GROUPS_PAGE_SIZE) });
export const groupLinksKey = (search: PageQuerySearch) => keyFor(kisiApi.listGroupLinks, { query: { ...paging(search, GROUP_LINKS_PAGE_SIZE), query: search.query } });
export const LOCKS_KEY = keyFor(kisiApi.listLocks, { query: paging({ page: 1 }, ALL_LOCKS) });
export const roleAssignmentsKey = (userId: number) => keyFor(kisiApi.listRoleAssignments, { query: { user_id: userId, limit: ALL_ROLE_ASSIGNMENTS } });

export const fetchUsers = kisiPageFetcher(kisiApi.listUsers);
export const fetchMembers = kisiPageFetcher(kisiApi.listMembers);
export const fetchGroups = kisiPageFetcher(kisiApi.listGroups);
export const fetchGroupLinks = kisiPageFetcher(kisiApi.listGroupLinks);
export const fetchLocks = kisiPageFetcher(kisiApi.listLocks);
export const fetchRoleAssignments = kisiPageFetcher(kisiApi.listRoleAssignments);
