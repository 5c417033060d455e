import * as v from 'valibot';
import { gymApi, type CreateMember, type CreateOwner, type GymMember, type GymOwner, type Membership, type UpdateMember } from '@contracts/gym.contract';
import { idText } from '@contracts/common.contract';
import { call, fetcherFor, keyFor } from '@/lib/api-client';
import { invalidate, setQueryData } from '@/lib/cache';
import { pageParam, parseSearch, toApiPage } from '@/lib/search-params';

/**
 * The gym area's data layer: keys and fetchers of its reads (keys name the endpoint and its input), and the writes
 * with the endpoints each one invalidates.
 */
export const MEMBERSHIP_VALUES = ['active', 'paused', 'cancelled'] as const satisfies readonly Membership[];
export const PAGE_SIZE = 10;

// ---- search params of the list pages (every key falls back silently) -----------------------

const ownerIdParam = v.fallback(idText(), 0);
const membershipParam = v.fallback(v.picklist(['', ...MEMBERSHIP_VALUES]), '');
const queryParam = v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), '');

export const OwnersSearchSchema = v.object({ page: pageParam, query: queryParam });
export type OwnersSearch = v.InferOutput<typeof OwnersSearchSchema>;

export const MembersSearchSchema = v.object({ page: pageParam, query: queryParam, ownerId: ownerIdParam, membership: membershipParam });
export type MembersSearch = v.InferOutput<typeof MembersSearchSchema>;

export const OwnerPageSearchSchema = v.object({ page: pageParam });

export const parseOwnersSearch = (url: URL | URLSearchParams) => parseSearch(OwnersSearchSchema, url);
export const parseMembersSearch = (url: URL | URLSearchParams) => parseSearch(MembersSearchSchema, url);

// ---- keys and fetchers -----------------------------------------------------------------------

/** `GET /api/gym/owners?page=<0-based>…` for a 1-based URL page. */
export const ownersKey = (search: { page: number; query?: string }, pageSize = PAGE_SIZE) =>
  keyFor(gymApi.listOwners, { query: { page: toApiPage(search.page), pageSize, query: search.query } });

/** Every owner (up to the API's maximum page), for pickers and filters. */
export const OWNER_CHOICES_KEY = keyFor(gymApi.listOwners, { query: { page: 0, pageSize: 100 } });

export const ownerKey = (id: number | string) => keyFor(gymApi.getOwner, { params: { id } });

export const membersKey = (search: { page: number; query?: string; ownerId?: number; membership?: Membership | '' }) =>
  keyFor(gymApi.listMembers, {
    query: {
      page: toApiPage(search.page),
      pageSize: PAGE_SIZE,
      query: search.query,
      ownerId: search.ownerId || undefined,
      membership: search.membership || undefined,
    },
  });

export const memberKey = (id: number | string) => keyFor(gymApi.getMember, { params: { id } });
export const memberAccessKey = (id: number | string) => keyFor(gymApi.doorAccess, { params: { id } });

export const fetchOwnerPage = fetcherFor(gymApi.listOwners);
export const fetchOwner = fetcherFor(gymApi.getOwner);
export const fetchMemberPage = fetcherFor(gymApi.listMembers);
export const fetchMember = fetcherFor(gymApi.getMember);
export const fetchDoorAccess = fetcherFor(gymApi.doorAccess);

// ---- invalidation ----------------------------------------------------------------------------

/** Owner lists, pickers and owner details (member counts change with members). */
const invalidateOwners = () => Promise.all([invalidate(gymApi.listOwners), invalidate(gymApi.getOwner)]);

// ---- writes ----------------------------------------------------------------------------------

export async function createOwner(input: CreateOwner): Promise<GymOwner> {
  const owner = await call(gymApi.createOwner, { body: input });
  await invalidateOwners();
  return owner;
}

export async function deleteOwner(id: number): Promise<void> {
  await call(gymApi.deleteOwner, { params: { id } });
  await invalidateOwners();
}

export async function createMember(input: CreateMember): Promise<GymMember> {
  const member = await call(gymApi.createMember, { body: input });
  await Promise.all([invalidate(gymApi.listMembers), invalidateOwners()]);
  return member;
}

/** A changed member goes straight into the cache; lists, counts and the live door state refresh. */
export async function updateMember(id: number, patch: UpdateMember): Promise<GymMember> {
  const member = await call(gymApi.updateMember, { params: { id }, body: patch });
  setQueryData(memberKey(id), member);
  await Promise.all([
    invalidate(gymApi.listMembers),
    invalidate(gymApi.doorAccess, { params: { id } }),
    patch.ownerId !== undefined ? invalidateOwners() : undefined,
  ]);
  return member;
}

/** Retries switching the member's door access to match the membership. */
export async function retryDoorAccess(id: number): Promise<GymMember> {
  const member = await call(gymApi.syncDoorAccess, { params: { id } });
  setQueryData(memberKey(id), member);
  await Promise.all([invalidate(gymApi.listMembers), invalidate(gymApi.doorAccess, { params: { id } })]);
  return member;
}

export async function deleteMember(id: number): Promise<void> {
  await call(gymApi.deleteMember, { params: { id } });
  // The member's own reads are not read again: that would only answer 404.
  await Promise.all([
    invalidate(gymApi.getMember, { params: { id } }, { gone: true }),
    invalidate(gymApi.doorAccess, { params: { id } }, { gone: true }),
    invalidate(gymApi.listMembers),
    invalidateOwners(),
  ]);
}
