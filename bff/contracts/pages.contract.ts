/**
 * Every page of the SPA as a path pattern (`:name` stands for one path segment), written once:
 * the client's route table (client/app/router.tsx) must list exactly these (a client test walks it),
 * the client's links are built from them (client/lib/paths.ts), and the BFF answers an address that
 * matches none with the app's not-found screen and status 404 (bff/lib/static.middleware.ts).
 * A page whose data is missing (`/pieces/999999`) still matches: only its loader can tell.
 */
export const pages = {
  home: '/',
  about: '/about',
  counter: '/counter',
  sidepanel: '/sidepanel',
  selfTest: '/test',
  windphony: '/windphony',
  pending: '/pending',
  error: '/error',
  bad: '/bad',
  arcos: '/arcos',
  arco: '/arcos/:id',
  login: '/login',
  gymOwners: '/gymowners',
  gymOwner: '/gymowners/:id',
  shell: '/shell',
  shellApi: '/shell/api',
  shellEmpty: '/shell/empty',
  shellContain: '/shell/contain',
  shellWebhook: '/shell/webhook',
  shellAudit: '/shell/audit',
  shellSse: '/shell/sse',
  chat: '/shell/chat',
  chatGrid: '/shell/chat/grid',
  chatFlex: '/shell/chat/flex',
  uploadOne: '/shell/upload/1',
  uploadMany: '/shell/upload/2',
  posts: '/shell/posts',
  post: '/shell/posts/:postId',
  postDeep: '/shell/posts/:postId/deep',
  conversations: '/shell/nuhs/basic',
  conversation: '/shell/nuhs/basic/:conversationId',
  gymMembers: '/shell/gymowner/users',
  gymMember: '/shell/gymowner/users/:id',
  gymMemberUnlocks: '/shell/gymowner/users/:id/unlocks',
  gymMemberLinks: '/shell/gymowner/users/:id/group_links',
  kisi: '/kisi',
  kisiUsers: '/kisi/users',
  kisiUser: '/kisi/users/:user_id',
  kisiMembers: '/kisi/members',
  kisiGroups: '/kisi/groups',
  kisiGroupLinks: '/kisi/group_links',
  kisiLocks: '/kisi/locks',
  pt: '/pt',
  ptStalls: '/pt/stalls',
  ptStall: '/pt/stalls/:id',
  ptDinerMenu: '/pt/diner/menu',
  ptCart: '/pt/diner/cart',
  ptOrder: '/pt/diner/order',
  ptRunner: '/pt/runner',
  ptKitchens: '/pt/kitchen',
  ptKitchen: '/pt/kitchen/:stallId',
  ptTables: '/pt/tables',
  ptReports: '/pt/reports',
  pieces: '/pieces',
  piece: '/pieces/:id',
  part: '/parts/:id',
  rick: '/rick',
  pokemonList: '/pokemon',
  pokemon: '/pokemon/:idOrName',
  quiz: '/quesg',
  help: '/help',
} as const;

export type PageName = keyof typeof pages;

/**
 * A pattern as React Router matches it (its `compilePath` for a path without `*` or optional
 * segments): case-insensitive, any number of trailing slashes, a `:param` one non-empty segment.
 */
const matcherOf = (pattern: string): RegExp => {
  const source = pattern
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? '/[^/]+' : `/${segment.replace(/[\\.*+^${}|()[\]]/g, '\\$&')}`))
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

let matchers: Array<[pattern: string, matcher: RegExp]> | undefined;

/** The pattern of the page at `pathname` (a URL's path, still percent-encoded) as its router would find it; undefined: no page. */
export function pagePatternOf(pathname: string): string | undefined {
  matchers ??= Object.values(pages).map((pattern) => [pattern, matcherOf(pattern)]);
  const decoded = decodePathname(pathname);
  return matchers.find(([, matcher]) => matcher.test(decoded))?.[0];
}

/** Whether the app has a page at `pathname` (a URL's path, still percent-encoded), as its router would decide. */
export const isPagePath = (pathname: string): boolean => pagePatternOf(pathname) !== undefined;
