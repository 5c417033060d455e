import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { fakeGym, member, owner } from '@/test-support/gym.fake-api';

afterEach(() => jest.restoreAllMocks());

function setup(path: string, gym = fakeGym({ owners: Array.from({ length: 25 }, (_, i) => owner(i + 1)) }), signedIn = true) {
  const api = fakeBff(gym.handlers, { signedIn });
  const view = renderApp(path);
  return { ...view, api, gym, user: userEvent.setup() };
}

const ownerCalls = (api: { calls: { method: string; path: string }[] }) =>
  api.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/gym/owners?') && !c.path.includes('pageSize=100')).map((c) => c.path);

describe('/gymowners/?page: 1-based in the URL, 0-based in the call', () => {
  it('asks the API for page 1 when the URL says page 2, and says where the list is', async () => {
    const { api } = setup('/gymowners/?page=2');
    expect(await screen.findByText('Owner 11')).toBeInTheDocument();
    expect(screen.queryByText('Owner 10')).not.toBeInTheDocument();
    expect(ownerCalls(api)).toEqual(['/api/gym/owners?page=1&pageSize=10']);
    expect(screen.getByText('Showing 11–20 of 25 owners')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it.each(['?page=abc', '?page=0', '?page=-3', '?page=2.5', ''])('falls back to page 1 for "%s" without complaint', async (search) => {
    const { api } = setup(`/gymowners/${search}`);
    expect(await screen.findByText('Owner 1')).toBeInTheDocument();
    expect(ownerCalls(api)).toEqual(['/api/gym/owners?page=0&pageSize=10']);
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('pages forward with Next and back with Previous', async () => {
    const { router, user, api } = setup('/gymowners/');
    await screen.findByText('Owner 1');
    const pager = screen.getByRole('navigation', { name: 'Owner pages' });
    await user.click(within(pager).getByRole('link', { name: 'Next' }));
    expect(await screen.findByText('Owner 11')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');
    expect(ownerCalls(api)).toContain('/api/gym/owners?page=1&pageSize=10');
    await user.click(within(screen.getByRole('navigation', { name: 'Owner pages' })).getByRole('link', { name: 'Previous' }));
    expect(await screen.findByText('Owner 1')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('offers the last page when the URL points past the end', async () => {
    setup('/gymowners/?page=9');
    expect(await screen.findByText('This page is past the end')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to page 3' })).toHaveAttribute('href', '/gymowners/?page=3');
    // Not "Showing 25–25 of 25 · Page 9 of 3".
    expect(screen.getByText(/^Past the end of \d+ owners$/)).toBeInTheDocument();
    expect(screen.getByText('3 pages in all')).toBeInTheDocument();
    expect(screen.queryByText(/^Showing /)).not.toBeInTheDocument();
  });

  it('searches as you type: the query goes in the URL, back to page 1', async () => {
    const { router, user, api } = setup('/gymowners/?page=2');
    await screen.findByText('Owner 11');
    await user.type(screen.getByRole('searchbox', { name: 'Search owners' }), 'owner 7');
    expect(await screen.findByText('Owner 7')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?query=owner+7'));
    expect(screen.queryByText('Owner 11')).not.toBeInTheDocument();
    // typing is debounced: one call for the whole word, not one per key
    expect(ownerCalls(api).filter((p) => p.includes('query='))).toEqual(['/api/gym/owners?page=0&pageSize=10&query=owner+7']);
  });

  it('says so when nobody matches', async () => {
    setup('/gymowners/?query=zzz');
    expect(await screen.findByText('No owners match')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Clear the search' })).toHaveAttribute('href', '/gymowners/');
  });

  it('says so when there are no owners at all, and offers to add one', async () => {
    setup('/gymowners/', fakeGym());
    expect(await screen.findByText('No gym owners yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add the first owner' })).toBeInTheDocument();
  });

  it('sends a signed-out visitor to the login first', async () => {
    const { router, api } = setup('/gymowners/?page=2', undefined, false);
    expect(await screen.findByRole('heading', { name: 'Sign in to Frontdesk' })).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/gymowners/?page=2');
    expect(ownerCalls(api)).toEqual([]);
  });
});

describe('adding an owner', () => {
  async function openForm(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('button', { name: 'Add owner' }));
    return await screen.findByRole('dialog', { name: 'Add a gym owner' });
  }

  it('checks the email with the contract before sending: the message under the field, what was typed kept', async () => {
    const { user, api } = setup('/gymowners/');
    const dialog = await openForm(user);
    await user.type(within(dialog).getByLabelText('Name'), 'Rita Moreno');
    await user.type(within(dialog).getByLabelText('Email'), 'rita@nowhere');
    await user.type(within(dialog).getByLabelText('Gym name'), 'Moreno Boxing');
    await user.click(within(dialog).getByRole('button', { name: 'Add owner' }));
    const email = within(dialog).getByLabelText('Email');
    expect(await within(dialog).findByText('Enter an email address such as name@example.com')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Enter an email address such as name@example.com');
    expect(email).toHaveFocus();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Rita Moreno');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('puts a duplicate email (409) on the email field', async () => {
    const { user } = setup('/gymowners/');
    const dialog = await openForm(user);
    await user.type(within(dialog).getByLabelText('Name'), 'Copy Cat');
    await user.type(within(dialog).getByLabelText('Email'), 'owner3@gyms.example');
    await user.type(within(dialog).getByLabelText('Gym name'), 'Copies');
    await user.click(within(dialog).getByRole('button', { name: 'Add owner' }));
    expect(await within(dialog).findByText('A gym owner with email owner3@gyms.example already exists.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('asks for the required fields before calling the server', async () => {
    const { user, api } = setup('/gymowners/');
    const dialog = await openForm(user);
    await user.click(within(dialog).getByRole('button', { name: 'Add owner' }));
    expect(within(dialog).getByText('Enter the owner’s name')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter an email address')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the gym’s name')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('holds the names to the contract’s length limit, which the form used not to check', async () => {
    const { user, api } = setup('/gymowners/');
    const dialog = await openForm(user);
    await user.click(within(dialog).getByLabelText('Name'));
    await user.paste('N'.repeat(121));
    await user.type(within(dialog).getByLabelText('Email'), 'long@gyms.example');
    await user.type(within(dialog).getByLabelText('Gym name'), 'Long Gym');
    await user.click(within(dialog).getByRole('button', { name: 'Add owner' }));
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('Use at most 120 characters');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('adds the owner, closes, confirms with a toast and refreshes the list', async () => {
    const { user, api } = setup('/gymowners/?query=rita', fakeGym({ owners: [owner(1)] }));
    await screen.findByText('No owners match');
    const dialog = await openForm(user);
    await user.type(within(dialog).getByLabelText('Name'), 'Rita Moreno');
    await user.type(within(dialog).getByLabelText('Email'), 'rita@moreno.example');
    await user.type(within(dialog).getByLabelText('Phone (optional)'), '+1 555 0100');
    await user.type(within(dialog).getByLabelText('Gym name'), 'Moreno Boxing');
    await user.click(within(dialog).getByRole('button', { name: 'Add owner' }));
    expect(await screen.findByText('Rita Moreno (Moreno Boxing) was added.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Rita Moreno/ })).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Rita Moreno', email: 'rita@moreno.example', phone: '+1 555 0100', gymName: 'Moreno Boxing' });
  });
});

describe('deleting an owner', () => {
  it('says at once that an owner who still has members cannot go, and offers no delete', async () => {
    const o = owner(1, { name: 'Marta Kowalski', gymName: 'Iron Harbour' });
    const { user, api } = setup('/gymowners/', fakeGym({ owners: [o], members: [member(1, o), member(2, o)] }));
    await user.click(await screen.findByRole('button', { name: 'Delete Marta Kowalski' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Marta Kowalski?' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Marta Kowalski still has 2 members at Iron Harbour. Move or delete them first: see their members.');
    expect(within(dialog).queryByRole('button', { name: 'Delete owner' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'see their members' })).toHaveAttribute('href', '/shell/gymowner/users?ownerId=1');
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('shows the server’s 409 in the dialog when a member was added meanwhile', async () => {
    const o = owner(1, { name: 'Marta Kowalski', gymName: 'Iron Harbour' });
    const gym = fakeGym({ owners: [o] });
    const { user } = setup('/gymowners/', gym);
    await user.click(await screen.findByRole('button', { name: 'Delete Marta Kowalski' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Marta Kowalski?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    gym.members.push(member(1, o), member(2, o));
    await user.click(within(dialog).getByRole('button', { name: 'Delete owner' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Marta Kowalski still has 2 members. Move or delete them first.');
    expect(within(dialog).getByRole('link', { name: 'See their members' })).toHaveAttribute('href', '/gymowners/1');
  });

  it('deletes an owner without members and takes them off the list', async () => {
    const { user } = setup('/gymowners/', fakeGym({ owners: [owner(1), owner(2, { name: 'Theo Brandt' })] }));
    await user.click(await screen.findByRole('button', { name: 'Delete Theo Brandt' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete owner' }));
    expect(await screen.findByText('Theo Brandt was deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: /Theo Brandt/ })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: /Owner 1/ })).toBeInTheDocument();
  });
});

describe('/gymowners/:id', () => {
  it('shows the owner and their members, paged, linking to each member', async () => {
    const o = owner(4, { name: 'Lena Vogel', gymName: 'Studio 24', phone: '+1 415 555 0117' });
    const members = Array.from({ length: 12 }, (_, i) => member(i + 1, o));
    const { api } = setup('/gymowners/4?page=2', fakeGym({ owners: [owner(1), o], members }));
    expect(await screen.findByRole('heading', { name: 'Lena Vogel' })).toBeInTheDocument();
    expect(screen.getByText('+1 415 555 0117')).toBeInTheDocument();
    // By name, as the BFF orders them: page 2 holds "Member 8" and "Member 9" ("Member 10" sorts before "Member 2").
    expect(screen.getByRole('link', { name: /Member 9/ })).toHaveAttribute('href', '/shell/gymowner/users/9');
    expect(screen.getByText('Showing 11–12 of 12 members')).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain('/api/gym/users?page=1&pageSize=10&ownerId=4');
  });

  it('deletes the owner from their own page, goes back to the list and never asks for them again', async () => {
    const { user, api, router } = setup('/gymowners/2', fakeGym({ owners: [owner(1), owner(2, { name: 'Theo Brandt' })] }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete owner' }));
    expect(await screen.findByText('Theo Brandt was deleted.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/gymowners/'));
    await screen.findByRole('link', { name: /Owner 1/ });
    const afterDelete = api.calls.slice(api.calls.findIndex((c) => c.method === 'DELETE') + 1);
    expect(afterDelete.filter((c) => c.path === '/api/gym/owners/2')).toEqual([]);
  });

  it.each(['99', 'abc'])('shows the not-found screen for the id %s', async (id) => {
    setup(`/gymowners/${id}`);
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });
});
