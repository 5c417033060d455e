import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN_USER, fakeBff, installFormDataShim, renderApp, signedInAs } from '@/test-support/test-utils';
import { fakeTeam, invitation, teamAccount, type FakeTeam } from '@/test-support/team.fake-api';

installFormDataShim();
afterEach(() => jest.restoreAllMocks());

const me = teamAccount(ADMIN_USER.id, { email: ADMIN_USER.email, name: ADMIN_USER.name, role: 'admin', lastSignInAt: new Date().toISOString(), openSessions: 2 });
const ada = teamAccount(2, { email: 'ada@frontdesk.test', name: 'Ada Lovelace', role: 'staff', openSessions: 1, lastSignInAt: '2025-03-01T09:30:00.000Z' });
const rita = teamAccount(3, { email: 'rita@frontdesk.test', name: 'Rita Runner', role: 'runner', status: 'deactivated' });

function setup(team: FakeTeam = fakeTeam({ accounts: [me, ada, rita], invitations: [invitation(7, { email: 'sam@frontdesk.test' })] })) {
  const api = fakeBff(team.handlers, { signedIn: true });
  const view = renderApp('/shell/team');
  return { ...view, api, team, user: userEvent.setup() };
}

const accounts = () => screen.findByRole('table', { name: 'Accounts' });
const rowOf = async (name: string) => within(await accounts()).getByText(name).closest('tr')!;

describe('/shell/team', () => {
  it('lists every account with its role, status, last sign-in and sessions, and the open invitations', async () => {
    setup();
    const mine = await rowOf('Administrator');
    expect(within(mine).getByText('you')).toBeInTheDocument();
    expect(within(mine).getByRole('combobox', { name: 'Your role' })).toHaveValue('admin');
    // Nobody deactivates or deletes themselves here: their own account is a page of its own.
    expect(within(mine).queryByRole('button', { name: /Deactivate|Delete/ })).not.toBeInTheDocument();
    expect(within(mine).getByRole('link', { name: 'Your account' })).toHaveAttribute('href', '/shell/account');

    const adaRow = await rowOf('Ada Lovelace');
    expect(within(adaRow).getByRole('combobox', { name: 'Role of Ada Lovelace' })).toHaveValue('staff');
    expect(within(adaRow).getByText('Active')).toBeInTheDocument();
    expect(within(adaRow).getByRole('button', { name: 'Deactivate Ada Lovelace' })).toBeInTheDocument();
    expect(within(adaRow).getByRole('button', { name: 'Delete Ada Lovelace' })).toBeInTheDocument();

    const ritaRow = await rowOf('Rita Runner');
    expect(within(ritaRow).getByText('Deactivated')).toBeInTheDocument();
    expect(within(ritaRow).getByText('Never')).toBeInTheDocument();
    expect(within(ritaRow).getByRole('button', { name: 'Reactivate Rita Runner' })).toBeInTheDocument();

    const invitations = screen.getByRole('table', { name: 'Open invitations' });
    expect(within(invitations).getByText('sam@frontdesk.test')).toBeInTheDocument();
    expect(within(invitations).getByRole('button', { name: 'Withdraw the invitation for sam@frontdesk.test' })).toBeInTheDocument();
  });

  it('invites someone and shows the link once, with a copy button and a QR code', async () => {
    const { user, api, team } = setup();
    await accounts();
    await user.click(screen.getByRole('button', { name: 'Invite someone' }));
    let dialog = await screen.findByRole('dialog', { name: 'Invite someone' });
    await user.type(within(dialog).getByLabelText('Email'), 'nina@frontdesk.test');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'runner');
    expect(within(dialog).getByLabelText('Valid for')).toHaveValue('72');
    await user.selectOptions(within(dialog).getByLabelText('Valid for'), '24');
    await user.click(within(dialog).getByRole('button', { name: 'Make the invitation link' }));

    expect(await within(dialog).findByText('Shown once: copy it now.')).toBeInTheDocument();
    const link = `${window.location.origin}/join#invite-secret-1`;
    expect(within(dialog).getByTestId('one-time-link-url')).toHaveTextContent(link);
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    expect(await within(dialog).findByRole('img', { name: /QR code of the link/ })).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/api/team/invitations')?.body).toEqual({ email: 'nina@frontdesk.test', role: 'runner', expiresInHours: 24 });
    // The secret went in the answer only, never in an address.
    expect(api.calls.some((c) => c.path.includes('invite-secret'))).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    const invitations = screen.getByRole('table', { name: 'Open invitations' });
    expect(await within(invitations).findByText('nina@frontdesk.test')).toBeInTheDocument();
    expect(team.invitations.map((i) => i.email)).toContain('nina@frontdesk.test');
    // Once closed, it is gone: a new invitation starts from an empty form.
    expect(screen.queryByText(link)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Invite someone' }));
    dialog = await screen.findByRole('dialog', { name: 'Invite someone' });
    expect(within(dialog).getByLabelText('Email')).toHaveValue('');
  });

  it('says on the email field when it has an account already, and checks the email before sending', async () => {
    const { user, api } = setup();
    await accounts();
    await user.click(screen.getByRole('button', { name: 'Invite someone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite someone' });
    await user.click(within(dialog).getByRole('button', { name: 'Make the invitation link' }));
    expect(await within(dialog).findByText('Enter an email address')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Email'), 'ada@frontdesk.test');
    await user.click(within(dialog).getByRole('button', { name: 'Make the invitation link' }));
    expect(await within(dialog).findByText('ada@frontdesk.test has an account already.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the server’s word when the last admin would give up their role', async () => {
    const { user } = setup();
    await user.selectOptions(within(await rowOf('Administrator')).getByRole('combobox', { name: 'Your role' }), 'staff');
    const dialog = await screen.findByRole('dialog', { name: 'Make yourself staff?' });
    expect(within(dialog).getByText(/You will no longer be an admin/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Become staff' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not change your role.');
    expect(alert).toHaveTextContent('This is the last active admin: make someone else an admin first.');
    expect(within(await rowOf('Administrator')).getByRole('combobox', { name: 'Your role' })).toHaveValue('admin');
  });

  it('changes someone’s role at once', async () => {
    const { user, api } = setup();
    await user.selectOptions(within(await rowOf('Ada Lovelace')).getByRole('combobox', { name: 'Role of Ada Lovelace' }), 'runner');
    expect(await screen.findByText('Ada Lovelace is now a runner.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'PUT')).toMatchObject({ path: '/api/team/accounts/2/role', body: { role: 'runner' } });
    expect(within(await rowOf('Ada Lovelace')).getByRole('combobox', { name: 'Role of Ada Lovelace' })).toHaveValue('runner');
  });

  it('deactivates after a confirm that names the person and says their sessions end everywhere', async () => {
    const { user, api } = setup();
    await user.click(within(await rowOf('Ada Lovelace')).getByRole('button', { name: 'Deactivate Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Ada Lovelace?' });
    expect(dialog).toHaveTextContent('Their sessions end at once on every device');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = await rowOf('Ada Lovelace');
    expect(within(row).getByText('Deactivated')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Reactivate Ada Lovelace' })).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'PUT')).toMatchObject({ path: '/api/team/accounts/2/status', body: { status: 'deactivated' } });
  });

  it('makes a reset link, shown once', async () => {
    const { user } = setup();
    await user.click(within(await rowOf('Ada Lovelace')).getByRole('button', { name: 'Reset link for Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset link for Ada Lovelace' });
    expect(within(dialog).getByLabelText('Valid for')).toHaveValue('24');
    await user.click(within(dialog).getByRole('button', { name: 'Make the reset link' }));
    expect(await within(dialog).findByTestId('one-time-link-url')).toHaveTextContent(`${window.location.origin}/reset#reset-secret-1`);
    expect(dialog).toHaveTextContent('Shown once: copy it now.');
  });

  it('deletes an account after a confirm, and withdraws an invitation', async () => {
    const { user, team } = setup();
    await user.click(within(await rowOf('Rita Runner')).getByRole('button', { name: 'Delete Rita Runner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Rita Runner’s account?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Accounts' })).queryByText('Rita Runner')).not.toBeInTheDocument());
    expect(team.accounts.map((a) => a.name)).toEqual(['Administrator', 'Ada Lovelace']);

    await user.click(screen.getByRole('button', { name: 'Withdraw the invitation for sam@frontdesk.test' }));
    expect(await screen.findByRole('heading', { name: 'No open invitations' })).toBeInTheDocument();
  });

  it('erases the person with their account when ticked', async () => {
    const { user, api, team } = setup();
    await user.click(within(await rowOf('Ada Lovelace')).getByRole('button', { name: 'Delete Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Ada Lovelace’s account?' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Also erase their name and email from door events and conversations' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(team.accounts.map((a) => a.name)).toEqual(['Administrator', 'Rita Runner']));
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/team/accounts/2?erase=true']);
  });

  it('is for admins: staff get the 403 screen', async () => {
    const api = fakeBff([signedInAs({ role: 'staff', name: 'Sam Staff' })], { signedIn: true });
    renderApp('/shell/team');
    expect((await screen.findAllByText(/This page is for admins/))[0]).toBeVisible();
    expect(api.calls.filter((c) => c.path.startsWith('/api/team'))).toEqual([]);
  });
});
