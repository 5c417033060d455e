import { useEffect, useRef, useState } from 'react';
import { Navigate, isRouteErrorResponse, useLocation, useNavigate, useNavigation } from 'react-router';
import { isApiError, isServiceUnavailable, unavailableRetryMs, type ApiError } from '@/lib/api-client';
import { loginRedirectFor } from '@/lib/session';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { CheckConnection, FallbackScreen, tries } from './fallback-screen';
import { ERROR_TEXT, FORBIDDEN_TEXT, NOT_FOUND_TEXT, UNAVAILABLE_TEXT } from './error-texts';
import { BrokenIllustration, LostIllustration } from './illustrations';

export function isForbidden(error: unknown): boolean {
  return (isRouteErrorResponse(error) && error.status === 403) || isApiError(error, 403);
}

export function isNotFound(error: unknown): boolean {
  return (isRouteErrorResponse(error) && error.status === 404) || isApiError(error, 404);
}

export function NotFoundScreen({ error }: { error: unknown }) {
  return <FallbackScreen tone="warning" title={NOT_FOUND_TEXT} illustration={<LostIllustration />} tryItems={[tries.mainPage, tries.reloadApp, tries.repeat]} error={error} />;
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
      tryItems={[tries.mainPage, <AppLink to={paths.shell}>Go to the staff shell</AppLink>, 'Ask an admin for access, or sign in with an account that has it']}
      error={error}
      jsonOpen={false}
    />
  );
}

export function ErrorScreen({ error }: { error: unknown }) {
  return (
    <FallbackScreen
      tone="danger"
      title={ERROR_TEXT}
      illustration={<BrokenIllustration />}
      tryItems={[tries.refreshPage, tries.mainPage, tries.reloadApp, tries.repeat, <CheckConnection />]}
      error={error}
    />
  );
}

/**
 * A 503 (the database is away, the instance is stopping): not an error of the page, a wait. Says so,
 * counts down the server's Retry-After and then loads the page again by itself (its loaders run
 * again); another 503 starts the count again, an answer shows the page. No error JSON: nothing here
 * is for the person to read or report.
 */
export function UnavailableScreen({ error }: { error: ApiError }) {
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();
  const waitMs = unavailableRetryMs(error);
  const [left, setLeft] = useState(Math.ceil(waitMs / 1000));
  const trying = navigation.state === 'loading';
  const here = `${location.pathname}${location.search}${location.hash}`;
  // The same address again: its loaders run anew, and an answer replaces this screen with the page.
  const tryAgain = () => void navigate(here, { replace: true, preventScrollReset: true });
  const retry = useRef(tryAgain);
  useEffect(() => {
    retry.current = tryAgain;
  });
  useEffect(() => {
    const started = Date.now();
    setLeft(Math.ceil(waitMs / 1000));
    const tick = setInterval(() => setLeft(Math.max(Math.ceil((waitMs - (Date.now() - started)) / 1000), 0)), 1000);
    const timer = setTimeout(() => retry.current(), waitMs);
    return () => {
      clearInterval(tick);
      clearTimeout(timer);
    };
    // Once per error: a new 503 is a new error object, and starts a new wait.
  }, [error, waitMs]);
  return (
    <section className="fallback-screen" aria-labelledby="fallback-title">
      <div className="banner banner-warning" role="alert">
        <h1 id="fallback-title" className="fallback-title">
          {UNAVAILABLE_TEXT}
        </h1>{' '}
        <span>This page will load by itself as soon as it is back.</span>
      </div>
      <p aria-live="polite">{trying ? 'Trying again…' : `Trying again in ${left} ${left === 1 ? 'second' : 'seconds'}.`}</p>
      <p>
        <button type="button" className="btn" onClick={tryAgain} disabled={trying} aria-busy={trying}>
          {trying ? 'Trying…' : 'Try again now'}
        </button>
      </p>
    </section>
  );
}

/** The layout's own failure (see `RootErrorBoundary`): the error screen page-wide, without the layout's header or the screens' pictures. */
export function RootErrorScreen({ error }: { error: unknown }) {
  return (
    <div className="app-frame">
      <main id="main" className="main">
        {isServiceUnavailable(error) ? <UnavailableScreen error={error} /> : <FallbackScreen tone="danger" title={ERROR_TEXT} tryItems={[tries.refreshPage, tries.reloadApp, <CheckConnection />]} error={error} />}
      </main>
    </div>
  );
}

/** A page's error (see `RouteErrorBoundary`): a 401 goes to the login, a 404 shows not-found, a 403 says the account lacks the role, anything else the error screen. */
export function PageErrorScreen({ error }: { error: unknown }) {
  const location = useLocation();
  if (isApiError(error, 401)) return <Navigate to={loginRedirectFor(location, error)} replace />;
  if (isNotFound(error)) return <NotFoundScreen error={error} />;
  if (isForbidden(error)) return <ForbiddenScreen error={error} />;
  if (isServiceUnavailable(error)) return <UnavailableScreen error={error} />;
  return <ErrorScreen error={error} />;
}
