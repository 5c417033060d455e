import { fillPath, type PathParamNames } from '@contracts/endpoint.contract';
import { pages, type PageName } from '@pages/pages';

type Id = string | number;

/** A page without parameters is its path; a page with a `:param` needs a builder (the compiler checks each has one). */
type Links = { [K in PageName]: [PathParamNames<(typeof pages)[K]['path']>] extends [never] ? string : (id: Id) => string };

/** Each page's pattern by name. */
const patterns = Object.fromEntries(Object.entries(pages).map(([name, { path }]) => [name, path])) as { [K in PageName]: (typeof pages)[K]['path'] };

/**
 * Every page's link, from its pattern in the pages contract (the one list of the app's pages, which
 * the router and the BFF's 404s also follow): a page with a `:param` gets a builder. Build links
 * with these, never with string literals.
 */
export const paths = {
  ...patterns,
  arco: (id: Id) => fillPath(pages.arco.path, { id }),
  gymOwner: (id: Id) => fillPath(pages.gymOwner.path, { id }),
  gymMember: (id: Id) => fillPath(pages.gymMember.path, { id }),
  gymMemberLinks: (id: Id) => fillPath(pages.gymMemberLinks.path, { id }),
  gymMemberUnlocks: (id: Id) => fillPath(pages.gymMemberUnlocks.path, { id }),
  kisiUser: (id: Id) => fillPath(pages.kisiUser.path, { user_id: id }),
  ptStall: (id: Id) => fillPath(pages.ptStall.path, { id }),
  ptKitchen: (stallId: Id) => fillPath(pages.ptKitchen.path, { stallId }),
  // The spec writes the list with its trailing slash; the router matches it either way.
  conversations: `${pages.conversations.path}/`,
  conversation: (id: Id) => fillPath(pages.conversation.path, { conversationId: id }),
  piece: (id: Id) => fillPath(pages.piece.path, { id }),
  part: (id: Id) => fillPath(pages.part.path, { id }),
  pokemon: (idOrName: Id) => fillPath(pages.pokemon.path, { idOrName }),
  post: (id: Id) => fillPath(pages.post.path, { postId: id }),
  postDeep: (id: Id) => fillPath(pages.postDeep.path, { postId: id }),
} as const satisfies Links;

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
