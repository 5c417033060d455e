import { useEffect, useRef } from 'react';
import type { FocusEvent, MouseEvent, TouchEvent } from 'react';
import { Link, NavLink, matchRoutes, useHref, useLocation } from 'react-router';
import type { LinkProps, NavLinkProps, Params, RouteObject } from 'react-router';
import { matchPage, needsSession } from '@pages/pages';
import { isSignedOut } from './session';

/** Route `handle` of a screen that can warm its data before a navigation. */
export type PreloadHandle = { preload?: (args: { params: Params; url: URL }) => void };

export const PRELOAD_DELAY_MS = 50;

let preloadRoutes: RouteObject[] = [];
/** router.tsx hands its route table over, so links can match hrefs without importing the router. */
export function registerPreloadRoutes(routes: RouteObject[]) {
  preloadRoutes = routes;
}

type LazyModule = { handle?: PreloadHandle } | undefined;

/**
 * Loads the code of every route `href` matches and asks each for its data preload. Failures are
 * swallowed: a hover must never reload the page or show an error. Pages behind a session are not
 * asked for data while nobody is signed in: they would only answer 401 (their code still loads).
 */
export async function preloadHref(href: string): Promise<void> {
  const url = new URL(href, window.location.href);
  if (url.origin !== window.location.origin) return;
  const matches = matchRoutes(preloadRoutes, url.pathname) ?? [];
  const page = matchPage(url.pathname)?.page;
  const wantsData = !(isSignedOut() && page && needsSession(page));
  await Promise.all(
    matches.map(async ({ route, params }) => {
      try {
        let handle = route.handle as PreloadHandle | undefined;
        if (typeof route.lazy === 'function') {
          const mod = (await route.lazy()) as LazyModule;
          handle = handle ?? mod?.handle;
        } else if (route.lazy) {
          await Promise.all(Object.values(route.lazy).map((load) => (typeof load === 'function' ? load() : undefined)));
        }
        if (wantsData) handle?.preload?.({ params, url });
      } catch {
        // a failed warm-up is retried by the real navigation
      }
    }),
  );
}

type IntentHandlers = {
  onMouseEnter?: (event: MouseEvent<HTMLAnchorElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLAnchorElement>) => void;
  onFocus?: (event: FocusEvent<HTMLAnchorElement>) => void;
  onBlur?: (event: FocusEvent<HTMLAnchorElement>) => void;
  onTouchStart?: (event: TouchEvent<HTMLAnchorElement>) => void;
};

/** Preload after 50 ms of hover or focus; leaving or blurring earlier cancels it. */
function useIntentPreload(href: string, enabled: boolean, handlers: IntentHandlers): Required<IntentHandlers> {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const location = useLocation();
  const current = location.pathname + location.search;
  useEffect(() => () => clearTimeout(timer.current), []);
  const start = () => {
    if (!enabled || href === current) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void preloadHref(href), PRELOAD_DELAY_MS);
  };
  const cancel = () => clearTimeout(timer.current);
  return {
    onMouseEnter: (e) => (handlers.onMouseEnter?.(e), start()),
    onFocus: (e) => (handlers.onFocus?.(e), start()),
    onTouchStart: (e) => (handlers.onTouchStart?.(e), start()),
    onMouseLeave: (e) => (handlers.onMouseLeave?.(e), cancel()),
    onBlur: (e) => (handlers.onBlur?.(e), cancel()),
  };
}

type PreloadOption = { /** Warm code and data on intent (default true). */ preload?: boolean };

/** The app's one link: preloads on intent and navigates with a view transition. */
export function AppLink({ preload = true, viewTransition = true, ...props }: LinkProps & PreloadOption) {
  const href = useHref(props.to);
  const handlers = useIntentPreload(href, preload && !props.reloadDocument, props);
  return <Link {...props} {...handlers} viewTransition={viewTransition} />;
}

/** AppLink for navigation menus: marks the current section with aria-current. */
export function AppNavLink({ preload = true, viewTransition = true, ...props }: NavLinkProps & PreloadOption) {
  const href = useHref(props.to);
  const handlers = useIntentPreload(href, preload, props);
  return <NavLink {...props} {...handlers} viewTransition={viewTransition} />;
}
