import { Navigate, isRouteErrorResponse, useLocation } from 'react-router';
import { isApiError } from '@/lib/api-client';
import { loginRedirectFor } from '@/lib/session';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { CheckConnection, FallbackScreen, tries } from './fallback-screen';
import { ERROR_TEXT, FORBIDDEN_TEXT, NOT_FOUND_TEXT } from './error-texts';
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
      tryItems={[tries.mainPage, <AppLink to={paths.shell}>Go to the staff shell</AppLink>, 'Ask an admin for access, or sign in with an admin account']}
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

/** The layout's own failure (see `RootErrorBoundary`): the error screen page-wide, without the layout's header or the screens' pictures. */
export function RootErrorScreen({ error }: { error: unknown }) {
  return (
    <div className="app-frame">
      <main id="main" className="main">
        <FallbackScreen tone="danger" title={ERROR_TEXT} tryItems={[tries.refreshPage, tries.reloadApp, <CheckConnection />]} error={error} />
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
  return <ErrorScreen error={error} />;
}
