import type { ReactNode } from 'react';
import { isRouteErrorResponse, useRevalidator } from 'react-router';
import { JsonView } from '@/components/json-view';
import { ApiError, NetworkError } from '@/lib/api-client';
import { AppLink } from '@/lib/app-link';
import { pageReloader } from '@/lib/chunk-reload';
import { paths } from '@/lib/paths';

/*
 * What every error screen shares (`error-screens.tsx`): loaded, with the screens, only when a
 * boundary has an error to show.
 */

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
