import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Navigate, isRouteErrorResponse, useLocation, useRevalidator, useRouteError } from 'react-router';
import { JsonView } from '@/components/json-view';
import { ApiError, NetworkError, isApiError } from '@/lib/api-client';
import { pageReloader, shouldReloadFor } from '@/lib/chunk-reload';
import { loginRedirectFor } from '@/lib/session';
import { BrokenIllustration, LostIllustration } from './illustrations';
import { Overlay } from './pending-overlay';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';

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

export function isForbidden(error: unknown): boolean {
  return (isRouteErrorResponse(error) && error.status === 403) || isApiError(error, 403);
}

export function isNotFound(error: unknown): boolean {
  return (isRouteErrorResponse(error) && error.status === 404) || isApiError(error, 404);
}

function reloadPage() {
  pageReloader.reload();
}

function reloadApp() {
  window.location.assign(paths.home);
}

function RepeatButton() {
  const revalidator = useRevalidator();
  return (
    <button type="button" className="link-button" onClick={() => void revalidator.revalidate()} disabled={revalidator.state !== 'idle'}>
      Repeat the operation
    </button>
  );
}

function MainPageLink() {
  return <AppLink to={paths.home}>Return to Main Page</AppLink>;
}

/** The frame the three screens share: a banner, an illustration beside a "Try:" list, the error as JSON. */
function FallbackScreen({
  tone,
  title,
  detail,
  illustration,
  tries,
  error,
  jsonOpen = true,
}: {
  tone: 'warning' | 'danger';
  title: string;
  detail?: string;
  illustration: ReactNode;
  tries: ReactNode[];
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
            {tries.map((item, index) => (
              <li key={index}>{item}</li>
            ))}
          </ul>
        </div>
      </div>
      <JsonView value={serializeError(error)} open={jsonOpen} />
    </section>
  );
}

const reloadAppButton = (
  <button type="button" className="link-button" onClick={reloadApp}>
    Reload the application
  </button>
);

export function NotFoundScreen({ error }: { error: unknown }) {
  return <FallbackScreen tone="warning" title={NOT_FOUND_TEXT} illustration={<LostIllustration />} tries={[<MainPageLink />, reloadAppButton, <RepeatButton />]} error={error} />;
}

/** A signed-in account without the role a page needs (403): says so, and where to go instead. */
export function ForbiddenScreen({ error }: { error: unknown }) {
  const reason =
    isRouteErrorResponse(error) && typeof error.data === 'string'
      ? error.data
      : isApiError(error)
        ? error.message
        : 'Your account does not have the role this page needs.';
  return (
    <FallbackScreen
      tone="warning"
      title={FORBIDDEN_TEXT}
      detail={reason}
      illustration={<LostIllustration />}
      tries={[<MainPageLink />, <AppLink to={paths.shell}>Go to the staff shell</AppLink>, 'Ask an admin for access, or sign in with an admin account']}
      error={error}
      jsonOpen={false}
    />
  );
}

export function ErrorScreen({ error }: { error: unknown }) {
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  return (
    <FallbackScreen
      tone="danger"
      title={ERROR_TEXT}
      illustration={<BrokenIllustration />}
      tries={[
        <button type="button" className="link-button" onClick={reloadPage}>
          Refresh the page
        </button>,
        <MainPageLink />,
        reloadAppButton,
        <RepeatButton />,
        <>
          Check your internet connection
          {offline ? <span className="muted"> (this browser is offline)</span> : null}
        </>,
      ]}
      error={error}
    />
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

/**
 * The error boundary of the app: a failed chunk reloads once per message, a 401 goes to the
 * login, a 404 shows not-found, a 403 says the account lacks the role, anything else the error screen.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const reload = decideReload(error);
  useEffect(() => {
    if (reload) pageReloader.reload();
  }, [reload]);
  if (reload) return <Overlay />;
  if (isApiError(error, 401)) return <Navigate to={loginRedirectFor(location, error)} replace />;
  if (isNotFound(error)) return <NotFoundScreen error={error} />;
  if (isForbidden(error)) return <ForbiddenScreen error={error} />;
  return <ErrorScreen error={error} />;
}

/** The outermost boundary, for a failure of the layout itself: the same screens, page-wide. */
export function RootErrorBoundary() {
  return (
    <div className="app-frame">
      <main id="main" className="main">
        <RouteErrorBoundary />
      </main>
    </div>
  );
}
