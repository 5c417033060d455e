import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { isRouteErrorResponse } from 'react-router';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import './app/styles.css';

/** Errors are reported once here; the screens themselves show them to the user. */
function reportError(error: unknown, info: { location: { pathname: string } }) {
  if (isRouteErrorResponse(error) && error.status === 404) return;
  console.warn(`[frontdesk] ${info.location.pathname}:`, error);
}

// The app starts in a task after this module's own. Evaluating the libraries (about 10 ms in desktop
// Chromium here) and starting the app (the router with its first loaders and imports, the first render:
// about 35 ms) were one task, four times as long on a phone, that no input could interrupt; in two, the
// browser has a turn between them. (setTimeout: scheduler.yield is not in every browser.)
setTimeout(() => {
  const router = createAppRouter();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} onError={reportError} />
      </Providers>
    </StrictMode>,
  );
}, 0);
