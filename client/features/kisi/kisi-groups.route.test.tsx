import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { kisiLink } from '@/test-support/test-utils';
import { fakeKisi, kisiGroup } from '@/test-support/kisi.fake-api';

afterEach(() => jest.restoreAllMocks());

function setup(path: string, init: Parameters<typeof fakeKisi>[0]) {
  const kisi = fakeKisi(init);
  const api = fakeBff(kisi.handlers, { signedIn: true });
  const view = renderApp(path);
  return { kisi, api, view, user: userEvent.setup() };
}

const gym = kisiGroup(1, { name: 'Gym Members', description: 'Everyone with an active membership', users_count: 30, locks_count: 3 });
const yoga = kisiGroup(2, { name: 'Yoga Classes', users_count: 8, locks_count: 2, place_id: 1, place: { id: 1, resource_type: 'Place', name: 'Main Building' } });

describe('/kisi/groups', () => {
  it('lists the groups with their users, locks and place', async () => {
    setup('/kisi/groups', { groups: [gym, yoga] });
    const table = await screen.findByRole('table', { name: 'Kisi groups' });
    const row = within(table).getByText('Yoga Classes').closest('tr')!;
    expect(row).toHaveTextContent('8');
    expect(row).toHaveTextContent('Main Building');
    expect(within(table).getByText('Everyone with an active membership')).toBeInTheDocument();
    expect(screen.getByText('Showing 1–2 of 2 groups')).toBeInTheDocument();
  });

  it('shows Kisi’s 422 message on the name field, then creates the group and refreshes the list', async () => {
    const { user, api } = setup('/kisi/groups', { groups: [gym] });
    await screen.findByRole('table', { name: 'Kisi groups' });
    await user.click(screen.getByRole('button', { name: 'New group' }));
    const dialog = await screen.findByRole('dialog', { name: 'New group' });
    await user.click(within(dialog).getByRole('button', { name: 'Create group' }));
    expect(await within(dialog).findByText("Name can't be blank")).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    await user.type(within(dialog).getByLabelText('Name'), 'Weekend Staff');
    await user.type(within(dialog).getByLabelText('Description (optional)'), 'Saturday and Sunday shifts');
    await user.click(within(dialog).getByRole('button', { name: 'Create group' }));
    expect(await screen.findByText('Group “Weekend Staff” created.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await within(screen.getByRole('table', { name: 'Kisi groups' })).findByText('Weekend Staff')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ group: { name: 'Weekend Staff', description: 'Saturday and Sunday shifts' } });
  });

  it('deletes a group only after the confirmation', async () => {
    const { user, kisi } = setup('/kisi/groups', { groups: [gym, yoga] });
    await user.click(await screen.findByRole('button', { name: 'Delete Yoga Classes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Yoga Classes”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(kisi.groups).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Delete Yoga Classes' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete group' }));
    expect(await screen.findByText('Group “Yoga Classes” deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Yoga Classes')).not.toBeInTheDocument());
    expect(kisi.groups.map((g) => g.name)).toEqual(['Gym Members']);
  });

  it('says so when there are no groups', async () => {
    setup('/kisi/groups', { groups: [] });
    expect(await screen.findByText('No groups yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create the first group' })).toBeInTheDocument();
  });
});

describe('/kisi/group_links', () => {
  const harriet = kisiLink(1, { name: 'Day pass: Harriet Cole', email: 'harriet@mail.example', valid_until: '2030-01-01T22:00:00Z' });
  const omar = kisiLink(2, { name: 'Trial week: Omar Said', email: 'omar@mail.example' });

  it('sends the query param to Kisi and puts typed searches in the URL', async () => {
    const { api, user, view } = setup('/kisi/group_links?query=harriet', { links: [harriet, omar] });
    const table = await screen.findByRole('table', { name: 'Access links' });
    expect(within(table).getByText('Day pass: Harriet Cole')).toBeInTheDocument();
    expect(within(table).queryByText('Trial week: Omar Said')).not.toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain('/api/kisi/group_links?limit=10&offset=0&query=harriet');
    const box = screen.getByRole('searchbox', { name: 'Search access links' });
    expect(box).toHaveValue('harriet');
    await user.clear(box);
    await user.type(box, 'omar');
    await waitFor(() => expect(view.router.state.location.search).toBe('?query=omar'));
    expect(await within(screen.getByRole('table', { name: 'Access links' })).findByText('Trial week: Omar Said')).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain('/api/kisi/group_links?limit=10&offset=0&query=omar');
  });

  it('creates a link for the server’s group and shows its secret and QR token', async () => {
    const { api, user } = setup('/kisi/group_links', { links: [] });
    expect(await screen.findByText('No access links')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New access link' }));
    const dialog = await screen.findByRole('dialog', { name: 'New access link' });
    await user.type(within(dialog).getByLabelText('Link name'), 'Guest: Sam Lee');
    await user.type(within(dialog).getByLabelText('Email'), 'sam-at-mail');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('Email is invalid')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'sam@mail.example');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const created = await within(dialog).findByTestId('created-link');
    expect(created).toHaveTextContent('Guest: Sam Lee');
    expect(created).toHaveTextContent('sam@mail.example');
    expect(within(created).getByText('c0ffee-secret-42')).toBeInTheDocument();
    expect(within(created).getByText('qr-token-7')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ group_link: { name: 'Guest: Sam Lee', email: 'sam@mail.example', quick_response_code_type: 'online' } });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await within(screen.getByRole('table', { name: 'Access links' })).findByText('Guest: Sam Lee')).toBeInTheDocument();
  });

  it('deletes a link after confirming', async () => {
    const { user } = setup('/kisi/group_links', { links: [harriet] });
    await user.click(await screen.findByRole('button', { name: 'Delete Day pass: Harriet Cole' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete “Day pass: Harriet Cole”?' })).getByRole('button', { name: 'Delete link' }));
    expect(await screen.findByText('No access links')).toBeInTheDocument();
  });
});
