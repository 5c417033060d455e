import { act, screen, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { render } from '@testing-library/react';
import { ApiError } from '@/lib/api-client';
import { pageReloader } from '@/lib/chunk-reload';
import { statusApi } from '@contracts/status.contract';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { handle, problem } from '@/test-support/test-server';
import { RouteErrorBoundary } from './error-boundaries';

afterEach(() => {
  jest.restoreAllMocks();
  window.sessionStorage.clear();
});

const tryItems = () =>
  within(screen.getByRole('heading', { name: 'Try:' }).parentElement!)
    .getAllByRole('listitem')
    .map((li) => li.textContent?.trim());

const errorJson = () => JSON.parse(screen.getByRole('group').querySelector('pre')!.textContent!) as Record<string, unknown>;

describe('not-found and error screens (real route table)', () => {
  it('an unknown URL shows "Page not found.", the Try: list, the error as open JSON and a link to "/"', async () => {
    fakeBff();
    renderApp('/no/such/page');
    expect(await screen.findByRole('alert')).toHaveTextContent('Page not found.');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Page not found.');
    expect(tryItems()).toEqual(['Return to Main Page', 'Reload the application', 'Repeat the operation']);
    expect(screen.getByRole('link', { name: 'Return to Main Page' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('group')).toHaveAttribute('open');
    expect(errorJson()).toEqual({ status: 404, statusText: 'Not Found', data: 'No route matches URL "/no/such/page"' });
    // inside the layout: the header navigation is still there
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('/error shows the error screen with the thrown ERROR as JSON', async () => {
    fakeBff();
    renderApp('/error');
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occured while processing your request.');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('An error occured while processing your request.');
    expect(tryItems()).toEqual([
      'Refresh the page',
      'Return to Main Page',
      'Reload the application',
      'Repeat the operation',
      'Check your internet connection',
    ]);
    expect(errorJson()).toEqual({ name: 'Error', message: 'ERROR' });
  });

  it('/bad shows the error screen with the 500 problem from /api/bad', async () => {
    fakeBff([handle(statusApi.bad, () => problem(500, 'Internal Server Error', 'Broken on purpose'))]);
    renderApp('/bad');
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occured while processing your request.');
    expect(errorJson()).toMatchObject({
      name: 'ApiError',
      status: 500,
      url: '/api/bad',
      problem: { title: 'Internal Server Error', status: 500, detail: 'Broken on purpose' },
    });
  });
});

function renderBoundary(load: () => unknown, path = '/page') {
  const routes: RouteObject[] = [
    { path: '/page', loader: load, HydrateFallback: () => null, Component: () => <p>Loaded</p>, ErrorBoundary: RouteErrorBoundary },
    { path: '/login', Component: () => <p>Login page</p> },
  ];
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

describe('route error boundary', () => {
  it('shows not-found for a loader that throws a 404 ApiError', async () => {
    renderBoundary(() => {
      throw new ApiError(404, '{}', '/api/x');
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Page not found.');
  });

  it('sends a 401 from a loader to /login with flash and the wanted href', async () => {
    const router = renderBoundary(() => {
      throw new ApiError(401, '', '/api/x');
    }, '/page?tab=2');
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    const url = new URL(router.state.location.pathname + router.state.location.search, 'http://x');
    expect(url.searchParams.get('flash')).toBe('Please sign in to continue.');
    expect(url.searchParams.get('redirect')).toBe('/page?tab=2');
  });

  it('reloads once for a failed chunk, then shows the error screen for the same message', async () => {
    const reload = jest.spyOn(pageReloader, 'reload').mockImplementation(() => undefined);
    const chunkError = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/a.js'));

    const first = render(<RouterProvider router={createMemoryRouter([{ path: '/', lazy: chunkError, HydrateFallback: () => null, ErrorBoundary: RouteErrorBoundary }])} />);
    expect(await screen.findByText('Loading... Please wait...')).toBeInTheDocument();
    expect(reload).toHaveBeenCalledTimes(1);
    first.unmount();

    // After the reload the same chunk fails again: no second reload, the error screen instead.
    render(<RouterProvider router={createMemoryRouter([{ path: '/', lazy: chunkError, HydrateFallback: () => null, ErrorBoundary: RouteErrorBoundary }])} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occured while processing your request.');
    await act(async () => undefined);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again for a different failed chunk', async () => {
    const reload = jest.spyOn(pageReloader, 'reload').mockImplementation(() => undefined);
    window.sessionStorage.setItem('frontdesk:chunk-reload:Failed to fetch dynamically imported module: /assets/a.js', '1');
    render(
      <RouterProvider
        router={createMemoryRouter([
          { path: '/', HydrateFallback: () => null, lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/b.js')), ErrorBoundary: RouteErrorBoundary },
        ])}
      />,
    );
    expect(await screen.findByText('Loading... Please wait...')).toBeInTheDocument();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
