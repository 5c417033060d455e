import { Component, Suspense, useEffect } from 'react';
import type { ReactNode } from 'react';
import { useRouteError } from 'react-router';
import { pageReloader, shouldReloadFor } from '@/lib/chunk-reload';
import { ERROR_TEXT } from './error-texts';
import { Overlay } from './pending-overlay';
import { preloadedComponent } from '@/lib/preloaded-component';

/*
 * The error boundaries, in the entry script: a boundary must be known before the route's code
 * loads. The screens they show (`error-screens.tsx`) are fetched only when there is an error to
 * show: a first visit without one never pays for them.
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

const pageErrorScreen = preloadedComponent(() => import('./error-screens').then(({ PageErrorScreen }) => PageErrorScreen));
const rootErrorScreen = preloadedComponent(() => import('./error-screens').then(({ RootErrorScreen }) => RootErrorScreen));

/**
 * The error boundary of every page, inside the layout: a failed chunk reloads once per message,
 * anything else gets its screen (see `PageErrorScreen`). It is here rather than with the screens
 * because a boundary must be known before the route's code loads: an access check that refuses
 * the page runs before then. Should the screens' own code fail to load, the error goes on to the
 * outermost boundary, which can say so without it.
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
 * The outermost boundary, for a failure of the layout itself (it threw) or of a page's error
 * screen: the error screen page-wide (`RootErrorScreen`), or, when even its code cannot be fetched
 * (the network is gone), the banner and a way to retry, which need no code of their own.
 */
export function RootErrorBoundary() {
  const error = useRouteError();
  if (useChunkReload(error)) return <Overlay />;
  return (
    <WithoutScreenCode>
      <Suspense fallback={null}>
        <rootErrorScreen.Component error={error} />
      </Suspense>
    </WithoutScreenCode>
  );
}

/** The last resort when the error screen's code did not load: written here, so it always can show. */
class WithoutScreenCode extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="app-frame">
        <main id="main" className="main">
          <div className="banner banner-danger" role="alert">
            <h1 className="fallback-title">{ERROR_TEXT}</h1>
          </div>
          <p>
            Check your internet connection, then{' '}
            <button type="button" className="link-button" onClick={() => pageReloader.reload()}>
              refresh the page
            </button>
            .
          </p>
        </main>
      </div>
    );
  }
}
