import * as v from 'valibot';
import type { Endpoint, EndpointOutput } from '@contracts/endpoint.contract';
import { KisiErrorSchema, KisiValidationErrorsSchema, kisiApi, parseCollectionRange, type KisiGroupLink, type KisiGroupLinkCreate, type KisiUser } from '@contracts/kisi.contract';
import { gymApi } from '@contracts/gym.contract';
import { kisiUserRead } from '@pages/kisi.reads';
import { errorMessage, isApiError, responseFetcherFor, type QueryKey } from './api-client';
import { invalidate, query, setQueryData, type Query } from './reads';
import { queryOf } from './route-reads';
import { write } from './endpoint-write';
import { formErrors, type FieldOf, type FormErrors } from './problem-fields';

/**
 * The one client module for Kisi, used by the /kisi pages and the gym member page alike: every
 * call goes through the BFF's proxy as a Kisi endpoint object (bff/contracts/kisi.contract.ts), so
 * the shapes are Kisi's own. Kisi's error bodies pass through the proxy unchanged (`{error, code}`,
 * 422 `{errors: {field: [messages]}}`) and are read with their schemas; the BFF's own refusals are problems.
 */

// ---- access links --------------------------------------------------------------------------------

/**
 * Whether an access link opens doors now, as the desk reads it: Kisi keeps a link past its
 * valid-until "enabled", but it opens nothing then. One wording for the member's tab and /kisi/group_links.
 */
export function linkState(link: { link_enabled: boolean; valid_until: string | null }, now = Date.now()): { label: 'Enabled' | 'Disabled' | 'Expired'; badge: string } {
  if (link.valid_until && Date.parse(link.valid_until) <= now) return { label: 'Expired', badge: 'badge-bad' };
  return link.link_enabled ? { label: 'Enabled', badge: 'badge-ok' } : { label: 'Disabled', badge: 'badge-muted' };
}

/**
 * A new link's QR code as an image source. Kisi sends the PNG as bare base64 (its schema: "a
 * Base64-encoded PNG image"), as the emulator does; a data URL is taken as it is.
 */
export const qrImageSrc = (image: string): string => (image.startsWith('data:') ? image : `data:image/png;base64,${image}`);

// ---- errors --------------------------------------------------------------------------------------

/** Kisi's own body of a failed call (not a BFF problem), parsed with `schema`. */
function kisiBody<T>(error: unknown, schema: v.GenericSchema<unknown, T>): T | undefined {
  if (!isApiError(error) || error.problem) return undefined;
  try {
    const parsed = v.safeParse(schema, JSON.parse(error.body));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** A sentence for a failed Kisi call: Kisi's `{error}` text, a BFF problem's detail, or the usual. */
export function kisiErrorMessage(error: unknown): string {
  return kisiBody(error, KisiErrorSchema)?.error ?? errorMessage(error);
}

/** Kisi's field name and messages as one sentence ("Name can't be blank"). */
const fieldSentence = (field: string, messages: string[]) => `${field.replace(/_/g, ' ')} ${messages.join(', ')}`.replace(/^./, (c) => c.toUpperCase());

/**
 * The form field of a path in a Kisi body (`group_link.valid_until`), by its Kisi name: `fields`
 * maps Kisi's names to the form's, as for `kisiFormErrors`.
 */
export const kisiFieldOf =
  <F extends string>(fields: Record<string, F>): FieldOf<F> =>
  (path) => {
    const name = path.split('.').at(-1) ?? '';
    return Object.hasOwn(fields, name) ? fields[name] : undefined;
  };

/**
 * A failed Kisi write as form errors: each 422 message on the form's field for that Kisi field
 * (`fields` maps Kisi's names to the form's), the others together as the form message; any other
 * failure is the form message.
 */
export function kisiFormErrors<F extends string>(error: unknown, fields: Record<string, F>): FormErrors<F> {
  const invalid = kisiBody(error, KisiValidationErrorsSchema);
  // The BFF's own refusal (a day pass that has already ended) names its fields as every problem does.
  if (!invalid) return isApiError(error) && error.problem ? formErrors(error, kisiFieldOf(fields)) : { fields: {}, form: kisiErrorMessage(error) };
  const result: FormErrors<F> = { fields: {} };
  const unplaced: string[] = [];
  for (const [name, messages] of Object.entries(invalid.errors)) {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (field) result.fields[field] = fieldSentence(name, messages);
    else unplaced.push(fieldSentence(name, messages));
  }
  return { ...result, form: unplaced.join(' ') || undefined };
}

// ---- reads ---------------------------------------------------------------------------------------

/** One page of a Kisi list: the bare array plus the numbers of `X-Collection-Range`. */
export type KisiPage<T> = { items: T[]; total: number; limit: number; offset: number };

export type KisiList = typeof kisiApi.listUsers | typeof kisiApi.listMembers | typeof kisiApi.listGroups | typeof kisiApi.listGroupLinks | typeof kisiApi.listLocks | typeof kisiApi.listRoleAssignments;
type Item<E extends KisiList> = EndpointOutput<E>[number];

/** What the client holds for a Kisi read: a list's page with its paging numbers, anything else as Kisi answers it. */
export type KisiOutput<E extends Endpoint> = E extends KisiList ? KisiPage<Item<E>> : EndpointOutput<E>;

/** The fetcher of a Kisi list's keys (an endpoint that pages by `X-Collection-Range`): the page and its paging numbers. */
export function kisiPageFetcher(endpoint: Endpoint) {
  const fetchWithHeaders = responseFetcherFor(endpoint);
  return async (key: QueryKey): Promise<KisiPage<unknown>> => {
    const { data, headers } = await fetchWithHeaders(key);
    const limit = Number(key[1].query.limit ?? '10');
    const offset = Number(key[1].query.offset ?? '0');
    const items = data as unknown[];
    // Without the header (it should always be there) the page knows only what it holds.
    const total = parseCollectionRange(headers.get('X-Collection-Range'))?.total ?? offset + items.length;
    return { items, total, limit, offset };
  };
}

// ---- access links (the /kisi list and a gym member's tab read the same endpoint) -----------------

/**
 * A person's access links: Kisi's `query` is a substring search, so the links with exactly their
 * email. Read after the member (it needs their email); an outage of Kisi shows inside the tab.
 */
export function linksOf(email: string): Query<KisiGroupLink[]> & { outage: 'in-page' } {
  const links = query(kisiApi.listGroupLinks, { query: { query: email, limit: 100 } });
  const wanted = email.toLowerCase();
  return {
    key: links.key,
    fetcher: async (key) => (await links.fetcher(key)).filter((link) => link.email?.toLowerCase() === wanted),
    outage: 'in-page',
  };
}

// Writes (docs/decisions/0001-one-way-to-write.md). The /kisi list and a member's tab read the same links.

/** The body of a new link for the configured group (the BFF fills in `group_id`), with an online QR code; a blank email or date is none. */
export const groupLinkBody = (input: { name: string; email: string; validFrom?: string | null; validUntil?: string | null }): KisiGroupLinkCreate => ({
  group_link: {
    name: input.name,
    email: input.email || null,
    quick_response_code_type: 'online',
    ...(input.validFrom ? { valid_from: input.validFrom } : {}),
    ...(input.validUntil ? { valid_until: input.validUntil } : {}),
  },
});

/** Kisi's names of a new link's fields, and the forms' (its 422 lands on them). */
export const LINK_FIELDS = { name: 'name', email: 'email', valid_from: 'validFrom', valid_until: 'validUntil' } as const;

export const createGroupLink = write(kisiApi.createGroupLink, { stale: [kisiApi.listGroupLinks] });
export const deleteGroupLink = write(kisiApi.deleteGroupLink, { stale: [kisiApi.listGroupLinks] });

// ---- the other writes ----------------------------------------------------------------------------

/**
 * Every users page and the members list show access too, and so do the gym's door card and member
 * list (an open member page said "Doors open for them" after a switch here until "Check Kisi now").
 */
const updateUser = write(kisiApi.updateUser, { stale: [kisiApi.listUsers, kisiApi.listMembers, gymApi.doorAccess, gymApi.listMembers] });

/**
 * Switches a user's door access. Kisi answers 204 and treats `scim_access_enabled` as read-only,
 * so the user is read again and that answer is what the pages show (`null`: switched, but the
 * read-back failed; the user's entry is dropped and read again where shown).
 */
export async function setUserAccess(id: number, enabled: boolean): Promise<KisiUser | null> {
  await updateUser({ params: { id }, body: { user: { access_enabled: enabled, scim_access_enabled: enabled } } });
  const { key, fetcher } = queryOf(kisiUserRead(id));
  try {
    const user = await fetcher(key);
    setQueryData(key, user);
    return user;
  } catch {
    await invalidate(kisiApi.getUser, { params: { id } });
    return null;
  }
}

export const createGroup = write(kisiApi.createGroup, { stale: [kisiApi.listGroups] });
/** A group's links and role assignments go with it. */
export const deleteGroup = write(kisiApi.deleteGroup, { stale: [kisiApi.listGroups, kisiApi.listGroupLinks, kisiApi.listRoleAssignments] });

/** Kisi answers `{message: "Unlocked!"}`; a locked-down (409) or offline (503) door throws with Kisi's `{error}`. */
export const unlockLock = write(kisiApi.unlockLock, { stale: [kisiApi.listLocks] });
