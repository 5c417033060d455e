import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, installFormDataShim, renderApp } from '@/test-support/test-utils';
import { fakeTeam, teamAccount } from '@/test-support/team.fake-api';

installFormDataShim();
afterEach(() => jest.restoreAllMocks());

const SECRET = 'cmVzZXQtc2VjcmV0LWZvci1hZGEtbG92ZWxhY2UtMTIz';

function setup(path: string) {
  const team = fakeTeam({
    accounts: [teamAccount(1, { role: 'admin' }), teamAccount(2, { email: 'ada@frontdesk.test', name: 'Ada Lovelace', role: 'staff' })],
    links: new Map([[SECRET, { kind: 'reset', accountId: 2 }]]),
  });
  const api = fakeBff(team.handlers);
  const view = renderApp(path);
  return { ...view, api, team, user: userEvent.setup() };
}

describe('/reset#<secret>', () => {
  it('says whose password it sets, then signs them in on their first page and says their other sessions ended', async () => {
    const { user, router, api } = setup(`/reset#${SECRET}`);
    expect(await screen.findByText(/For Ada Lovelace/)).toBeInTheDocument();
    expect(screen.getByText('ada@frontdesk.test')).toBeInTheDocument();
    expect(router.state.location.hash).toBe('');
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Set the password and sign in' }));
    expect(await screen.findByText('Your password is changed; your other sessions have ended.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/shell');
    expect(await within(screen.getByRole('navigation', { name: 'Main' })).findByText('Ada Lovelace')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/account/reset')?.body).toEqual({ token: SECRET, password: 'a brand new passphrase' });
  });

  it('says a used link no longer works', async () => {
    setup('/reset#bm90LWEta25vd24tc2VjcmV0');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link no longer works.');
    expect(screen.getByText('Ask your admin for a new link.')).toBeInTheDocument();
  });
});
