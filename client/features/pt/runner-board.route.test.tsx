import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, fakeNotificationsEachTest, installFormDataShim, renderApp, signedInAs } from '@/test-support/test-utils';
import { fakePt, order, type FakePt } from '@/test-support/pt.fake-api';

fakeEventSourceEachTest();
const notifications = fakeNotificationsEachTest();
installFormDataShim();
afterEach(() => jest.restoreAllMocks());

const laksaLine = { id: 501, itemId: 11, stallId: 1, stallName: 'Laksa House', name: 'Laksa', unitPriceCents: 850, quantity: 2, note: 'no chilli', allergens: [], readyAt: null as string | null };

function board() {
  return fakePt({
    orders: [
      order(1, { table: 12, status: 'received', minutesAgo: 2, lines: [laksaLine] }),
      order(2, { table: 5, status: 'preparing', minutesAgo: 6 }),
      order(3, { table: 9, status: 'ready', minutesAgo: 12 }),
      order(4, { table: 2, status: 'served', minutesAgo: 30 }),
    ],
  });
}

const asRole = (role: 'runner' | 'staff') => signedInAs({ id: 5, email: `${role}@frontdesk.test`, name: `Riley ${role}`, role });

function setup(pt: FakePt = board(), { signedIn = true, role }: { signedIn?: boolean; role?: 'runner' | 'staff' } = {}) {
  const api = fakeBff([...(role ? [asRole(role)] : []), ...pt.handlers], { signedIn });
  const view = renderApp('/pt/runner');
  return { ...view, api, pt, user: userEvent.setup() };
}

const column = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) });
const ticket = (table: number) => screen.getByRole('article', { name: new RegExp(`^Table ${table} ·`) });
const patches = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'PATCH').map((c) => ({ path: c.path, body: c.body }));

describe('/pt/runner', () => {
  it('shows the open orders in Received, Preparing and Ready with their lines, notes and ages', async () => {
    setup();
    await screen.findByRole('heading', { name: 'Runner board' });
    expect(within(column('Received')).getByRole('article')).toHaveAccessibleName('Table 12 · Order 1');
    expect(within(column('Preparing')).getByRole('article')).toHaveAccessibleName('Table 5 · Order 2');
    expect(within(column('Ready')).getByRole('article')).toHaveAccessibleName('Table 9 · Order 3');
    expect(column('Received')).toHaveTextContent('Received 1');

    const first = ticket(12);
    expect(first).toHaveTextContent('2 ×Laksa Laksa House');
    expect(first).toHaveTextContent('Note: no chilli');
    expect(within(first).getByText('2 min').closest('.ticket-age')).toHaveClass('age-fresh');
    expect(within(ticket(5)).getByText(/6 min/).closest('.ticket-age')).toHaveClass('age-waiting');
    expect(ticket(5)).toHaveTextContent('6 min · waiting');
    expect(within(ticket(9)).getByText(/12 min/).closest('.ticket-age')).toHaveClass('age-late');
    expect(ticket(9)).toHaveTextContent('12 min · late');

    // Served orders are off the board, within reach of an undo.
    const recent = screen.getByRole('list', { name: 'Served and cancelled recently' });
    expect(recent).toHaveTextContent('Table 2 · Order 4 Served');
    expect(screen.queryByRole('article', { name: /^Table 2 ·/ })).not.toBeInTheDocument();
  });

  it('shows how many dishes of an order being prepared are ready, each ready one marked, per stall and in all', async () => {
    const lines = [
      { ...laksaLine, readyAt: '2026-03-10T12:00:00.000Z' },
      { ...laksaLine, id: 502, name: 'Wonton soup', note: null },
      { ...laksaLine, id: 503, stallId: 2, stallName: 'Grill', name: 'Satay', note: null },
    ];
    const cooking = order(9, { table: 6, status: 'preparing', minutesAgo: 4, lines });
    setup(fakePt({ orders: [cooking] }));
    await screen.findByRole('heading', { name: 'Runner board' });
    expect(ticket(6)).toHaveTextContent('1 of 3 ready');
    expect([...ticket(6).querySelectorAll('.ticket-lines li')].map((li) => li.textContent)).toEqual(['2 ×Laksa Laksa House readyNote: no chilli', '2 ×Wonton soup Laksa House', '2 ×Satay Grill']);
    expect(within(within(ticket(6)).getByRole('list', { name: 'Stalls of order 9' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Laksa House · 1 of 2 ready', 'Grill · Preparing']);
  });

  it("shows, per order from several stalls, which stalls' parts are done", async () => {
    const twoStalls = order(7, { table: 3, status: 'preparing', minutesAgo: 3, lines: [laksaLine, { ...laksaLine, id: 502, stallId: 2, stallName: 'Grill', name: 'Satay' }] });
    twoStalls.tickets = twoStalls.tickets.map((t) => (t.stallId === 1 ? { ...t, status: 'ready' } : t));
    setup(fakePt({ orders: [twoStalls, order(8, { table: 4 })] }));
    await screen.findByRole('heading', { name: 'Runner board' });
    const chips = within(ticket(3)).getByRole('list', { name: 'Stalls of order 7' });
    expect(within(chips).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Laksa House · ✓ Ready', 'Grill · Preparing']);
    // One stall only: nothing to tell apart.
    expect(within(ticket(4)).queryByRole('list', { name: /^Stalls/ })).not.toBeInTheDocument();
  });

  it('bumps a ticket: PATCHes the next status and moves it to the next column', async () => {
    const { user, api } = setup();
    await screen.findByRole('heading', { name: 'Runner board' });
    await user.click(within(ticket(12)).getByRole('button', { name: 'Start preparing (order 1)' }));
    await waitFor(() => expect(within(column('Preparing')).getAllByRole('article')).toHaveLength(2));
    expect(patches(api)).toEqual([{ path: '/api/pt/orders/1', body: { status: 'preparing' } }]);
    expect(within(column('Received')).queryByRole('article')).not.toBeInTheDocument();
    expect(screen.getByText('Order 1 (table 12) is preparing.')).toBeInTheDocument();

    await user.click(within(ticket(9)).getByRole('button', { name: 'Mark served (order 3)' }));
    await waitFor(() => expect(within(column('Ready')).queryByRole('article')).not.toBeInTheDocument());
    expect(patches(api).at(-1)).toEqual({ path: '/api/pt/orders/3', body: { status: 'served' } });
    expect(await within(screen.getByRole('list', { name: 'Served and cancelled recently' })).findByText('Table 9')).toBeInTheDocument();
  });

  it('undoes one step, on a ticket and from the served list', async () => {
    const { user, api } = setup();
    await screen.findByRole('heading', { name: 'Runner board' });
    await user.click(within(ticket(5)).getByRole('button', { name: 'Undo (order 2, back to Received)' }));
    await waitFor(() => expect(within(column('Received')).getAllByRole('article')).toHaveLength(2));
    expect(patches(api)).toEqual([{ path: '/api/pt/orders/2', body: { status: 'received' } }]);

    const recent = screen.getByRole('list', { name: 'Served and cancelled recently' });
    await user.click(within(recent).getByRole('button', { name: 'Undo (order 4, back to Ready)' }));
    await waitFor(() => expect(within(column('Ready')).getAllByRole('article')).toHaveLength(2));
    expect(patches(api).at(-1)).toEqual({ path: '/api/pt/orders/4', body: { status: 'ready' } });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Served and cancelled recently' })).not.toBeInTheDocument());
  });

  it('adds a new order from a live event without reloading, marked New', async () => {
    const { api, pt } = setup();
    await screen.findByRole('heading', { name: 'Runner board' });
    const stream = FakeEventSource.current();
    expect(stream.url).toBe('/api/events');
    act(() => stream.open());
    await act(async () => {}); // the board has settled on its reads (the one on open too): their answers are in
    const reads = () => api.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/pt/orders')).length;
    const readsBefore = reads();

    const placed = order(7, { table: 21, status: 'received', minutesAgo: 0 });
    pt.orders.push(placed);
    act(() => stream.emit('order', { ...placed, token: undefined }, '41'));

    const fresh = await within(column('Received')).findByRole('article', { name: 'Table 21 · Order 7' });
    expect(fresh).toHaveTextContent('New');
    expect(fresh).toHaveTextContent('just now');
    expect(within(column('Received')).getAllByRole('article').map((a) => a.getAttribute('aria-labelledby'))).toEqual(['ticket-1', 'ticket-7']);
    expect(screen.getByText('New order 7 for table 21.')).toBeInTheDocument();
    // Another runner's bump arrives the same way: the ticket moves on.
    act(() => stream.emit('order', { ...pt.orders[0]!, token: undefined, status: 'preparing', updatedAt: new Date().toISOString() }, '42'));
    await waitFor(() => expect(within(column('Preparing')).getAllByRole('article')).toHaveLength(2));
    // Straight from the events: the board did not read the orders again.
    expect(reads()).toBe(readsBefore);
  });

  it('notifies of a new order while the tab is hidden, not of a bump', async () => {
    const { pt } = setup();
    await screen.findByRole('heading', { name: 'Runner board' });
    const stream = FakeEventSource.current();
    act(() => stream.open());
    await act(async () => {});

    act(() => stream.emit('order', { ...pt.orders[0]!, token: undefined, status: 'preparing', updatedAt: new Date().toISOString() }, '70'));
    const placed = order(8, { table: 12, status: 'received', minutesAgo: 0 });
    pt.orders.push(placed);
    act(() => stream.emit('order', { ...placed, token: undefined }, '71'));
    expect(notifications.shown.map(({ title, body, tag }) => ({ title, body, tag }))).toEqual([{ title: 'New order 8', body: 'Table 12', tag: 'order-8' }]);
  });

  it('shows an order placed after the board was read but before its live stream opened', async () => {
    const { pt } = setup();
    await screen.findByRole('heading', { name: 'Runner board' });
    await within(column('Received')).findByRole('article', { name: 'Table 12 · Order 1' });
    // Placed in the gap: no event will ever announce it to this board.
    pt.orders.push(order(9, { table: 30, status: 'received', minutesAgo: 0 }));
    act(() => FakeEventSource.current().open());
    expect(await within(column('Received')).findByRole('article', { name: 'Table 30 · Order 9' })).toBeInTheDocument();
  });

  it('after the stream drops and comes back, shows what happened meanwhile: an order placed, one served elsewhere', async () => {
    const { pt } = setup();
    await screen.findByRole('heading', { name: 'Runner board' });
    const stream = FakeEventSource.current();
    act(() => stream.open());
    await act(async () => {});
    act(() => stream.drop());
    // Neither is ever announced to this board.
    pt.orders.push(order(9, { table: 30, status: 'received', minutesAgo: 0 }));
    Object.assign(pt.orders.find((o) => o.id === 3)!, { status: 'served', updatedAt: new Date().toISOString() });
    act(() => stream.open());
    expect(await within(column('Received')).findByRole('article', { name: 'Table 30 · Order 9' })).toBeInTheDocument();
    await waitFor(() => expect(within(column('Ready')).queryByRole('article')).not.toBeInTheDocument());
    expect(await within(screen.getByRole('list', { name: 'Served and cancelled recently' })).findByText('Table 9')).toBeInTheDocument();
  });

  it('takes in an event that arrives before its first read has settled', async () => {
    const { pt } = setup();
    await screen.findByRole('heading', { name: 'Runner board' });
    const placed = order(8, { table: 3, status: 'received', minutesAgo: 0 });
    pt.orders.push(placed);
    act(() => FakeEventSource.current().emit('order', { ...placed, token: undefined }, '50'));
    expect(await within(column('Received')).findByRole('article', { name: 'Table 3 · Order 8' })).toBeInTheDocument();
    await act(async () => {}); // the reads asked so far have answered
    expect(within(column('Received')).getByRole('article', { name: 'Table 3 · Order 8' })).toBeInTheDocument();
  });

  it('says so in a toast when another runner moved the order first (409), and shows the board as it is now', async () => {
    const { user, pt } = setup();
    await screen.findByRole('heading', { name: 'Runner board' });
    pt.orders.find((o) => o.id === 1)!.status = 'served'; // served by another runner; this board has not heard yet
    await user.click(within(ticket(12)).getByRole('button', { name: 'Start preparing (order 1)' }));
    expect(await screen.findByText('Order 1 was not moved')).toBeInTheDocument();
    expect(screen.getByText('Order 1 is served; it cannot move to preparing. The board has been refreshed.')).toBeInTheDocument();
    await waitFor(() => expect(within(column('Received')).queryByRole('article')).not.toBeInTheDocument());
    expect(within(screen.getByRole('list', { name: 'Served and cancelled recently' })).getByText('Table 12')).toBeInTheDocument();
  });

  it('cancels only after a confirmation', async () => {
    const { user, api } = setup();
    await screen.findByRole('heading', { name: 'Runner board' });
    await user.click(within(ticket(5)).getByRole('button', { name: 'Cancel order 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order 2?' });
    expect(within(dialog).getByRole('button', { name: 'Keep order' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Keep order' }));
    expect(patches(api)).toEqual([]);
    expect(ticket(5)).toBeInTheDocument();

    await user.click(within(ticket(5)).getByRole('button', { name: 'Cancel order 2' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: /^Table 5 ·/ })).not.toBeInTheDocument());
    expect(patches(api)).toEqual([{ path: '/api/pt/orders/2', body: { status: 'cancelled' } }]);
    expect(await within(screen.getByRole('list', { name: 'Served and cancelled recently' })).findByText('Cancelled')).toBeInTheDocument();
  });

  it('opens for a runner', async () => {
    setup(board(), { role: 'runner' });
    expect(await screen.findByRole('heading', { name: 'Runner board' })).toBeInTheDocument();
  });

  it('sends a visitor to sign in first, asking for no orders', async () => {
    const { router, api } = setup(board(), { signedIn: false });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/pt/runner');
    expect(api.calls.some((c) => c.path.startsWith('/api/pt/orders'))).toBe(false);
  });

  it('shows an empty board plainly', async () => {
    setup(fakePt());
    expect(await screen.findByRole('heading', { name: 'No open orders' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /^Received/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /^Preparing/ })).not.toBeInTheDocument();
  });

  it('never hides an open order: when the oldest page leaves, the next ones come in; a new order beyond the page waits, counted', async () => {
    // 154 open orders, the oldest 100 preparing, then 54 received (the board: it showed "1 of 55" and Received 0).
    const orders = Array.from({ length: 154 }, (_, i) => order(i + 1, { table: 1 + (i % 40), status: i < 100 ? 'preparing' : 'received', minutesAgo: 300 - i }));
    const pt = fakePt({ orders });
    setup(pt);
    await screen.findByRole('heading', { name: 'Runner board' });
    expect(screen.getByText(/Showing the oldest 100 of 154 open orders/)).toBeInTheDocument();
    expect(column('Received')).toHaveTextContent('No new orders.');
    const stream = FakeEventSource.current();
    act(() => stream.open());

    // A new order is newer than every ticket shown: it is counted, not shown over the page.
    const placed = order(200, { table: 12, status: 'received', minutesAgo: 0 });
    pt.orders.push(placed);
    act(() => stream.emit('order', { ...placed, token: undefined }, '60'));
    await waitFor(() => expect(screen.getByText(/Showing the oldest 100 of 155 open orders/)).toBeInTheDocument());

    // Elsewhere the oldest 100 are cancelled: as they leave, the received ones fill the board.
    act(() => {
      for (const gone of pt.orders.slice(0, 100)) {
        Object.assign(gone, { status: 'cancelled', updatedAt: new Date().toISOString() });
        stream.emit('order', { ...gone, token: undefined }, String(100 + gone.id));
      }
    });
    await waitFor(() => expect(within(column('Received')).getAllByRole('article')).toHaveLength(55));
    expect(column('Preparing')).toHaveTextContent('Nothing being prepared.');
    expect(screen.queryByText(/Showing the oldest/)).not.toBeInTheDocument();
  }, 20_000); // a hundred tickets drawn several times in jsdom: seconds on a busy machine, not a wait
});
