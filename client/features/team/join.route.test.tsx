import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, fakeEventSourceEachTest, installFormDataShim, renderApp } from '@/test-support/test-utils';
import { fakePt } from '@/test-support/pt.fake-api';
import { fakeTeam, invitation, teamAccount } from '@/test-support/team.fake-api';

installFormDataShim();
fakeEventSourceEachTest();
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
