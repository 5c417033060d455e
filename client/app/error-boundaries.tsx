import { Suspense, useEffect } from 'react';
import { useRouteError } from 'react-router';
import { pageReloader, shouldReloadFor } from '@/lib/chunk-reload';
import { CheckConnection, ERROR_TEXT, FallbackScreen, tries } from './fallback-screen';
import { Overlay } from './pending-overlay';
import { preloadedComponent } from '@/lib/preloaded-component';

/*
 * The error boundaries, in the entry script: a boundary must be known before the route's code
 * loads. The screens they show for a page's errors load with the layout (`error-screens.tsx`).
 */

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
const pageErrorScreen = preloadedComponent(() => import('./error-screens').then(({ PageErrorScreen }) => PageErrorScreen));
export const startErrorScreens = pageErrorScreen.start;

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
      <pageErrorScreen.Component error={error} />
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
