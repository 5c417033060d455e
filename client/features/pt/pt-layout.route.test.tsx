import { screen, within } from '@testing-library/react';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, renderApp, signedInAs } from '@/test-support/test-utils';
import { fakePt, order } from '@/test-support/pt.fake-api';

fakeEventSourceEachTest();
beforeEach(() => window.localStorage.clear());

const linksOf = (name: string) =>
  within(screen.getByRole('navigation', { name }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('the food court’s menus for each audience', () => {
  it('offers a diner (no account) the menu, cart, their order and help only: in the header and in the food court’s tabs', async () => {
    fakeBff(fakePt().handlers);
    renderApp('/pt/diner/menu?table=6');
    const header = within(await screen.findByRole('navigation', { name: 'Main' }));
    await header.findByRole('link', { name: 'Menu' });
    expect(linksOf('Main')).toEqual(['Menu', 'Cart', 'Your order', 'Help', 'Sign in']);
    expect(linksOf('Food court')).toEqual(['Menu', 'Cart', 'Your order', 'Help']);
    const tabs = within(screen.getByRole('navigation', { name: 'Food court' }));
    expect(tabs.getByRole('link', { name: 'Menu' })).toHaveAttribute('aria-current', 'page');
    expect(await tabs.findByRole('link', { name: 'Help' })).toHaveAttribute('href', '/help?table=6'); // the desk knows where to come
    // No staff page anywhere on the page: not the shell, the owners, the self-test or the demos.
    for (const name of [/Staff shell/, /Gym owners/, /Self-test/, /Windphony/, /Stalls/, /Runner board/]) expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
  });

  it('offers staff the stalls, the diner’s pages to try an order, the board and the QR sheet, but no help request', async () => {
    fakeBff([signedInAs({ role: 'staff', name: 'Sam Staff' }), ...fakePt().handlers], { signedIn: true });
    renderApp('/pt/stalls');
    expect(await screen.findByText('Sam Staff')).toBeInTheDocument();
    expect(linksOf('Food court')).toEqual(['Stalls', 'Menu', 'Cart', 'Your order', 'Runner board', 'Kitchen screens', 'Table QR codes', 'Figures']);
  });
});

describe('/pt/diner/order', () => {
  it('shows the diner’s latest order, followed live, and the earlier ones to pick', async () => {
    const pt = fakePt({ orders: [order(1, { table: 6 }), order(2, { table: 6, status: 'preparing' })] });
    const tracked = pt.orders.map(({ token, key: _key, ...o }) => ({ token, order: o })).reverse();
    window.localStorage.setItem('frontdesk.pt.orders', JSON.stringify(tracked));
    fakeBff(pt.handlers);
    renderApp('/pt/diner/order');
    const latest = (await screen.findByRole('heading', { name: 'Order 2' })).closest('section')!;
    expect(within(latest).getByRole('listitem', { current: 'step' })).toHaveTextContent('Preparing');
    expect(FakeEventSource.current().url).toBe('/api/pt/orders/2/stream?token=token-2');
    expect(within(screen.getByRole('navigation', { name: 'Your other orders' })).getByRole('button', { name: 'Order 1' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Food court' })).getByRole('link', { name: 'Your order' })).toHaveAttribute('aria-current', 'page');
  });

  it('says there is no order yet and leads to the menu', async () => {
    fakeBff(fakePt().handlers);
    renderApp('/pt/diner/order');
    expect(await screen.findByText('No order yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse the menu' })).toHaveAttribute('href', '/pt/diner/menu');
  });
});
