import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { passkeyLoginApi } from '@contracts/account.contract';
import { cancelPasskeyRequest, passkeyAutofillSupported, passkeysSupported, signWithPasskey } from '@/lib/passkeys';
import { ADMIN_USER, fakeBff, renderApp } from '@/test-support/test-utils';
import { handle, problem } from '@/test-support/test-server';

// The browser's passkey prompt and its autofill are the platform's: here they answer as told; the messages are lib/passkeys' own.
jest.mock('@/lib/passkeys', () => ({
  ...jest.requireActual<object>('@/lib/passkeys'),
  passkeysSupported: jest.fn(),
  passkeyAutofillSupported: jest.fn(),
  signWithPasskey: jest.fn(),
  cancelPasskeyRequest: jest.fn(async () => {}),
}));
const supported = jest.mocked(passkeysSupported);
const autofillSupported = jest.mocked(passkeyAutofillSupported);
const browser = jest.mocked(signWithPasskey);
const cancel = jest.mocked(cancelPasskeyRequest);

const OPTIONS = { challenge: 'c2lnbi1pbg', rpId: 'localhost', allowCredentials: [] };
/** What the browser hands back once a passkey is picked (the server checks it; here it is only carried). */
const ASSERTION = {
  id: 'Y3JlZGVudGlhbA',
  rawId: 'Y3JlZGVudGlhbA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA', userHandle: 'dXNlcg' },
  clientExtensionResults: {},
};
/** A request that waits until the page cancels it, as the autofill one does. */
const pendingUntilCancelled = () => new Promise<never>(() => {});

beforeEach(() => {
  supported.mockReturnValue(true);
  autofillSupported.mockResolvedValue(false);
  browser.mockReset();
  cancel.mockClear();
});

function setup(path = '/login', answer: () => ReturnType<typeof problem> | { user: typeof ADMIN_USER } = () => ({ user: ADMIN_USER })) {
  const api = fakeBff([
    handle(passkeyLoginApi.options, () => OPTIONS),
    handle(passkeyLoginApi.signIn, () => {
      const answered = answer();
      if ('user' in answered) api.session.signedIn = true;
      return answered;
    }),
  ]);
  const view = renderApp(path);
  return { ...view, api, user: userEvent.setup() };
}

describe('/login with a passkey', () => {
  it('offers passkeys in the email box’s suggestions (autocomplete "username webauthn")', async () => {
    setup();
    expect(await screen.findByLabelText('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  });

  it('signs in with the button: the server’s challenge to the browser, its answer back, then the page asked for', async () => {
    browser.mockResolvedValue(ASSERTION);
    const { router, api, user } = setup('/login?redirect=%2Fshell%2Fapi');
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('heading', { name: 'Service status' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/shell/api');
    expect(browser).toHaveBeenCalledWith(OPTIONS, { autofill: false });
    expect(api.calls.find((c) => c.path === '/api/auth/passkey')?.body).toEqual({ response: ASSERTION });
    expect(api.calls.some((c) => c.path === '/api/auth/login')).toBe(false);
    const header = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(header).findByText('Administrator')).toBeInTheDocument();
  });

  it('says so when the server does not know the passkey, and stays', async () => {
    browser.mockResolvedValue(ASSERTION);
    const { router, user } = setup('/login', () => problem(401, 'Unauthorized', 'This passkey is not known here.'));
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This passkey is not known here.');
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).not.toHaveAttribute('aria-busy', 'true');
  });

  it('says so when the browser’s prompt was cancelled, and sends nothing', async () => {
    browser.mockRejectedValue(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'));
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Signing in with a passkey was cancelled or timed out.');
    expect(api.calls.some((c) => c.path === '/api/auth/passkey')).toBe(false);
  });

  it('signs in when a passkey is picked from the suggestions, which wait from the first paint', async () => {
    autofillSupported.mockResolvedValue(true);
    let pick: (answer: typeof ASSERTION) => void = () => {};
    browser.mockImplementation(() => new Promise((resolve) => (pick = resolve)));
    const { router } = setup();
    await waitFor(() => expect(browser).toHaveBeenCalledWith(OPTIONS, { autofill: true }));
    expect(router.state.location.pathname).toBe('/login');
    pick(ASSERTION);
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/shell');
  });

  it('ends the waiting suggestions when the page goes', async () => {
    autofillSupported.mockResolvedValue(true);
    browser.mockImplementation(pendingUntilCancelled);
    const { user } = setup();
    await waitFor(() => expect(browser).toHaveBeenCalledTimes(1));
    await user.click(screen.getByRole('link', { name: 'Frontdesk' }));
    await waitFor(() => expect(cancel).toHaveBeenCalled());
  });

  it('shows no passkey button where the browser cannot use them', async () => {
    supported.mockReturnValue(false);
    setup();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });
});
