import { Suspense, lazy, useEffect } from 'react';
import type { ReactNode } from 'react';
import { isRouteErrorResponse, useRevalidator, useRouteError } from 'react-router';
import { JsonView } from '@/components/json-view';
import { ApiError, NetworkError } from '@/lib/api-client';
import { AppLink } from '@/lib/app-link';
import { pageReloader, shouldReloadFor } from '@/lib/chunk-reload';
import { paths } from '@/lib/paths';
import { Overlay } from './pending-overlay';

/*
 * What every error screen shares, and the error boundaries. This is in the entry script, so it
 * stays small: the screens for a page's errors (404, 403, the error screen with its pictures) are
 * in `error-screens.tsx`, loaded with the layout.
 */

export const NOT_FOUND_TEXT = 'Page not found.';
export const FORBIDDEN_TEXT = 'You do not have access to this page.';
export const ERROR_TEXT = 'An error occured while processing your request.'; // spelling as the spec gives it

/** What the error screens print: every error as plain JSON (an Error alone stringifies to {}). */
export function serializeError(error: unknown): unknown {
  if (isRouteErrorResponse(error)) {
    const { status, statusText, data } = error;
    return { status, statusText, data };
  }
  if (error instanceof ApiError || error instanceof NetworkError) return error.toJSON();
  if (error instanceof Error) return { name: error.name, message: error.message };
  return error ?? null;
}

function RepeatButton() {
  const revalidator = useRevalidator();
  return (
    <button type="button" className="link-button" onClick={() => void revalidator.revalidate()} disabled={revalidator.state !== 'idle'}>
      Repeat the operation
    </button>
  );
}

/** The "Try:" items the screens pick from. */
export const tries = {
  refreshPage: (
    <button type="button" className="link-button" onClick={() => pageReloader.reload()}>
      Refresh the page
    </button>
  ),
  mainPage: <AppLink to={paths.home}>Return to Main Page</AppLink>,
  reloadApp: (
    <button type="button" className="link-button" onClick={() => window.location.assign(paths.home)}>
      Reload the application
    </button>
  ),
  repeat: <RepeatButton />,
};

export function CheckConnection() {
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  return (
    <>
      Check your internet connection
      {offline ? <span className="muted"> (this browser is offline)</span> : null}
    </>
  );
}

/** The frame the screens share: a banner, an illustration beside a "Try:" list, the error as JSON. */
export function FallbackScreen({
  tone,
  title,
  detail,
  illustration,
  tryItems,
  error,
  jsonOpen = true,
}: {
  tone: 'warning' | 'danger';
  title: string;
  detail?: string;
  illustration?: ReactNode;
  tryItems: ReactNode[];
  error: unknown;
  jsonOpen?: boolean;
}) {
  return (
    <section className="fallback-screen" aria-labelledby="fallback-title">
      <div className={`banner banner-${tone}`} role="alert">
        {/* The screen's one h1 (it takes a page's place), drawn as the banner's bold words. */}
        <h1 id="fallback-title" className="fallback-title">
          {title}
        </h1>
        {detail ? <> <span>{detail}</span></> : null}
      </div>
      <div className="fallback-body">
        {illustration}
        <div className="fallback-text">
          <h2>Try:</h2>
          <ul className="try-list">
            {tryItems.map((item, index) => (
              <li key={index}>{item}</li>
            ))}
          </ul>
        </div>
      </div>
      <JsonView value={serializeError(error)} open={jsonOpen} />
    </section>
  );
}

// One decision per error object, so re-renders (and StrictMode) never claim a reload twice.
const reloadDecisions = new WeakMap<object, boolean>();
function decideReload(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  let decision = reloadDecisions.get(error);
  if (decision === undefined) {
    decision = shouldReloadFor(error);
    reloadDecisions.set(error, decision);
  }
  return decision;
}

/** A failed chunk reloads the page once per message (the overlay shows meanwhile): true while that happens. */
export function useChunkReload(error: unknown): boolean {
  const reload = decideReload(error);
  useEffect(() => {
    if (reload) pageReloader.reload();
  }, [reload]);
  return reload;
}

/** The page error screens' code: fetched with the layout, so it is there before any page can fail. */
export const loadErrorScreens = () => import('./error-screens');
const PageErrorScreen = lazy(() => loadErrorScreens().then(({ PageErrorScreen }) => ({ default: PageErrorScreen })));

/**
 * The error boundary of every page, inside the layout: a failed chunk reloads once per message,
 * anything else gets its screen (see `PageErrorScreen`). It is here rather than with the screens
 * because a boundary must be known before the route's code loads: an access check that refuses
 * the page runs before then.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (useChunkReload(error)) return <Overlay />;
  return (
    <Suspense fallback={null}>
      <PageErrorScreen error={error} />
    </Suspense>
  );
}

/**
 * The outermost boundary, for a failure of the layout itself (its code did not load, or it threw):
 * the error screen page-wide, without the layout's header or the screens' pictures.
 */
export function RootErrorBoundary() {
  const error = useRouteError();
  if (useChunkReload(error)) return <Overlay />;
  return (
    <div className="app-frame">
      <main id="main" className="main">
        <FallbackScreen tone="danger" title={ERROR_TEXT} tryItems={[tries.refreshPage, tries.reloadApp, <CheckConnection />]} error={error} />
      </main>
    </div>
  );
}
