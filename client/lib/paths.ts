/** Every route path of the SPA, in one place. Build links with these, never with string literals. */
export const paths = {
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
  arco: (id: string | number) => `/arcos/${encodeURIComponent(String(id))}`,
  login: '/login',
  shell: '/shell',
  shellApi: '/shell/api',
  shellEmpty: '/shell/empty',
  shellContain: '/shell/contain',
  shellWebhook: '/shell/webhook',
  shellSse: '/shell/sse',
  gymOwners: '/gymowners',
  gymOwner: (id: string | number) => `/gymowners/${encodeURIComponent(String(id))}`,
  gymMembers: '/shell/gymowner/users',
  gymMember: (id: string | number) => `/shell/gymowner/users/${encodeURIComponent(String(id))}`,
  gymMemberLinks: (id: string | number) => `/shell/gymowner/users/${encodeURIComponent(String(id))}/group_links`,
  kisi: '/kisi',
  kisiUsers: '/kisi/users',
  kisiUser: (id: string | number) => `/kisi/users/${encodeURIComponent(String(id))}`,
  kisiMembers: '/kisi/members',
  kisiGroups: '/kisi/groups',
  kisiGroupLinks: '/kisi/group_links',
  kisiLocks: '/kisi/locks',
  gymMemberUnlocks: (id: string | number) => `/shell/gymowner/users/${encodeURIComponent(String(id))}/unlocks`,
  pt: '/pt',
  ptStalls: '/pt/stalls',
  ptStall: (id: string | number) => `/pt/stalls/${encodeURIComponent(String(id))}`,
  ptDinerMenu: '/pt/diner/menu',
  ptCart: '/pt/diner/cart',
  ptRunner: '/pt/runner',
  ptTables: '/pt/tables',
  chat: '/shell/chat',
  chatGrid: '/shell/chat/grid',
  chatFlex: '/shell/chat/flex',
  conversations: '/shell/nuhs/basic/',
  conversation: (id: string | number) => `/shell/nuhs/basic/${encodeURIComponent(String(id))}`,
  help: '/help',
  pieces: '/pieces',
  piece: (id: string | number) => `/pieces/${encodeURIComponent(String(id))}`,
  part: (id: string | number) => `/parts/${encodeURIComponent(String(id))}`,
  uploadOne: '/shell/upload/1',
  uploadMany: '/shell/upload/2',
  rick: '/rick',
  pokemonList: '/pokemon',
  pokemon: (idOrName: string | number) => `/pokemon/${encodeURIComponent(String(idOrName))}`,
  quiz: '/quesg',
  posts: '/shell/posts',
  post: (id: string | number) => `/shell/posts/${encodeURIComponent(String(id))}`,
  postDeep: (id: string | number) => `/shell/posts/${encodeURIComponent(String(id))}/deep`,
} as const;

/** `/login?flash=…&redirect=…` (only non-empty params are written). */
export function loginPath(options: { flash?: string; redirect?: string } = {}): string {
  const search = new URLSearchParams();
  if (options.flash) search.set('flash', options.flash);
  if (options.redirect) search.set('redirect', options.redirect);
  const query = search.toString();
  return query ? `${paths.login}?${query}` : paths.login;
}

/**
 * The diner menu for a table (what each table's QR code links to) and/or one stall's section;
 * only the params given are written.
 */
export function dinerMenuPath({ table, stall }: { table?: number | null; stall?: number | null } = {}): string {
  const search = new URLSearchParams();
  if (table) search.set('table', String(table));
  if (stall) search.set('stall', String(stall));
  const query = search.toString();
  return query ? `${paths.ptDinerMenu}?${query}` : paths.ptDinerMenu;
}

/** The guests' help page, with the table filled in when the guest is at one (the diner pages know it). */
export function helpPath({ table }: { table?: number | null } = {}): string {
  return table ? `${paths.help}?${new URLSearchParams({ table: String(table) }).toString()}` : paths.help;
}

/**
 * Where to go after a login: `redirect` only when it is a path on this origin ("/x", not
 * "//evil.example", "https://…", "/\\evil" or "javascript:"); otherwise the staff shell.
 */
export function safeRedirect(redirect: string | null | undefined, fallback: string = paths.shell): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return fallback;
  try {
    const base = 'http://frontdesk.invalid';
    const url = new URL(redirect, base);
    if (url.origin !== base) return fallback;
    if (url.pathname.startsWith(paths.login)) return fallback; // never loop back to the form
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
