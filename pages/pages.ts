import type { Access, Role } from '../bff/contracts/endpoint.contract';

/**
 * Every page of the SPA, written once: its path pattern (`:name` stands for one path segment) and who
 * may open it. The client's route table lists exactly these (client/app/route-pages.test.ts), its guards,
 * header and home cards follow `for` (client/lib/page-guard.ts, client/lib/areas.ts), its links are built
 * from the patterns (client/lib/paths.ts), and the BFF answers an address that matches none with the
 * not-found screen and status 404, and preloads a page's first reads only for who may open it.
 * This module holds no schema: the entry script imports it.
 */

/** Who opens the app: a role of a signed-in account, or a visitor (a diner, a guest, no account). */
export type Audience = Role | 'visitor';

export const EVERYONE = ['visitor', 'runner', 'staff', 'admin'] as const satisfies readonly Audience[];
/** Anyone signed in: the staff shell, the chat, the runner board. */
export const WORKERS = ['runner', 'staff', 'admin'] as const satisfies readonly Audience[];
/** The front desk. */
export const DESK = ['staff', 'admin'] as const satisfies readonly Audience[];
export const ADMINS = ['admin'] as const satisfies readonly Audience[];

export type Page = { readonly path: string; readonly for: readonly Audience[] };
const page = <const P extends string>(path: P, audience: readonly Audience[]) => ({ path, for: audience });

export const pages = {
  home: page('/', EVERYONE),
  about: page('/about', EVERYONE),
  counter: page('/counter', EVERYONE),
  sidepanel: page('/sidepanel', EVERYONE),
  selfTest: page('/test', EVERYONE),
  windphony: page('/windphony', EVERYONE),
  pending: page('/pending', EVERYONE),
  error: page('/error', EVERYONE),
  bad: page('/bad', EVERYONE),
  arcos: page('/arcos', EVERYONE),
  arco: page('/arcos/:id', EVERYONE),
  login: page('/login', EVERYONE),
  /** An invitation link's page; the secret rides in the fragment (`/join#…`), which never reaches a server or a log. */
  join: page('/join', EVERYONE),
  /** A password reset link's page (`/reset#…`). */
  resetPassword: page('/reset', EVERYONE),
  gymOwners: page('/gymowners', DESK),
  gymOwner: page('/gymowners/:id', DESK),
  shell: page('/shell', WORKERS),
  shellApi: page('/shell/api', WORKERS),
  shellEmpty: page('/shell/empty', WORKERS),
  shellContain: page('/shell/contain', WORKERS),
  shellWebhook: page('/shell/webhook', DESK),
  shellAudit: page('/shell/audit', ADMINS),
  team: page('/shell/team', ADMINS),
  /** Backups and how long records are kept (decisions 0096, 0097). */
  operations: page('/shell/operations', ADMINS),
  account: page('/shell/account', WORKERS),
  shellSse: page('/shell/sse', WORKERS),
  chat: page('/shell/chat', WORKERS),
  chatGrid: page('/shell/chat/grid', WORKERS),
  chatFlex: page('/shell/chat/flex', WORKERS),
  uploadOne: page('/shell/upload/1', DESK),
  uploadMany: page('/shell/upload/2', DESK),
  posts: page('/shell/posts', DESK),
  post: page('/shell/posts/:postId', DESK),
  postDeep: page('/shell/posts/:postId/deep', DESK),
  conversations: page('/shell/nuhs/basic', DESK),
  conversation: page('/shell/nuhs/basic/:conversationId', DESK),
  gymMembers: page('/shell/gymowner/users', DESK),
  /** Before the member's page: `import` is no member id (the first page a path matches is its page). */
  gymMembersImport: page('/shell/gymowner/users/import', DESK),
  gymMember: page('/shell/gymowner/users/:id', DESK),
  gymMemberUnlocks: page('/shell/gymowner/users/:id/unlocks', DESK),
  gymMemberLinks: page('/shell/gymowner/users/:id/group_links', DESK),
  kisi: page('/kisi', ADMINS),
  kisiUsers: page('/kisi/users', ADMINS),
  kisiUser: page('/kisi/users/:user_id', ADMINS),
  kisiMembers: page('/kisi/members', ADMINS),
  kisiGroups: page('/kisi/groups', ADMINS),
  kisiGroupLinks: page('/kisi/group_links', ADMINS),
  kisiLocks: page('/kisi/locks', ADMINS),
  pt: page('/pt', EVERYONE),
  ptStalls: page('/pt/stalls', EVERYONE),
  ptStall: page('/pt/stalls/:id', EVERYONE),
  ptDinerMenu: page('/pt/diner/menu', EVERYONE),
  ptCart: page('/pt/diner/cart', EVERYONE),
  ptOrder: page('/pt/diner/order', EVERYONE),
  ptRunner: page('/pt/runner', WORKERS),
  ptKitchens: page('/pt/kitchen', WORKERS),
  ptKitchen: page('/pt/kitchen/:stallId', WORKERS),
  ptTables: page('/pt/tables', DESK),
  ptReports: page('/pt/reports', DESK),
  pieces: page('/pieces', EVERYONE),
  piece: page('/pieces/:id', EVERYONE),
  part: page('/parts/:id', EVERYONE),
  rick: page('/rick', EVERYONE),
  pokemonList: page('/pokemon', EVERYONE),
  pokemon: page('/pokemon/:idOrName', EVERYONE),
  quiz: page('/quesg', EVERYONE),
  help: page('/help', EVERYONE),
} as const satisfies Record<string, Page>;

export type PageName = keyof typeof pages;

/** Whether `audience` may open the page (a visitor: only a public page). */
export const mayOpen = (target: Page, audience: Audience): boolean => target.for.includes(audience);

/** Whether `audience` may call an endpoint of this access, as the API decides (admins may call any). */
export const mayCall = (audience: Audience, access: Access): boolean =>
  access === 'public' || (audience !== 'visitor' && (access === 'user' || audience === 'admin' || access.includes(audience)));

/** Whether the page needs a signed-in account. */
export const needsSession = (target: Page): boolean => !target.for.includes('visitor');

/**
 * A pattern as React Router matches it (its `compilePath` for a path without `*` or optional
 * segments): case-insensitive, any number of trailing slashes, a `:param` one non-empty segment.
 */
const matcherOf = (pattern: string): RegExp => {
  const source = pattern
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `/(?<${segment.slice(1)}>[^/]+)` : `/${segment.replace(/[\\.*+^${}|()[\]]/g, '\\$&')}`))
    .join('');
  return new RegExp(`^${source || '/'}/*$`, 'i');
};

/** Each segment percent-decoded as React Router decodes a location (a decoded `/` stays in its segment). */
const decodePathname = (pathname: string): string => {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname; // malformed percent-encoding: React Router matches the path as it came
  }
};

let matchers: Array<[name: PageName, matcher: RegExp]> | undefined;

/** The page at `pathname` (a URL's path, still percent-encoded) as the router would find it, with its params; undefined: no page. */
export function matchPage(pathname: string): { name: PageName; page: Page; params: Record<string, string> } | undefined {
  matchers ??= (Object.keys(pages) as PageName[]).map((name) => [name, matcherOf(pages[name].path)]);
  const decoded = decodePathname(pathname);
  for (const [name, matcher] of matchers) {
    const found = matcher.exec(decoded);
    if (found) return { name, page: pages[name], params: { ...found.groups } };
  }
  return undefined;
}

/** Whether the app has a page at `pathname` (a URL's path, still percent-encoded), as its router would decide. */
export const isPagePath = (pathname: string): boolean => matchPage(pathname) !== undefined;
