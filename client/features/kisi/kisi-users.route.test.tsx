import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { fakeBff, renderApp, signedInAs } from '@/test-support/test-utils';
import { fakeKisi, kisiRole, kisiUser } from '@/test-support/kisi.fake-api';

afterEach(() => jest.restoreAllMocks());

const ada = kisiUser(7, { name: 'Ada Lovelace', email: 'ada@mail.example', last_accessed_at: '2025-04-02T08:15:00Z' });
const alan = kisiUser(8, { name: 'Alan Turing', email: 'alan@mail.example', access_enabled: false });

function setup(path: string, init: Parameters<typeof fakeKisi>[0] = { users: [ada, alan] }, extra: RequestHandler[] = []) {
  const kisi = fakeKisi(init);
  const api = fakeBff([...extra, ...kisi.handlers], { signedIn: true });
  const view = renderApp(path);
  return { kisi, api, view, user: userEvent.setup() };
}

describe('/kisi/users', () => {
  it('lists Kisi users with their door access and pages over X-Collection-Range', async () => {
    const many = Array.from({ length: 25 }, (_, i) => kisiUser(i + 1, { name: `Person ${String(i + 1).padStart(2, '0')}` }));
    const { api } = setup('/kisi/users?page=2', { users: many });
    const table = await screen.findByRole('table', { name: 'Kisi users' });
    expect(within(table).getByRole('link', { name: 'Person 21' })).toHaveAttribute('href', '/kisi/users/21');
    expect(within(table).queryByText('Person 20')).not.toBeInTheDocument();
    expect(screen.getByText('Showing 21–25 of 25 users')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain('/api/kisi/users?limit=20&offset=20');
    expect(screen.getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
  });

  it('is where /kisi leads, with Access control marked in the header', async () => {
    const { view } = setup('/kisi');
    expect(await screen.findByRole('table', { name: 'Kisi users' })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/kisi/users');
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Access control' })).toHaveAttribute('aria-current', 'page');
  });

  it('switches access off at once, PATCHes Kisi, and shows the user as Kisi reports it afterwards', async () => {
    const { api } = setup('/kisi/users');
    const toggle = await screen.findByRole('switch', { name: 'Door access for Ada Lovelace' });
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    // Optimistic: off and busy before Kisi has answered.
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAttribute('aria-disabled', 'true');
    expect(await screen.findByText('Door access for Ada Lovelace is off.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Door access for Ada Lovelace' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Door access for Ada Lovelace' })).not.toHaveAttribute('aria-disabled');
    const writes = api.calls.filter((c) => c.path.startsWith('/api/kisi/users/7'));
    expect(writes.map((c) => `${c.method} ${c.path}`)).toEqual(['PATCH /api/kisi/users/7', 'GET /api/kisi/users/7']);
    expect(writes[0]!.body).toEqual({ user: { access_enabled: false, scim_access_enabled: false } });
  });

  it('rolls the switch back with an error toast when Kisi refuses', async () => {
    const { kisi } = setup('/kisi/users');
    kisi.failPatch = true;
    const toggle = await screen.findByRole('switch', { name: 'Door access for Alan Turing' });
    expect(toggle).not.toBeChecked();
    fireEvent.click(toggle);
    expect(toggle).toBeChecked();
    expect(await screen.findByText('Could not switch door access on for Alan Turing')).toBeInTheDocument();
    expect(screen.getByText('Kisi is temporarily unavailable.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Door access for Alan Turing' })).not.toBeChecked());
    expect(kisi.users.find((u) => u.id === 8)?.access_enabled).toBe(false);
  });

  it('searches Kisi with the query from the URL, and types into it', async () => {
    const { api, user, view } = setup('/kisi/users?query=ada');
    const table = await screen.findByRole('table', { name: 'Kisi users' });
    expect(within(table).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(table).queryByText('Alan Turing')).not.toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain('/api/kisi/users?limit=20&offset=0&query=ada');
    const box = screen.getByRole('searchbox', { name: 'Search users' });
    await user.clear(box);
    await user.type(box, 'nobody');
    expect(await screen.findByText('No users match')).toBeInTheDocument();
    expect(view.router.state.location.search).toBe('?query=nobody');
  });

  it('keeps the page when Kisi is down and says why', async () => {
    const { kisi } = setup('/kisi/users');
    kisi.down = true;
    expect(await screen.findByText('Could not load the users from Kisi: Kisi could not be reached. Try again in a moment.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Users', level: 1 })).toBeInTheDocument();
    kisi.down = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Kisi users' })).toHaveTextContent('Ada Lovelace');
  });

  it('turns a signed-in non-admin away with a 403 message, before asking Kisi', async () => {
    const staff = signedInAs({ id: 2, email: 'sam@frontdesk.test', name: 'Sam Staff', role: 'staff' });
    const { api } = setup('/kisi/users', undefined, [staff]);
    expect(await screen.findByText('You do not have access to this page.')).toBeInTheDocument();
    expect(screen.getByText('This page is for admins. You are signed in as sam@frontdesk.test with the staff role.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.path.startsWith('/api/kisi/'))).toBe(false);
    // On the first load too, the 403 screen is a page inside the layout, with the header's navigation.
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Access control' })).not.toBeInTheDocument();
  });
});

describe('/kisi/users/:user_id', () => {
  it('shows the profile and the role assignments with what they apply to and their validity', async () => {
    setup('/kisi/users/7', {
      users: [ada],
      roles: [
        kisiRole(1, 7, { role_id: 'group_basic', applies_to: { id: 3, resource_type: 'Group', name: 'Yoga Classes' }, valid_from: '2025-01-01T00:00:00Z', valid_until: '2025-02-01T00:00:00Z' }),
        kisiRole(2, 7, { role_id: 'place_manager', applies_to_type: 'Place', applies_to: { id: 1, resource_type: 'Place', name: 'Harbourside Main Building' } }),
        kisiRole(3, 8, { applies_to: { id: 9, resource_type: 'Group', name: 'Someone else’s group' } }),
      ],
    });
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Door access for Ada Lovelace' })).toBeChecked();
    const roles = screen.getByRole('table', { name: 'Role assignments' });
    const rows = within(roles).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Group member');
    expect(rows[0]).toHaveTextContent('Yoga Classes');
    expect(rows[0]).toHaveTextContent('Expired');
    expect(rows[1]).toHaveTextContent('Place manager');
    expect(rows[1]).toHaveTextContent('Harbourside Main Building');
    expect(rows[1]).toHaveTextContent('Place');
    expect(rows[1]).toHaveTextContent('No end');
    expect(rows[1]).toHaveTextContent('Valid');
  });

  it('switches door access from the user page too, showing Kisi’s state afterwards', async () => {
    const { user } = setup('/kisi/users/8');
    const toggle = await screen.findByRole('switch', { name: 'Door access for Alan Turing' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(await screen.findByText('Door access for Alan Turing is on.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Door access for Alan Turing' })).toBeChecked();
  });

  it.each(['99', 'abc'])('shows the not-found screen for user id %s', async (id) => {
    setup(`/kisi/users/${id}`, { users: [ada] });
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });
});

describe('/kisi/members', () => {
  it('lists Kisi members with their role and access, linking to the user', async () => {
    setup('/kisi/members');
    const table = await screen.findByRole('table', { name: 'Kisi members' });
    const row = within(table).getByRole('link', { name: 'Alan Turing' }).closest('tr')!;
    expect(row).toHaveTextContent('alan@mail.example');
    expect(row).toHaveTextContent('Basic');
    expect(row).toHaveTextContent('Off');
    expect(within(table).getByRole('link', { name: 'Alan Turing' })).toHaveAttribute('href', '/kisi/users/8');
  });
});
