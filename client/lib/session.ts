import { useSyncExternalStore } from 'react';
import { createContext, useRouteLoaderData } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { authApi, type SessionUser } from '@contracts/auth.contract';
import type { Role } from '@contracts/endpoint.contract';
import { errorMessage, fetcherFor, isApiError, keyFor, sessionRefused } from './api-client';
import { cachedData, invalidate, setQueryData, type Query } from './reads';
import { write } from './endpoint-write';
import { loginPath } from './paths';

/**
 * Who is signed in, as the header and /shell see it (null: nobody). Read from `GET /api/auth/session`,
 * which answers a visitor `{ user: null }`: a 401 would be an error in the console of every public page.
 */
export const SESSION_KEY = keyFor(authApi.session);
const fetchSessionAnswer = fetcherFor(authApi.session);
export const sessionRead: Query<SessionUser | null> = { key: SESSION_KEY, fetcher: async (key) => (await fetchSessionAnswer(key)).user };

/**
 * Who is signed in, before a page's first paint: what the cache knows, else one read of the server
 * (the HTML has it under way), kept for the header. A failure throws: the caller decides what it means.
 */
export async function askSession(): Promise<SessionUser | null> {
  const known = cachedData(SESSION_KEY) as SessionUser | null | undefined;
  if (known !== undefined) return known;
  const user = await sessionRead.fetcher(SESSION_KEY);
  setQueryData(SESSION_KEY, user);
  return user;
}

/** The cache knows nobody is signed in (the header's session read said nobody). */
export const isSignedOut = () => cachedData(SESSION_KEY) === null;

export const userContext = createContext<SessionUser>();

/** The flash /login shows when a protected page turned the visitor away (no error: nobody is signed in). */
export function signInFlash(error?: unknown): string {
  return error === undefined || isApiError(error, 401) ? 'Please sign in to continue.' : `Could not check your session: ${errorMessage(error)}`;
}

/** `/login?flash=…&redirect=<the href wanted>` for a URL that needs a session. */
export function loginRedirectFor(url: { pathname: string; search: string; hash: string }, error?: unknown): string {
  return loginPath({ flash: signInFlash(error), redirect: url.pathname + url.search + url.hash });
}

/** The id of the /shell route: its loader hands every page below it the signed-in user. */
export const SHELL_ROUTE_ID = 'shell';

/** The /shell route's loader: the user the session gate put in the context. */
export const shellLoader = ({ context }: LoaderFunctionArgs) => ({ user: context.get(userContext) });

/** The signed-in user, for pages under /shell (from `shellLoader`, so its type is the loader's). */
export function useShellUser(): SessionUser {
  const loaded = useRouteLoaderData<typeof shellLoader>(SHELL_ROUTE_ID);
  if (!loaded) throw new Error('useShellUser() is only for routes under /shell');
  return loaded.user;
}

/** Does this account have one of the roles (admins have every role)? */
export const hasRole = (user: SessionUser | null | undefined, roles: readonly Role[]): boolean => !!user && (user.role === 'admin' || roles.includes(user.role));

/** Where the tab keeps half-written messages (lib/drafts.ts), each under its owner: signing out forgets them all. */
export const DRAFT_KEY_PREFIX = 'frontdesk.draft.';
function forgetDrafts() {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(DRAFT_KEY_PREFIX)) sessionStorage.removeItem(key);
  } catch {
    // storage refused: nothing was kept
  }
}

/**
 * Whether the session this page was shown with ended under it: signed out in another tab of this
 * browser (the tabs share the cookie, not the page), refused by the server (a 401 to a write), or
 * ended elsewhere (the live stream's last word: an admin deactivated the account, or ended its
 * sessions). The page stays as it is, typed text and all, and its live stream stays closed, until
 * the person signs in again (in another tab, which says so here) or leaves.
 */
let sessionEnded = false;
const endedListeners = new Set<() => void>();
function setSessionEnded(ended: boolean) {
  if (ended === sessionEnded) return;
  sessionEnded = ended;
  endedListeners.forEach((listener) => listener());
}
const endedIfSignedIn = () => setSessionEnded(Boolean(cachedData(SESSION_KEY)));
const sessionNews = typeof BroadcastChannel === 'function' ? new BroadcastChannel('frontdesk.session') : undefined;
// (Node's channel, in the client tests, would keep the test process alive; a browser's has no unref.)
(sessionNews as { unref?: () => void } | undefined)?.unref?.();
sessionNews?.addEventListener('message', (event: MessageEvent) => {
  if (event.data !== 'signed-in') return endedIfSignedIn();
  setSessionEnded(false);
  void invalidate(authApi.session);
});
sessionRefused.addEventListener('refused', endedIfSignedIn);

/** The server said the page's session ended, and could not be asked again (the live stream's last word). */
export const markSessionEnded = () => setSessionEnded(true);

/** Told each time the page's session ends or comes back (the live stream closes and reopens with it). */
export const subscribeSessionEnded = (listener: () => void): (() => void) => (endedListeners.add(listener), () => void endedListeners.delete(listener));

/** The page's session ended under it (outside React: the live stream). */
export const isSessionEnded = () => sessionEnded;

export const useSessionEnded = () => useSyncExternalStore(subscribeSessionEnded, isSessionEnded);

/**
 * The live stream was told its session ended, or was refused: asks `GET /api/auth/session` once
 * whether this browser is still signed in. Nobody: the page says it is signed out. Someone (signed
 * in again meanwhile, in another tab): true, and the stream may go on. A failed read throws: the
 * server could not say (the database away), and the caller keeps what it knew.
 */
export async function stillSignedIn(): Promise<boolean> {
  const user = await sessionRead.fetcher(SESSION_KEY);
  if (!user) setSessionEnded(true);
  return user !== null;
}

/** For tests: a new page starts with its session. */
export const resetSessionEnded = () => setSessionEnded(false);

/** Signed in on this tab: the others that lost their session carry on. */
export function announceSignIn() {
  setSessionEnded(false);
  sessionNews?.postMessage('signed-in');
}

/**
 * Nobody is signed in now: the header and /shell's check see it at once (docs/decisions/0001-one-way-to-write.md),
 * the tab's half-written messages go with the person, and the browser's other tabs are told.
 */
export const signOut = write(authApi.logout, {
  apply: async () => {
    forgetDrafts();
    sessionNews?.postMessage('signed-out');
    setQueryData(SESSION_KEY, null);
    await invalidate(authApi.session);
  },
});
