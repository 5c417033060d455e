import { useSyncExternalStore } from 'react';
import { createContext, data, redirect, useRouteLoaderData } from 'react-router';
import type { LoaderFunctionArgs, MiddlewareFunction, RouterContextProvider } from 'react-router';
import type { SessionUser } from '@contracts/auth.contract';
import type { Role } from '@contracts/endpoint.contract';
import { call, errorMessage, isApiError, keyFor, sessionRefused } from './api-client';
import { cachedData, fetchQuery, invalidate, setQueryData } from './cache';
import { write } from './endpoint-write';
import { firstScreenApi } from './first-screen-api';
import { loginPath } from './paths';

/**
 * Who is signed in, as the header and /shell see it (null: nobody). Read from `GET /api/auth/session`,
 * which answers a visitor `{ user: null }`: a 401 would be an error in the console of every public page
 * (docs/decisions/0066).
 */
export const SESSION_KEY = keyFor(firstScreenApi.session);

export async function fetchSession(): Promise<SessionUser | null> {
  return (await call(firstScreenApi.session)).user;
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

/**
 * Route middleware of /shell: asks the server who the user is before any loader runs. On failure
 * it redirects to /login carrying the error and the wanted href; on success the user goes into the
 * route context (and the header's cache).
 *
 * When the header's cache already knows a signed-in user, that answer is used at once and the
 * check runs in the background: waiting for it held every move inside /shell for a round trip (a
 * revisit of a cached list took 30–80 ms instead of one frame). The server still refuses a page's
 * reads without a session (401 → the login redirect), and a background answer of "nobody" empties
 * the cache, so the next navigation waits for the check again.
 */
export const requireUser: MiddlewareFunction = async ({ request, context }) => {
  const known = cachedData(SESSION_KEY) as SessionUser | null | undefined;
  if (known) {
    context.set(userContext, known);
    void invalidate(firstScreenApi.session);
    return;
  }
  const url = new URL(request.url);
  let user: SessionUser | null;
  try {
    // Into the cache as fresh: the header's session read then shows it without asking a second time
    // (on a first load that second request went out with the first paint and held it back).
    user = await fetchQuery(SESSION_KEY, fetchSession);
  } catch (error) {
    throw redirect(loginRedirectFor(url, error));
  }
  if (!user) throw redirect(loginRedirectFor(url));
  context.set(userContext, user);
};

/** The id of the /shell route: its loader hands every page below it the signed-in user. */
export const SHELL_ROUTE_ID = 'shell';

/** The /shell route's loader: the user `requireUser` put in the context. */
export const shellLoader = ({ context }: LoaderFunctionArgs) => ({ user: context.get(userContext) });

/** The signed-in user, for pages under /shell (from `shellLoader`, so its type is the loader's). */
export function useShellUser(): SessionUser {
  const loaded = useRouteLoaderData<typeof shellLoader>(SHELL_ROUTE_ID);
  if (!loaded) throw new Error('useShellUser() is only for routes under /shell');
  return loaded.user;
}

/**
 * The 403 screen's answer unless the signed-in user (put in the context by `requireUser`) has one of
 * the roles; admins have every role. `who` names the roles in words ("admins", "staff").
 */
function assertRole(context: Readonly<RouterContextProvider>, roles: readonly Role[], who: string): void {
  const user = context.get(userContext);
  if (!hasRole(user, roles)) throw data(`This page is for ${who}. You are signed in as ${user.email} with the ${user.role} role.`, { status: 403, statusText: 'Forbidden' });
}

/**
 * Route middleware after `requireUser` for areas of some roles (/kisi, the runner board): anyone else
 * gets the 403 screen before any loader asks the API (which would refuse with 403 anyway).
 */
export const requireRole =
  (roles: readonly Role[], who: string): MiddlewareFunction =>
  ({ context }) =>
    assertRole(context, roles, who);

/**
 * The same check as a loader, for pages inside /shell: a middleware that throws stops every loader,
 * the shell's too, so its 403 would replace the shell; a loader's renders inside it, tabs kept.
 */
export const roleLoader =
  (roles: readonly Role[], who: string) =>
  ({ context }: { context: Readonly<RouterContextProvider> }) => {
    assertRole(context, roles, who);
    return null;
  };

export const requireAdmin = requireRole([], 'admins');

/** Does this account have one of the roles (admins have every role)? */
export const hasRole = (user: SessionUser | null | undefined, roles: readonly Role[]): boolean => !!user && (user.role === 'admin' || roles.includes(user.role));

/** Pages for the front desk's staff (and admins). */
export const requireStaff = requireRole(['staff'], 'staff');
/** The food court's runner board: runners, staff and admins. */
export const requireRunner = requireRole(['runner', 'staff'], 'runners and staff');
/** The same checks for pages inside /shell (see `roleLoader`). */
export const staffOnly = roleLoader(['staff'], 'staff');
export const runnersAndStaffOnly = roleLoader(['runner', 'staff'], 'runners and staff');
export const adminsOnly = roleLoader([], 'admins');

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
 * browser (the tabs share the cookie, not the page), or refused by the server (a 401 to a write).
 * The page stays as it is, typed text and all, until the person signs in again (in another tab,
 * which says so here) or leaves.
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
  void invalidate(firstScreenApi.session);
});
sessionRefused.addEventListener('refused', endedIfSignedIn);

export const useSessionEnded = () =>
  useSyncExternalStore(
    (listener) => (endedListeners.add(listener), () => void endedListeners.delete(listener)),
    () => sessionEnded,
  );

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
export const signOut = write(firstScreenApi.logout, {
  apply: async () => {
    forgetDrafts();
    sessionNews?.postMessage('signed-out');
    setQueryData(SESSION_KEY, null);
    await invalidate(firstScreenApi.session);
  },
});
