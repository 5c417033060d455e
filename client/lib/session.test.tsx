import { act, screen, waitFor } from '@testing-library/react';
import { fakeBff, holdRequests, renderApp } from '@/test-support/test-utils';
import { paths } from './paths';

/** /shell asks the server who is signed in, but only waits for the answer when the app does not know yet. */
afterEach(() => jest.restoreAllMocks());

const getAuthCalls = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.path === '/api/auth/session').length;

it('moves inside /shell at once when the header already knows who is signed in, checking again in the background', async () => {
  const api = fakeBff([], { signedIn: true });
  const { router } = renderApp(paths.shellEmpty);
  await screen.findByText('Nothing here yet');
  const before = getAuthCalls(api);
  const held = holdRequests((method, path) => method === 'GET' && path === '/api/auth/session');
  await act(() => router.navigate(paths.shell));
  // The page is there while the server has not answered the check.
  expect(await screen.findByText('Every channel at once, each with its latest messages.')).toBeInTheDocument();
  await held.release();
  await waitFor(() => expect(getAuthCalls(api)).toBe(before + 1));
});

it('sends the next move to /login once the background check says nobody is signed in', async () => {
  const api = fakeBff([], { signedIn: true });
  const { router } = renderApp(paths.shellEmpty);
  await screen.findByText('Nothing here yet');
  api.session.signedIn = false; // signed out elsewhere
  const before = getAuthCalls(api);
  await act(() => router.navigate(paths.shell));
  await waitFor(() => expect(getAuthCalls(api)).toBeGreaterThan(before));
  await act(() => router.navigate(paths.shellContain));
  await waitFor(() => expect(router.state.location.pathname).toBe(paths.login));
  expect(router.state.location.search).toContain(encodeURIComponent(paths.shellContain));
});
