import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, installFormDataShim, renderApp } from '@/test-support/test-utils';
import { fakePt, menuItem, order, stall, type FakePt } from '@/test-support/pt.fake-api';
import { formatMoney } from './pt-format';

installFormDataShim();
afterEach(() => jest.restoreAllMocks());

const many = () => fakePt({ stalls: Array.from({ length: 14 }, (_, i) => stall(i + 1, { name: `Stall ${String(i + 1).padStart(2, '0')}`, cuisine: i === 3 ? 'Noodles' : 'Grill' })) });

function setup(path: string, pt: FakePt = many(), signedIn = false) {
  const api = fakeBff(pt.handlers, { signedIn });
  const view = renderApp(path);
  return { ...view, api, pt, user: userEvent.setup() };
}

const stallCalls = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/pt/stalls?')).map((c) => c.path);

describe('/pt/stalls', () => {
  it('lists stalls for anyone, 1-based in the URL and 0-based in the call, without staff controls', async () => {
    const { api } = setup('/pt/stalls?page=2');
    expect(await screen.findByRole('link', { name: /Stall 11/ })).toHaveAttribute('href', '/pt/stalls/11');
    expect(stallCalls(api)).toEqual(['/api/pt/stalls?page=1&pageSize=10']);
    expect(screen.getByText('Showing 11–14 of 14 stalls')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add stall' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it('searches by cuisine and says plainly when nothing matches', async () => {
    const { user, router } = setup('/pt/stalls');
    await screen.findByRole('link', { name: /Stall 01/ });
    await user.type(screen.getByRole('searchbox', { name: 'Search stalls' }), 'noodles');
    await waitFor(() => expect(router.state.location.search).toBe('?query=noodles'));
    // Stall 04 is in the unfiltered list too: wait for the list to be the search's answer.
    await waitFor(() => expect(screen.getAllByRole('listitem').filter((li) => li.classList.contains('pt-row'))).toHaveLength(1));
    expect(screen.getByRole('link', { name: /Stall 04/ })).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Search stalls' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search stalls' }), 'sushi');
    expect(await screen.findByRole('heading', { name: 'No stalls match' })).toBeInTheDocument();
  });

  it('lets staff add a stall in a modal, with the server’s field errors on their fields, then opens it', async () => {
    const { user, router, api } = setup('/pt/stalls', many(), true);
    await user.click(await screen.findByRole('button', { name: 'Add stall' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a stall' });
    await user.type(within(dialog).getByLabelText('Name'), 'stall 03');
    await user.click(within(dialog).getByRole('button', { name: 'Add stall' }));
    const name = within(dialog).getByLabelText('Name');
    expect(await within(dialog).findByText('A stall named stall 03 already exists')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();

    await user.clear(name);
    await user.type(name, 'Taco Loco');
    await user.type(within(dialog).getByLabelText('Cuisine (optional)'), 'Mexican');
    await user.click(within(dialog).getByRole('button', { name: 'Add stall' }));
    expect(await screen.findByText('Taco Loco was added. Add its menu next.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/pt/stalls/15'));
    expect(await screen.findByRole('heading', { name: 'Taco Loco', level: 1 })).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ name: 'Taco Loco', cuisine: 'Mexican', description: null });
  });

  it('shows a 409 “still has open orders” inside the delete dialog and keeps the stall', async () => {
    const pt = fakePt({
      stalls: [stall(1, { name: 'Laksa House' })],
      items: [menuItem(11, 1)],
      orders: [order(1, { status: 'preparing', lines: [{ id: 1, itemId: 11, stallId: 1, stallName: 'Laksa House', name: 'Laksa', unitPriceCents: 850, quantity: 1, note: null, allergens: [], readyAt: null }] })],
    });
    const { user } = setup('/pt/stalls', pt, true);
    await user.click(await screen.findByRole('button', { name: 'Delete Laksa House' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Laksa House?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete stall' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Laksa House still has 1 open order');
    expect(within(dialog).getByRole('link', { name: 'Open the runner board' })).toHaveAttribute('href', '/pt/runner');
    expect(pt.stalls).toHaveLength(1);
  });
});

describe('/pt/stalls/:id', () => {
  const house = stall(3, { name: 'Laksa House', cuisine: 'Malaysian', description: 'Noodle soups from Penang.' });
  const items = [
    menuItem(31, 3, { name: 'Curry laksa', category: 'Noodles', priceCents: 1250, allergens: ['shellfish', 'peanuts'] }),
    menuItem(32, 3, { name: 'Iced tea', category: 'Drinks', priceCents: 300, soldOut: true }),
    menuItem(33, 3, { name: 'Assam laksa', category: 'Noodles', priceCents: 1150 }),
  ];

  it('shows the menu by category with prices in the venue currency, sold-out items marked', async () => {
    setup('/pt/stalls/3', fakePt({ stalls: [house], items }));
    expect(await screen.findByRole('heading', { name: 'Laksa House', level: 1 })).toBeInTheDocument();
    const noodles = screen.getByRole('region', { name: 'Noodles' });
    expect(within(noodles).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Curry laksa', 'Assam laksa']);
    expect(noodles).toHaveTextContent(formatMoney(1250, 'EUR'));
    expect(noodles).toHaveTextContent('Allergens: shellfish, peanuts');
    expect(within(screen.getByRole('region', { name: 'Drinks' })).getByText('Sold out')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Mark sold out/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Order from this stall' })).toHaveAttribute('href', '/pt/diner/menu?stall=3');
  });

  it('lets staff mark an item sold out and available again, pause the stall, and edit a price', async () => {
    const { user, api, pt } = setup('/pt/stalls/3', fakePt({ stalls: [house], items }), true);
    await user.click(await screen.findByRole('button', { name: 'Mark sold out Curry laksa' }));
    expect(await screen.findByText('Curry laksa is marked sold out.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Mark available Curry laksa' })).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'PATCH')).toMatchObject({ path: '/api/pt/items/31', body: { soldOut: true } });

    await user.click(screen.getByRole('button', { name: 'Pause stall' }));
    expect(await screen.findByText('Laksa House is paused: diners see it as paused and cannot order from it.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Open stall' })).toBeInTheDocument();
    expect(pt.stalls[0]!.status).toBe('paused');

    await user.click(screen.getByRole('button', { name: 'Edit Assam laksa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Assam laksa' });
    const price = within(dialog).getByLabelText(/^Price/);
    expect(price).toHaveValue('11.50');
    await user.clear(price);
    await user.type(price, '1200.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save item' }));
    expect(await within(dialog).findByText('A price can be at most 1000.00')).toBeInTheDocument();
    // A price with more digits than any price has is still a price: too high, not unreadable.
    await user.clear(price);
    await user.type(price, '99999999');
    await user.click(within(dialog).getByRole('button', { name: 'Save item' }));
    expect(await within(dialog).findByText('A price can be at most 1000.00')).toBeInTheDocument();
    await user.clear(price);
    await user.type(price, '7.505');
    await user.click(within(dialog).getByRole('button', { name: 'Save item' }));
    expect(await within(dialog).findByText('Enter a price with at most two decimals')).toBeInTheDocument();
    await user.clear(price);
    await user.type(price, '12,75');
    await user.click(within(dialog).getByRole('button', { name: 'Save item' }));
    expect(await screen.findByText(`Assam laksa was saved (${formatMoney(1275, 'EUR')}).`)).toBeInTheDocument();
    expect(pt.items.find((i) => i.id === 33)!.priceCents).toBe(1275);
  });

  it('adds an item with its allergens', async () => {
    const { user, pt } = setup('/pt/stalls/3', fakePt({ stalls: [house], items: [] }), true);
    expect(await screen.findByRole('heading', { name: 'No items on the menu yet' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add the first item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an item to Laksa House' });
    await user.type(within(dialog).getByLabelText('Name'), 'Roti canai');
    await user.type(within(dialog).getByLabelText(/^Price/), '4.5');
    await user.type(within(dialog).getByLabelText('Allergens (optional)'), 'gluten, dairy');
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    expect(await screen.findByText('Roti canai was added to the menu.')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Mains' })).toHaveTextContent(formatMoney(450, 'EUR'));
    expect(pt.items[0]).toMatchObject({ name: 'Roti canai', priceCents: 450, allergens: ['gluten', 'dairy'], category: 'Mains' });
  });

  it.each(['99', 'abc'])('shows the not-found screen for the id %s', async (id) => {
    setup(`/pt/stalls/${id}`, fakePt({ stalls: [house], items }));
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });
});
