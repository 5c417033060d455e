import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { isRouteErrorResponse } from 'react-router';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import './app/styles.css';

const router = createAppRouter();

/** Errors are reported once here; the screens themselves show them to the user. */
function reportError(error: unknown, info: { location: { pathname: string } }) {
  if (isRouteErrorResponse(error) && error.status === 404) return;
  console.warn(`[frontdesk] ${info.location.pathname}:`, error);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} onError={reportError} />
    </Providers>
  </StrictMode>,
);
