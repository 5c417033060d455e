import assert from 'node:assert/strict';
import type { APIRequestContext } from 'playwright-core';
import type { RouteObject } from 'react-router';
import { pages } from '../pages/pages';
import { routes } from '../client/app/router';
import { routeLeaves } from '../client/app/route-pages';
import type { ExpectedFailure } from './harness';

/**
 * The pages of the SPA, read from its own route table (client/app/router.tsx), so that a page
 * added there is covered by the browser tests that walk every page without anyone listing it.
 * Importing the table runs none of the screens: they load lazily, and only the static layout,
 * error screens and middleware come along.
 */
export type Access = 'visitor' | 'staff' | 'admin';

/** A page: its path pattern (`/gymowners/:id`; `*` for the not-found catch-all) and who may open it. */
export type RoutePage = { pattern: string; access: Access };

/** Who opens a page in the tests: anyone, the desk's staff, or only an admin (its `for` in pages/pages.ts). */
function accessOf(pattern: string): Access {
  const page = Object.values(pages).find((p) => p.path === pattern);
  if (!page || page.for.includes('visitor')) return 'visitor';
  return page.for.includes('staff') ? 'staff' : 'admin';
}

/** Every leaf of the tree (an index route stands at its parent's path), in the table's order. */
export function routePages(list: RouteObject[] = routes): RoutePage[] {
  return routeLeaves(list).map(({ pattern }) => ({ pattern, access: accessOf(pattern) }));
}

/** What the catch-all is opened at: a path that is no page, so the BFF answers the app with 404. */
export const NO_SUCH_PAGE = '/no-such-page';

/** The browser logs the not-found document's 404 as a failed resource: expected there (see watchProblems). */
export const NOT_FOUND_DOCUMENT: ExpectedFailure = { path: NO_SUCH_PAGE, status: 404 };

/**
 * A URL to open for a pattern: each `:param` takes the sample id given for the pattern up to it
 * (`/gymowners/:id` → `ids['/gymowners/:id']`), and the catch-all `*` a path nothing else matches.
 */
export function urlFor(pattern: string, ids: Record<string, string>): string {
  const segments = pattern.split('/');
  return segments
    .map((segment, i) => {
      if (segment === '*') return NO_SUCH_PAGE.slice(1);
      if (!segment.startsWith(':')) return segment;
      const key = segments.slice(0, i + 1).join('/');
      const id = ids[key];
      if (id === undefined) throw new Error(`No sample id for ${key}: give one in the test's sample ids (a real id from the seeded demo data).`);
      return encodeURIComponent(id);
    })
    .join('/');
}

/** A seeded person who is both a gym member and a Kisi user, so their pages show door access, unlocks and role assignments. */
export const SAMPLE_PERSON = 'alice.moreau@mail.example';

/** Real ids from the seeded demo data for the `:params` of the route table (`request`: an admin's). */
export async function sampleIds(request: APIRequestContext): Promise<Record<string, string>> {
  const get = async <T>(url: string): Promise<T> => {
    const res = await request.get(url);
    assert.equal(res.status(), 200, `${url}: ${res.status()}`);
    return (await res.json()) as T;
  };
  const members = await get<{ items: { id: number; ownerId: number }[] }>(`/api/gym/users?query=${encodeURIComponent(SAMPLE_PERSON)}`);
  const member = members.items[0];
  assert.ok(member, `the demo data has no gym member ${SAMPLE_PERSON}`);
  const kisiUsers = await get<{ id: number; email: string }[]>('/api/kisi/users');
  const kisiUser = kisiUsers.find((u) => u.email === SAMPLE_PERSON);
  assert.ok(kisiUser, `the Kisi emulator has no user ${SAMPLE_PERSON}`);
  const stalls = await get<{ items: { id: number }[] }>('/api/pt/stalls?pageSize=1');
  const stall = stalls.items[0];
  assert.ok(stall, 'the demo data has no food-court stall');
  const conversations = await get<{ items: { id: number }[] }>('/api/conversations?status=all&pageSize=1');
  const conversation = conversations.items[0];
  assert.ok(conversation, 'the demo data has no help conversation');
  // The seeded catalogue's newest piece and most used part, by the numbers their pages are reached by.
  const [piece] = (await get<{ items: { number: string }[] }>('/api/rest/pieces?pageSize=1')).items;
  const [part] = (await get<{ items: { number: string }[] }>('/api/rest/parts?pageSize=1')).items;
  assert.ok(piece && part, 'the demo data has no catalogue');
  return {
    '/arcos/:id': '4',
    '/gymowners/:id': String(member.ownerId),
    '/shell/gymowner/users/:id': String(member.id),
    '/kisi/users/:user_id': String(kisiUser.id),
    '/pt/stalls/:id': String(stall.id),
    '/pt/kitchen/:stallId': String(stall.id),
    '/shell/nuhs/basic/:conversationId': String(conversation.id),
    '/pieces/:id': piece.number,
    '/parts/:id': part.number,
    // The sample pages: the first post of JSONPlaceholder, the first Pokémon.
    '/shell/posts/:postId': '1',
    '/pokemon/:idOrName': '1',
  };
}
