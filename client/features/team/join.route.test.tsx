import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { accountLinksApi } from '@contracts/team.contract';
import { createPasskey, passkeysSupported } from '@/lib/passkeys';
import { fakeBff, fakeEventSourceEachTest, installFormDataShim, renderApp } from '@/test-support/test-utils';
import { fakePt } from '@/test-support/pt.fake-api';
import { fakeTeam, invitation, teamAccount } from '@/test-support/team.fake-api';
import { handle, problem, server } from '@/test-support/test-server';

// The browser's passkey prompt is the platform's: here it answers as told; the rest of lib/passkeys (its words) is real.
jest.mock('@/lib/passkeys', () => ({
  ...jest.requireActual<object>('@/lib/passkeys'),
  createPasskey: jest.fn(),
  passkeysSupported: jest.fn(() => true),
}));
const prompt = jest.mocked(createPasskey);
const supported = jest.mocked(passkeysSupported);

installFormDataShim();
fakeEventSourceEachTest();
beforeEach(() => {
  prompt.mockReset();
  supported.mockReturnValue(true);
});
afterEach(() => jest.restoreAllMocks());

const SECRET = 'aGVsbG8tdGhpcy1pcy1hLXNlY3JldC10b2tlbi0xMjM0';

function setup(path: string) {
  const team = fakeTeam({
    accounts: [teamAccount(1, { role: 'admin' })],
    invitations: [invitation(7, { email: 'nina@frontdesk.test', role: 'runner', expiresAt: '2030-03-04T09:30:00.000Z' })],
    links: new Map([[SECRET, { kind: 'invitation', id: 7 }]]),
  });
  const api = fakeBff([...team.handlers, ...fakePt().handlers]);
  const view = renderApp(path);
  return { ...view, api, team, user: userEvent.setup() };
}

describe('/join#<secret>', () => {
  it('shows what the invitation is for and takes the secret out of the address at once', async () => {
    const { router, api } = setup(`/join#${SECRET}`);
    expect(await screen.findByRole('heading', { name: 'Join Frontdesk' })).toBeInTheDocument();
    expect(await screen.findByText('nina@frontdesk.test')).toBeInTheDocument();
    expect(screen.getByText('You are invited to join the team as a runner.')).toBeInTheDocument();
    expect(router.state.location.hash).toBe('');
    expect(router.state.location.pathname).toBe('/join');
    // The secret went in a body only.
    expect(api.calls.find((c) => c.path === '/api/team/invitations/preview')?.body).toEqual({ token: SECRET });
    expect(api.calls.some((c) => c.path.includes(SECRET))).toBe(false);
  });

  it('says a used or withdrawn link no longer works, and to ask for a new one', async () => {
    setup('/join#c29tZS1vdGhlci1zZWNyZXQ');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This link no longer works.');
    expect(screen.getByText('Ask your admin for a new link.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('says so when the page opened without its secret (a reload)', async () => {
    const { api } = setup('/join');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is incomplete.');
    expect(api.calls.filter((c) => c.path.startsWith('/api/team'))).toEqual([]);
  });

  it('checks the name and the password’s length before sending', async () => {
    const { user, api } = setup(`/join#${SECRET}`);
    await user.type(await screen.findByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Join and sign in' }));
    expect(await screen.findByText('Enter your name')).toBeInTheDocument();
    expect(screen.getByText('Use at least 12 characters')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path === '/api/team/invitations/accept')).toEqual([]);
  });

  it('shows the password on demand', async () => {
    const { user } = setup(`/join#${SECRET}`);
    const password = await screen.findByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Show password' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('joins: signed in as the new runner, on the runner board', async () => {
    const { user, router, api, team } = setup(`/join#${SECRET}`);
    await user.type(await screen.findByLabelText('Your name'), 'Nina Runner');
    await user.type(screen.getByLabelText('Password'), 'a long enough passphrase');
    await user.click(screen.getByRole('button', { name: 'Join and sign in' }));
    expect(await screen.findByRole('heading', { name: 'Runner board' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pt/runner');
    const header = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(header).findByText('Nina Runner')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/team/invitations/accept')?.body).toEqual({ token: SECRET, name: 'Nina Runner', password: 'a long enough passphrase' });
    expect(team.accounts.map((a) => a.email)).toContain('nina@frontdesk.test');
  });

  it('says the link stopped working when it was withdrawn while the page was open', async () => {
    const { user, team } = setup(`/join#${SECRET}`);
    await user.type(await screen.findByLabelText('Your name'), 'Nina Runner');
    await user.type(screen.getByLabelText('Password'), 'a long enough passphrase');
    team.invitations = [];
    await user.click(screen.getByRole('button', { name: 'Join and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link no longer works.');
  });
});

/** What the browser hands back from its "create a passkey" prompt (the server checks it; here it is only carried). */
const CREATED = {
  id: 'Y3JlZGVudGlhbA',
  rawId: 'Y3JlZGVudGlhbA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', attestationObject: 'oA', transports: ['internal'] },
  authenticatorAttachment: 'cross-platform' as const,
  clientExtensionResults: {},
};
const PASSKEY_OPTIONS = '/api/team/invitations/passkey-options';
const ACCEPT_PASSKEY = '/api/team/invitations/accept-passkey';

describe('/join#<secret> with a passkey', () => {
  it('joins with a passkey instead of a password: the name, the browser’s prompt, then signed in on the runner board', async () => {
    prompt.mockResolvedValue(CREATED);
    const { user, router, api, team } = setup(`/join#${SECRET}`);
    await user.type(await screen.findByLabelText('Your name'), 'Nina Runner');
    await user.click(screen.getByRole('button', { name: 'Join with a passkey' }));
    expect(await screen.findByRole('heading', { name: 'Runner board' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pt/runner');
    expect(await within(screen.getByRole('navigation', { name: 'Main' })).findByText('Nina Runner')).toBeInTheDocument();

    // The server's options went to the browser; its answer back, with a name for the passkey; no password anywhere.
    expect(api.calls.find((c) => c.path === PASSKEY_OPTIONS)?.body).toEqual({ token: SECRET, name: 'Nina Runner' });
    expect(prompt).toHaveBeenCalledWith(expect.objectContaining({ challenge: 'am9pbi1jaGFsbGVuZ2U', user: expect.objectContaining({ name: 'nina@frontdesk.test' }) }));
    expect(api.calls.find((c) => c.path === ACCEPT_PASSKEY)?.body).toEqual({ token: SECRET, name: 'Nina Runner', passkey: { name: 'Security key or phone', response: CREATED } });
    expect(api.calls.some((c) => c.path === '/api/team/invitations/accept')).toBe(false);
    expect(team.accounts.find((a) => a.email === 'nina@frontdesk.test')).toMatchObject({ name: 'Nina Runner', passkeys: 1 });
  });

  it('asks for the name first, on the name field, before any prompt', async () => {
    const { user, api } = setup(`/join#${SECRET}`);
    await user.click(await screen.findByRole('button', { name: 'Join with a passkey' }));
    const name = screen.getByLabelText('Your name');
    expect(name).toHaveAccessibleDescription(expect.stringContaining('Enter your name'));
    expect(name).toHaveFocus();
    expect(prompt).not.toHaveBeenCalled();
    expect(api.calls.filter((c) => c.path === PASSKEY_OPTIONS)).toEqual([]);
    // Typing clears it.
    await user.type(name, 'N');
    expect(screen.queryByText('Enter your name')).not.toBeInTheDocument();
  });

  it('says when the prompt was cancelled, and joins on the next try', async () => {
    prompt.mockRejectedValueOnce(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError')).mockResolvedValueOnce(CREATED);
    const { user, router, api } = setup(`/join#${SECRET}`);
    await user.type(await screen.findByLabelText('Your name'), 'Nina Runner');
    await user.click(screen.getByRole('button', { name: 'Join with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No passkey was added: the request was cancelled or timed out.');
    expect(api.calls.filter((c) => c.path === ACCEPT_PASSKEY)).toEqual([]);
    expect(router.state.location.pathname).toBe('/join');

    await user.click(screen.getByRole('button', { name: 'Join with a passkey' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pt/runner'));
  });

  it('says what the server said when it refused the passkey', async () => {
    prompt.mockResolvedValue(CREATED);
    const refusal = 'This passkey could not be checked, so you have not joined yet. Try again, or choose a password.';
    const { user, router } = setup(`/join#${SECRET}`);
    server.use(handle(accountLinksApi.acceptInvitationWithPasskey, () => problem(400, 'Bad Request', refusal)));
    await user.type(await screen.findByLabelText('Your name'), 'Nina Runner');
    await user.click(screen.getByRole('button', { name: 'Join with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(router.state.location.pathname).toBe('/join');
    expect(screen.getByRole('button', { name: 'Join with a passkey' })).not.toHaveAttribute('aria-busy', 'true');
  });

  it('says the link stopped working when it was withdrawn before the passkey was asked for', async () => {
    const { user, team } = setup(`/join#${SECRET}`);
    await user.type(await screen.findByLabelText('Your name'), 'Nina Runner');
    team.invitations = [];
    await user.click(screen.getByRole('button', { name: 'Join with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link no longer works.');
    expect(prompt).not.toHaveBeenCalled();
  });

  it('offers no passkey where the browser cannot make one', async () => {
    supported.mockReturnValue(false);
    setup(`/join#${SECRET}`);
    expect(await screen.findByRole('button', { name: 'Join and sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join with a passkey' })).not.toBeInTheDocument();
  });
});
