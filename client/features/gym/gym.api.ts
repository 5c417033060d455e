import * as v from 'valibot';
import type { Page } from '@contracts/common.contract';
import type { CreateMember, CreateOwner, GymMember, GymOwner, Membership, MemberDoorAccess, UpdateMember } from '@contracts/gym.contract';
import type { KisiGroupLink, KisiGroupLinkCreate, KisiGroupLinkCreated } from '@contracts/kisi.contract';
import { api } from '@/lib/api-client';
import { invalidate, invalidatePrefix, setCacheData, swrCache } from '@/lib/cache';
import { pageParam, parseSearch, toApiPage, withQuery } from '@/lib/search-params';

/**
 * The gym area's data layer: SWR keys are the API URLs themselves (so a prefix names a whole
 * family of list pages), fetchers, and the writes with the keys each one invalidates.
 */
export const MEMBERSHIP_VALUES = ['active', 'paused', 'cancelled'] as const satisfies readonly Membership[];
export const PAGE_SIZE = 10;

export const OWNERS_URL = '/api/gym/owners';
export const MEMBERS_URL = '/api/gym/users';

// ---- search params of the list pages (every key falls back silently) -----------------------

const ownerIdParam = v.fallback(v.pipe(v.string(), v.regex(/^[1-9]\d{0,9}$/), v.toNumber()), 0);
const membershipParam = v.fallback(v.picklist(['', ...MEMBERSHIP_VALUES]), '');
const queryParam = v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), '');

export const OwnersSearchSchema = v.object({ page: pageParam, query: queryParam });
export type OwnersSearch = v.InferOutput<typeof OwnersSearchSchema>;

export const MembersSearchSchema = v.object({ page: pageParam, query: queryParam, ownerId: ownerIdParam, membership: membershipParam });
export type MembersSearch = v.InferOutput<typeof MembersSearchSchema>;

export const OwnerPageSearchSchema = v.object({ page: pageParam });

export const parseOwnersSearch = (url: URL | URLSearchParams) => parseSearch(OwnersSearchSchema, url);
export const parseMembersSearch = (url: URL | URLSearchParams) => parseSearch(MembersSearchSchema, url);

// ---- keys ------------------------------------------------------------------------------------

/** `GET /api/gym/owners?page=<0-based>…` for a 1-based URL page. */
export const ownersKey = (search: { page: number; query?: string }, pageSize = PAGE_SIZE) =>
  withQuery(OWNERS_URL, { page: toApiPage(search.page), pageSize, query: search.query });

/** Every owner (up to the API's maximum page), for pickers and filters. */
export const OWNER_CHOICES_KEY = withQuery(OWNERS_URL, { page: 0, pageSize: 100 });

export const ownerKey = (id: number | string) => `${OWNERS_URL}/${id}`;

export const membersKey = (search: { page: number; query?: string; ownerId?: number; membership?: string }) =>
  withQuery(MEMBERS_URL, {
    page: toApiPage(search.page),
    pageSize: PAGE_SIZE,
    query: search.query,
    ownerId: search.ownerId || undefined,
    membership: search.membership || undefined,
  });

export const memberKey = (id: number | string) => `${MEMBERS_URL}/${id}`;
export const memberAccessKey = (id: number | string) => `${MEMBERS_URL}/${id}/access`;

// ---- fetchers --------------------------------------------------------------------------------

export const fetchOwnerPage = (url: string) => api.get<Page<GymOwner>>(url);
export const fetchOwner = (url: string) => api.get<GymOwner>(url);
export const fetchMemberPage = (url: string) => api.get<Page<GymMember>>(url);
export const fetchMember = (url: string) => api.get<GymMember>(url);
export const fetchDoorAccess = (url: string) => api.get<MemberDoorAccess>(url);

// ---- invalidation ----------------------------------------------------------------------------

/** Owner lists, pickers and owner details (member counts change with members). */
const invalidateOwners = () => invalidatePrefix(OWNERS_URL);
/** Member lists only (not the member details under /api/gym/users/:id). */
async function invalidateMemberLists() {
  const keys = [...swrCache.keys()].filter((k) => k.startsWith(`${MEMBERS_URL}?`));
  await Promise.all(keys.map((k) => invalidate(k)));
}

// ---- writes ----------------------------------------------------------------------------------

export async function createOwner(input: CreateOwner): Promise<GymOwner> {
  const owner = await api.post<GymOwner>(OWNERS_URL, input);
  await invalidateOwners();
  return owner;
}

export async function deleteOwner(id: number): Promise<void> {
  await api.delete(ownerKey(id));
  await invalidateOwners();
}

export async function createMember(input: CreateMember): Promise<GymMember> {
  const member = await api.post<GymMember>(MEMBERS_URL, input);
  await Promise.all([invalidateMemberLists(), invalidateOwners()]);
  return member;
}

/** A changed member goes straight into the cache; lists, counts and the live door state refresh. */
export async function updateMember(id: number, patch: UpdateMember): Promise<GymMember> {
  const member = await api.patch<GymMember>(memberKey(id), patch);
  await setCacheData(memberKey(id), member);
  await Promise.all([invalidateMemberLists(), invalidate(memberAccessKey(id)), patch.ownerId !== undefined ? invalidateOwners() : undefined]);
  return member;
}

/** Retries switching the member's door access to match the membership. */
export async function retryDoorAccess(id: number): Promise<GymMember> {
  const member = await api.post<GymMember>(`${memberAccessKey(id)}/sync`);
  await setCacheData(memberKey(id), member);
  await Promise.all([invalidateMemberLists(), invalidate(memberAccessKey(id))]);
  return member;
}

export async function deleteMember(id: number): Promise<void> {
  await api.delete(memberKey(id));
  // Gone: drop the member's own entries without refetching them (that would only answer 404).
  swrCache.delete(memberKey(id));
  swrCache.delete(memberAccessKey(id));
  await Promise.all([invalidateMemberLists(), invalidateOwners()]);
}

// ---- the member's Kisi access links (through the Kisi proxy; staff read, admins write) -------

export const GROUP_LINKS_URL = '/api/kisi/group_links';

/** Kisi's `query` is a substring search; the page keeps only the links with exactly this email. */
export const memberLinksKey = (email: string) => `${GROUP_LINKS_URL}?${new URLSearchParams({ query: email, limit: '100' }).toString()}`;

export async function fetchMemberLinks(url: string): Promise<KisiGroupLink[]> {
  const email = new URL(url, 'http://x').searchParams.get('query')?.toLowerCase() ?? '';
  const links = await api.get<KisiGroupLink[]>(url);
  return links.filter((link) => link.email?.toLowerCase() === email);
}

export async function createGroupLink(input: { name: string; email: string; validUntil: string | null }): Promise<KisiGroupLinkCreated> {
  const body: KisiGroupLinkCreate = {
    group_link: { name: input.name, email: input.email, quick_response_code_type: 'online', ...(input.validUntil ? { valid_until: input.validUntil } : {}) },
  };
  const link = await api.post<KisiGroupLinkCreated>(GROUP_LINKS_URL, body);
  await invalidatePrefix(GROUP_LINKS_URL);
  return link;
}

export async function deleteGroupLink(id: number): Promise<void> {
  await api.delete(`${GROUP_LINKS_URL}/${id}`);
  await invalidatePrefix(GROUP_LINKS_URL);
}
