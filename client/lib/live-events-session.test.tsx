import { act, screen, waitFor, within } from '@testing-library/react';
import { authApi } from '@contracts/auth.contract';
import { SESSION_ENDED_EVENT } from '@contracts/events.contract';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, renderApp } from '@/test-support/test-utils';
import { fakePt, order } from '@/test-support/pt.fake-api';
import { handle } from '@/test-support/test-server';
import { RETRY_DELAYS_MS } from './live-events';
import { announceSignIn } from './session';

/**
 * A tab whose session ends under it (signed out elsewhere, an admin deactivating the account): its
 * live stream stops instead of knocking on a closed door, the page says it is signed out, and the
 * stream comes back when the person signs in again.
 */
fakeEventSourceEachTest();
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

const RUNNER = { id: 5, email: 'riley@frontdesk.test', name: 'Riley Runner', role: 'runner' as const };

/** The runner board, signed in as a runner; `session.live` is what GET /api/auth/session answers from now on. */
async function runnerBoard() {
  const session = { live: true };
  const api = fakeBff([handle(authApi.session, () => ({ user: session.live ? RUNNER : null })), ...fakePt({ orders: [order(1, { table: 12 })] }).handlers]);
  renderApp('/pt/runner');
  await screen.findByRole('heading', { name: 'Runner board' });
  const source = FakeEventSource.current();
  act(() => source.open());
  expect(badge()).toHaveTextContent('Live');
  act(() => source.emit('order', { id: 99 }, '40'));
  return { api, session, source };
}

const badge = () => screen.getByTitle(/^Live orders:/);
/** The site's header menu, where who is signed in shows. */
const header = () => screen.getByRole('navigation', { name: 'Main' });
const sessionAsks = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.path === '/api/auth/session').length;

describe('the live stream when the session ends under the page', () => {
  it("stops at the server's session-ended, says signed out on the page and in the header, and does not reconnect", async () => {
    const { session, source } = await runnerBoard();
    expect(within(header()).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    session.live = false; // an admin deactivated the runner
    act(() => source.emit(SESSION_ENDED_EVENT, {}, ''));

    expect(await screen.findByText(/You are signed out/)).toBeInTheDocument();
    expect(source.readyState).toBe(FakeEventSource.CLOSED);
    expect(badge()).toHaveTextContent('Signed out');
    // Not "Riley Runner · Sign out" under the banner: signed out, and a way in that keeps this page.
    expect(header()).toHaveTextContent('Signed out');
    expect(within(header()).queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    expect(within(header()).getByRole('link', { name: 'Sign in' })).toHaveAttribute('target', '_blank');
    expect(within(header()).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirect=%2Fpt%2Frunner');
    // The board stays as it was.
    expect(screen.getByRole('article', { name: /^Table 12 ·/ })).toBeInTheDocument();

    jest.useFakeTimers();
    act(() => jest.advanceTimersByTime(5 * 60_000));
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('asks who is signed in when the stream is refused, and stops there when nobody is (no retry loop on a 401)', async () => {
    const { api, session, source } = await runnerBoard();
    session.live = false; // the session ended where the stream could not say it (a restart, an expiry)
    const asked = sessionAsks(api);
    act(() => source.drop({ closed: true }));

    expect(await screen.findByText(/You are signed out/)).toBeInTheDocument();
    expect(sessionAsks(api)).toBeGreaterThan(asked);
    expect(badge()).toHaveTextContent('Signed out');
    expect(screen.getByRole('article', { name: /^Table 12 ·/ })).toBeInTheDocument();
    // Past every retry the stream would have made: none made, and nothing asked again.
    const askedBy = sessionAsks(api);
    jest.useFakeTimers();
    act(() => jest.advanceTimersByTime(RETRY_DELAYS_MS.reduce((a, b) => a + b) + 60_000));
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(sessionAsks(api)).toBe(askedBy);
  });

  it('keeps retrying a refused stream while the person is still signed in (the database away), without a banner', async () => {
    const { api, source } = await runnerBoard();
    const asked = sessionAsks(api);
    act(() => source.drop({ closed: true }));
    await waitFor(() => expect(sessionAsks(api)).toBe(asked + 1));
    expect(badge()).toHaveTextContent('Reconnecting…');
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: RETRY_DELAYS_MS[0]! + 2000 });
    expect(screen.queryByText(/You are signed out/)).not.toBeInTheDocument();
  });

  it('goes on at once when someone signed in again before it asked (a new session in the cookie)', async () => {
    const { source } = await runnerBoard();
    act(() => source.emit(SESSION_ENDED_EVENT, {}, ''));
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(FakeEventSource.current().url).toBe('/api/events?lastEventId=40');
    expect(screen.queryByText(/You are signed out/)).not.toBeInTheDocument();
  });

  it('stays closed while signed out and resumes, after the last event it heard, when the person signs in again', async () => {
    const { session, source } = await runnerBoard();
    session.live = false;
    act(() => source.emit(SESSION_ENDED_EVENT, {}, ''));
    await screen.findByText(/You are signed out/);

    // Signed in again in another tab (the banner's link): that tab tells this one.
    session.live = true;
    const otherTab = new BroadcastChannel('frontdesk.session');
    try {
      otherTab.postMessage('signed-in');
      await waitFor(() => expect(screen.queryByText(/You are signed out/)).not.toBeInTheDocument());
    } finally {
      otherTab.close();
    }
    expect(FakeEventSource.instances).toHaveLength(2);
    const resumed = FakeEventSource.current();
    expect(resumed.url).toBe('/api/events?lastEventId=40');
    act(() => resumed.open());
    expect(badge()).toHaveTextContent('Live');
    expect(await within(header()).findByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('signing in on this very tab (the login form) brings the stream back too', async () => {
    const { session, source } = await runnerBoard();
    session.live = false;
    act(() => source.drop({ closed: true }));
    await screen.findByText(/You are signed out/);
    session.live = true;
    act(() => announceSignIn());
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(screen.queryByText(/You are signed out/)).not.toBeInTheDocument();
  });
});
