import { data, redirect } from 'react-router';
import type { LoaderFunctionArgs, MiddlewareFunction, NonIndexRouteObject } from 'react-router';
import { authApi, type SessionUser } from '@contracts/auth.contract';
import { matchPage, needsSession, type Page } from '@pages/pages';
import { cachedData, invalidate } from './reads';
import { SESSION_KEY, askSession, loginRedirectFor, userContext } from './session';

/**
 * Who may open a page is said once, by its `for` in the page table (pages/pages.ts); these two follow it.
 *
 * The root route's middleware: a page that needs a session asks who is signed in before any loader
 * runs; nobody → the login, with the href wanted. A signed-in user known to the cache is used at once
 * and checked again in the background (the API refuses a read without a session anyway).
 */
export const sessionGate: MiddlewareFunction = async ({ request, context }) => {
  const url = new URL(request.url);
  const target = matchPage(url.pathname);
  if (!target || !needsSession(target.page)) return;
  const known = cachedData(SESSION_KEY) as SessionUser | null | undefined;
  if (known) {
    context.set(userContext, known);
    void invalidate(authApi.session);
    return;
  }
  let user: SessionUser | null;
  try {
    user = await askSession();
  } catch (error) {
    throw redirect(loginRedirectFor(url, error));
  }
  if (!user) throw redirect(loginRedirectFor(url));
  context.set(userContext, user);
};

/** Who a page is for, in words, for its 403 screen. */
const whoFor = (target: Page) => (target.for.includes('runner') ? 'runners and staff' : target.for.includes('staff') ? 'staff' : 'admins');

/**
 * A route of the table bound to its page: its module loads lazily, and its loader first answers the
 * 403 screen to a signed-in role the page is not for (a loader's error renders inside the layouts
 * above it, the shell's tabs kept).
 */
/** What a route module exports for the router. */
type RouteModule = Pick<NonIndexRouteObject, 'loader' | 'action' | 'Component' | 'ErrorBoundary' | 'handle' | 'shouldRevalidate'>;

export function pageRoute(target: Page, module: () => Promise<RouteModule>): () => Promise<RouteModule> {
  if (!needsSession(target)) return module;
  return async () => {
    const loaded = await module();
    return {
      ...loaded,
      loader: (args: LoaderFunctionArgs) => {
        const user = args.context.get(userContext);
        if (!target.for.includes(user.role)) {
          throw data(`This page is for ${whoFor(target)}. You are signed in as ${user.email} with the ${user.role} role.`, { status: 403, statusText: 'Forbidden' });
        }
        return typeof loaded.loader === 'function' ? loaded.loader(args) : null;
      },
    };
  };
}
