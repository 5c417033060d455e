import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, installFormDataShim, renderApp } from '@/test-support/test-utils';
import { fakeAccount, ownSession, type FakeAccount } from '@/test-support/team.fake-api';

installFormDataShim();
afterEach(() => jest.restoreAllMocks());

function setup(me: FakeAccount = fakeAccount()) {
  const api = fakeBff(me.handlers, { signedIn: true });
  const view = renderApp('/shell/account');
  return { ...view, api, me, user: userEvent.setup() };
}

const sessions = () => screen.findByRole('list', { name: 'Your sessions' });

describe('/shell/account', () => {
  it('shows the name, email and role, and where you are signed in, this browser marked', async () => {
    setup();
    expect(await screen.findByRole('heading', { name: 'Your account', level: 1 })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Administrator');
    expect(screen.getByText('admin@frontdesk.test', { selector: 'dd' })).toBeInTheDocument();
    const list = await sessions();
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Chrome on Android');
    expect(rows[0]).toHaveTextContent('This browser');
    expect(within(rows[0]!).queryByRole('button', { name: /Sign out/ })).not.toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Sign out Firefox on Linux (192.0.2.10)' })).toBeInTheDocument();
  });

  it('puts the server’s word on the current password when it is wrong, and empties it', async () => {
    const { user, api } = setup();
    const form = await screen.findByRole('form', { name: 'Change your password' });
    await user.type(within(form).getByLabelText('Current password'), 'not-the-password');
    await user.type(within(form).getByLabelText('New password'), 'a brand new passphrase');
    await user.type(within(form).getByLabelText('New password again'), 'a brand new passphrase');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('That is not your current password')).toBeInTheDocument();
    expect(within(form).getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByLabelText('Current password')).toHaveValue('');
    expect(api.calls.find((c) => c.path === '/api/account/password')?.body).toEqual({ currentPassword: 'not-the-password', newPassword: 'a brand new passphrase' });
  });

  it('checks that the new password was typed the same twice, before sending', async () => {
    const { user, api } = setup();
    const form = await screen.findByRole('form', { name: 'Change your password' });
    await user.type(within(form).getByLabelText('Current password'), 'the-old-password');
    await user.type(within(form).getByLabelText('New password'), 'a brand new passphrase');
    await user.type(within(form).getByLabelText('New password again'), 'a brand new passphrase!');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText(/The two new passwords differ/)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path === '/api/account/password')).toEqual([]);
  });

  it('changes the password: the other sessions end and the form empties', async () => {
    const { user } = setup();
    const form = await screen.findByRole('form', { name: 'Change your password' });
    await user.type(within(form).getByLabelText('Current password'), 'the-old-password');
    await user.type(within(form).getByLabelText('New password'), 'a brand new passphrase');
    await user.type(within(form).getByLabelText('New password again'), 'a brand new passphrase');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password is changed; 1 other session ended.')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your sessions' })).getAllByRole('listitem')).toHaveLength(1));
    expect(within(screen.getByRole('form', { name: 'Change your password' })).getByLabelText('New password')).toHaveValue('');
  });

  it('signs out everywhere else after a confirm', async () => {
    const me = fakeAccount({ sessions: [ownSession(11, { current: true }), ownSession(12), ownSession(13, { browser: 'Safari on iPhone' })] });
    const { user, api } = setup(me);
    await sessions();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    expect(dialog).toHaveTextContent('Your 2 other sessions end at once');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere else' }));
    expect(await screen.findByText('Signed out of 2 other sessions.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST' && c.path === '/api/account/sessions/end-others')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your sessions' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).not.toBeInTheDocument();
  });

  it('signs out one other session', async () => {
    const { user, api } = setup();
    await user.click(within(await sessions()).getByRole('button', { name: 'Sign out Firefox on Linux (192.0.2.10)' }));
    expect(await screen.findByText('Signed out of Firefox on Linux.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/account/sessions/12');
  });

  it('changes the name: the header and the shell follow at once', async () => {
    const { user } = setup();
    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Ada Admin');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your name is now Ada Admin.')).toBeInTheDocument();
    const header = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(header).findByText('Ada Admin')).toBeInTheDocument();
    expect(within(header).getByRole('link', { name: /Your account/ })).toHaveAttribute('href', '/shell/account');
    expect(screen.getByLabelText('Name')).toHaveValue('Ada Admin');
  });
});
