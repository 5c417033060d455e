import * as v from 'valibot';
import useSWR from 'swr';
import { parseCollectionRange } from '@contracts/kisi.contract';
import type {
  KisiGroup,
  KisiGroupCreate,
  KisiGroupLink,
  KisiGroupLinkCreate,
  KisiGroupLinkCreated,
  KisiLock,
  KisiMember,
  KisiRoleAssignment,
  KisiUser,
  KisiUserAccessUpdate,
} from '@contracts/kisi.contract';
import { api, isApiError, requestWithHeaders } from '@/lib/api-client';
import { invalidate, invalidatePrefix, loadQueryOnce, setCacheData, swrCache } from '@/lib/cache';
import { kisiErrorMessage } from '@/lib/kisi-errors';
import { pageParam, parseSearch, toApiPage } from '@/lib/search-params';

/**
 * The /kisi pages' data layer. Everything goes through the BFF's Kisi proxy (`/api/kisi/*`), so
 * the shapes are Kisi's own (bff/contracts/kisi.contract.ts). SWR keys are the proxy URLs: a
 * prefix names every page of a list, and the gym's access-link tab shares the group-link keys.
 */
export const KISI_URL = '/api/kisi';
export const USERS_URL = `${KISI_URL}/users`;
export const MEMBERS_URL = `${KISI_URL}/members`;
export const GROUPS_URL = `${KISI_URL}/groups`;
export const GROUP_LINKS_URL = `${KISI_URL}/group_links`;
export const LOCKS_URL = `${KISI_URL}/locks`;
export const ROLE_ASSIGNMENTS_URL = `${KISI_URL}/role_assignments`;

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

// ---- keys --------------------------------------------------------------------------------------

/** `…?limit=&offset=[&query=]` for a 1-based URL page (Kisi pages by offset). */
export function listKey(base: string, search: { page: number; query?: string }, limit: number): string {
  const params = new URLSearchParams({ limit: String(limit), offset: String(toApiPage(search.page) * limit) });
  if (search.query) params.set('query', search.query);
  return `${base}?${params.toString()}`;
}

export const usersKey = (search: PageQuerySearch) => listKey(USERS_URL, search, USERS_PAGE_SIZE);
export const userKey = (id: number) => `${USERS_URL}/${id}`;
export const membersKey = (search: { page: number }) => listKey(MEMBERS_URL, search, MEMBERS_PAGE_SIZE);
export const groupsKey = (search: { page: number }) => listKey(GROUPS_URL, search, GROUPS_PAGE_SIZE);
export const groupLinksKey = (search: PageQuerySearch) => listKey(GROUP_LINKS_URL, search, GROUP_LINKS_PAGE_SIZE);
export const LOCKS_KEY = listKey(LOCKS_URL, { page: 1 }, ALL_LOCKS);
export const roleAssignmentsKey = (userId: number) =>
  `${ROLE_ASSIGNMENTS_URL}?${new URLSearchParams({ user_id: String(userId), limit: String(ALL_ROLE_ASSIGNMENTS) }).toString()}`;

// ---- fetchers ----------------------------------------------------------------------------------

/** One page of a Kisi list: the bare array plus the numbers of `X-Collection-Range`. */
export type KisiPage<T> = { items: T[]; total: number; limit: number; offset: number };

export async function fetchKisiPage<T>(url: string): Promise<KisiPage<T>> {
  const { data, headers } = await requestWithHeaders<T[]>(url);
  const params = new URL(url, 'http://frontdesk.invalid').searchParams;
  const limit = Number(params.get('limit') ?? '10');
  const offset = Number(params.get('offset') ?? '0');
  const items = Array.isArray(data) ? data : [];
  // Without the header (it should always be there) the page knows only what it holds.
  const total = parseCollectionRange(headers.get('X-Collection-Range'))?.total ?? offset + items.length;
  return { items, total, limit, offset };
}

export const fetchUsers = (url: string) => fetchKisiPage<KisiUser>(url);
export const fetchMembers = (url: string) => fetchKisiPage<KisiMember>(url);
export const fetchGroups = (url: string) => fetchKisiPage<KisiGroup>(url);
export const fetchGroupLinks = (url: string) => fetchKisiPage<KisiGroupLink>(url);
export const fetchLocks = (url: string) => fetchKisiPage<KisiLock>(url);
export const fetchRoleAssignments = (url: string) => fetchKisiPage<KisiRoleAssignment>(url);
export const fetchUser = (url: string) => api.get<KisiUser>(url);

/** What a loader hands its page: the data, or why Kisi could not give it (shown inside the page). */
export type Loaded<T> = { data?: T; error?: string };

/**
 * A loader read of Kisi: cached or one try (no backoff, so an outage shows at once); 401 and 403
 * still go to the router (login, the 403 screen), and so does a 404 when `notFound` says what to
 * throw; anything else becomes the page's message.
 */
export async function loadKisi<T>(key: string, fetcher: (key: string) => Promise<T>, options: { notFound?: () => unknown } = {}): Promise<Loaded<T>> {
  try {
    return { data: await loadQueryOnce(key, fetcher) };
  } catch (error) {
    if (isApiError(error, 401) || isApiError(error, 403)) throw error;
    if (options.notFound && isApiError(error, 404)) throw options.notFound();
    return { error: kisiErrorMessage(error) };
  }
}

/**
 * The page side of `loadKisi`: the loader's data, kept fresh by SWR; `failure` is the sentence to
 * show when Kisi could not answer (the loader's, or the hook's own later failure).
 */
export function useKisi<T>(key: string, fetcher: (key: string) => Promise<T>, loaded: Loaded<T>) {
  const { data, error, isValidating, mutate } = useSWR<T>(key, fetcher, { fallbackData: loaded.data });
  const failure = error ? kisiErrorMessage(error) : data === undefined ? loaded.error : undefined;
  return { data, failure, isValidating, mutate, retry: () => void mutate() };
}

// ---- writes ------------------------------------------------------------------------------------

/**
 * Switches a user's door access. Kisi answers 204 and treats `scim_access_enabled` as read-only,
 * so the user is read again and that answer is what the pages show (`null`: switched, but the
 * read-back failed; the lists are refetched instead).
 */
export async function setUserAccess(id: number, enabled: boolean): Promise<KisiUser | null> {
  const body: KisiUserAccessUpdate = { user: { access_enabled: enabled, scim_access_enabled: enabled } };
  await api.patch(userKey(id), body);
  // Other pages of the users list and the members list show access too.
  const otherUserLists = [...swrCache.keys()].filter((k) => k.startsWith(`${USERS_URL}?`));
  await Promise.all([...otherUserLists.map((k) => invalidate(k)), invalidatePrefix(MEMBERS_URL)]);
  try {
    const user = await fetchUser(userKey(id));
    await setCacheData(userKey(id), user);
    return user;
  } catch {
    await invalidate(userKey(id));
    return null;
  }
}

export async function createGroup(input: { name: string; description: string }): Promise<KisiGroup> {
  const body: KisiGroupCreate = { group: { name: input.name, description: input.description.trim() || null } };
  const group = await api.post<KisiGroup>(GROUPS_URL, body);
  await invalidatePrefix(GROUPS_URL);
  return group;
}

export async function deleteGroup(id: number): Promise<void> {
  await api.delete(`${GROUPS_URL}/${id}`);
  // A group's links and role assignments go with it.
  await Promise.all([invalidatePrefix(GROUPS_URL), invalidatePrefix(GROUP_LINKS_URL), invalidatePrefix(ROLE_ASSIGNMENTS_URL)]);
}

/** A link for the configured group (the BFF fills in `group_id`), with an online QR code. */
export async function createGroupLink(input: { name: string; email: string }): Promise<KisiGroupLinkCreated> {
  const body: KisiGroupLinkCreate = { group_link: { name: input.name, email: input.email || null, quick_response_code_type: 'online' } };
  const link = await api.post<KisiGroupLinkCreated>(GROUP_LINKS_URL, body);
  await invalidatePrefix(GROUP_LINKS_URL);
  return link;
}

export async function deleteGroupLink(id: number): Promise<void> {
  await api.delete(`${GROUP_LINKS_URL}/${id}`);
  await invalidatePrefix(GROUP_LINKS_URL);
}

/** Kisi answers `{message: "Unlocked!"}`; a locked-down (409) or offline (503) door throws with Kisi's `{error}`. */
export async function unlockLock(id: number): Promise<string> {
  const answer = await api.post<{ message?: string }>(`${LOCKS_URL}/${id}/unlock`);
  await invalidate(LOCKS_KEY);
  return answer?.message ?? 'Unlocked!';
}
