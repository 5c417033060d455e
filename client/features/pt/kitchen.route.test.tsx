import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeEventSource, fakeAudioEachTest, fakeBff, fakeEventSourceEachTest, renderApp, signedInAs } from '@/test-support/test-utils';
import { fakePt, order, stall, type FakePt } from '@/test-support/pt.fake-api';

fakeEventSourceEachTest();
const audio = fakeAudioEachTest();
beforeEach(() => window.localStorage.clear());
afterEach(() => jest.restoreAllMocks());

const noodles = (id: number, name = 'Laksa', note: string | null = null, allergens: string[] = []) => ({ id, itemId: 11, stallId: 1, stallName: 'Noodle Bar', name, unitPriceCents: 900, quantity: 1, note, allergens, readyAt: null as string | null });
const grill = (id: number, name = 'Satay') => ({ id, itemId: 21, stallId: 2, stallName: 'Grill', name, unitPriceCents: 800, quantity: 2, note: null, allergens: [], readyAt: null });

function kitchen() {
  return fakePt({
    stalls: [stall(1, { name: 'Noodle Bar' }), stall(2, { name: 'Grill' })],
    orders: [
      order(1, { table: 12, minutesAgo: 2, lines: [noodles(101, 'Laksa', 'no chilli', ['peanuts', 'shellfish']), grill(102), noodles(103, 'Wonton soup')] }),
      order(2, { table: 5, minutesAgo: 6, lines: [grill(201, 'Chicken wings')] }),
      order(3, { table: 9, status: 'preparing', minutesAgo: 12, lines: [noodles(301, 'Pad thai')] }),
      order(4, { table: 2, status: 'served', minutesAgo: 30, lines: [noodles(401, 'Ramen')] }),
    ],
  });
}

function setup(pt: FakePt = kitchen(), path = '/pt/kitchen/1') {
  const api = fakeBff([signedInAs({ id: 5, email: 'runner@frontdesk.test', name: 'Riley', role: 'runner' }), ...pt.handlers]);
  renderApp(path);
  return { api, pt, user: userEvent.setup() };
}

const column = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) });
const ticket = (order: number) => screen.getByRole('article', { name: new RegExp(`· Order ${order}$`) });
const patches = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'PATCH').map((c) => ({ path: c.path, body: c.body as { from: string; to: string } }));
const dish = (order: number, name: string) => within(ticket(order)).getByRole('button', { name: `${name} (order ${order}) ready` });

describe('/pt/kitchen/:stallId', () => {
  it("shows only this stall's lines of each open order, in columns by status, with the board's age colours", async () => {
    setup();
    await screen.findByRole('heading', { name: 'Noodle Bar', level: 1 });
    expect(within(column('New')).getAllByRole('article').map((a) => a.getAttribute('aria-labelledby'))).toEqual(['kt-1']);
    expect(ticket(1)).toHaveTextContent('1 ×Laksa');
    expect(ticket(1)).toHaveTextContent('Note: no chilli');
    expect(ticket(1)).toHaveTextContent('Wonton soup');
    expect(ticket(1)).not.toHaveTextContent('Satay'); // the grill's line
    expect(screen.queryByRole('article', { name: /Order 2$/ })).not.toBeInTheDocument(); // nothing from this stall
    expect(screen.queryByRole('article', { name: /Order 4$/ })).not.toBeInTheDocument(); // served
    expect(within(column('Preparing')).getByRole('article')).toHaveAccessibleName('Table 9 · Order 3');
    expect(within(ticket(1)).getByText('2 min').closest('.ticket-age')).toHaveClass('age-fresh');
    expect(within(ticket(3)).getByText(/12 min/).closest('.ticket-age')).toHaveClass('age-late');
  });

  it('bumps a ticket from the step it shows, and undoes it one step back', async () => {
    const { api, user, pt } = setup();
    await screen.findByRole('heading', { name: 'Noodle Bar', level: 1 });
    await user.click(within(ticket(1)).getByRole('button', { name: 'Start (order 1)' }));
    await waitFor(() => expect(within(column('Preparing')).getAllByRole('article')).toHaveLength(2));
    // Said to a screen reader, not toasted: quick taps would stack toasts over the next tickets.
    expect(screen.getByText('Order 1 (table 12) is preparing.').closest('[role="status"]')).toHaveClass('visually-hidden');
    expect(within(screen.getByRole('region', { name: 'Notifications' })).queryByText(/is preparing/)).not.toBeInTheDocument();
    expect(pt.orders[0]!.status).toBe('preparing'); // the order follows its first started ticket

    await user.click(within(ticket(1)).getByRole('button', { name: 'Undo (order 1, back to new)' }));
    await waitFor(() => expect(within(column('New')).getAllByRole('article')).toHaveLength(1));
    expect(patches(api)).toEqual([
      { path: '/api/pt/kitchen/1/tickets/1', body: { from: 'received', to: 'preparing' } },
      { path: '/api/pt/kitchen/1/tickets/1', body: { from: 'preparing', to: 'received' } },
    ]);
  });

  it("shows each dish's allergens as ordered and the diner's note on the ticket, and how many of its dishes are ready", async () => {
    setup();
    await screen.findByRole('heading', { name: 'Noodle Bar', level: 1 });
    expect(ticket(1)).toHaveTextContent('0 of 2 ready');
    const laksa = dish(1, 'Laksa').closest('li')!;
    expect(laksa).toHaveTextContent('Allergens: peanuts, shellfish');
    expect(laksa).toHaveTextContent('Note: no chilli');
    expect(dish(1, 'Wonton soup').closest('li')).not.toHaveTextContent(/Allergens|Note/);
    expect(dish(1, 'Laksa')).toHaveAttribute('aria-pressed', 'false');
  });

  it('marks dishes ready one tap at a time: the first starts the ticket, the last makes it ready; a tap again takes one back', async () => {
    const { api, user, pt } = setup();
    await screen.findByRole('heading', { name: 'Noodle Bar', level: 1 });
    await user.click(dish(1, 'Laksa'));
    await waitFor(() => expect(within(column('Preparing')).getAllByRole('article')).toHaveLength(2));
    expect(dish(1, 'Laksa')).toHaveAttribute('aria-pressed', 'true');
    expect(ticket(1)).toHaveTextContent('1 of 2 ready');
    expect(pt.orders[0]!.status).toBe('preparing');
    await user.click(dish(1, 'Wonton soup'));
    await waitFor(() => expect(within(column('Ready')).getByRole('article')).toHaveAccessibleName('Table 12 · Order 1'));
    expect(ticket(1)).toHaveTextContent('2 of 2 ready');
    expect(screen.getByText('Wonton soup of order 1 is ready.')).toBeInTheDocument();
    // Taken back: the ticket is preparing again.
    await user.click(dish(1, 'Laksa'));
    await waitFor(() => expect(within(column('Preparing')).getAllByRole('article')).toHaveLength(2));
    expect(api.calls.filter((c) => c.method === 'PATCH').map((c) => `${c.path} ${JSON.stringify(c.body)}`)).toEqual([
      '/api/pt/kitchen/1/tickets/1/lines/101 {"ready":true}',
      '/api/pt/kitchen/1/tickets/1/lines/103 {"ready":true}',
      '/api/pt/kitchen/1/tickets/1/lines/101 {"ready":false}',
    ]);
  });

  it('queues dish taps offline with the bumps, shows them at once, and sends each once when the network is back', async () => {
    const { api, user, pt } = setup();
    await screen.findByRole('heading', { name: 'Noodle Bar', level: 1 });
    pt.kitchenDown = true;
    await user.click(dish(1, 'Laksa'));
    expect(await screen.findByRole('alert')).toHaveTextContent('1 waiting.');
    await user.click(dish(1, 'Wonton soup'));
    await waitFor(() => expect(within(column('Ready')).getByRole('article')).toHaveAccessibleName('Table 12 · Order 1'));
    expect(within(ticket(1)).getByText('Waiting to send')).toBeInTheDocument();
    expect(pt.orders[0]!.lines.every((l) => l.readyAt === null)).toBe(true); // nothing reached the server

    const sentBefore = api.calls.filter((c) => c.method === 'PATCH').length;
    pt.kitchenDown = false;
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(screen.queryByText('Waiting to send')).not.toBeInTheDocument());
    const sent = api.calls.filter((c) => c.method === 'PATCH').slice(sentBefore);
    expect(sent.map((c) => `${c.path} ${JSON.stringify(c.body)}`)).toEqual(['/api/pt/kitchen/1/tickets/1/lines/101 {"ready":true}', '/api/pt/kitchen/1/tickets/1/lines/103 {"ready":true}']);
    expect(pt.orders[0]!.tickets.find((t) => t.stallId === 1)!.status).toBe('ready');
    expect(JSON.parse(window.localStorage.getItem('pt.kitchen-queue')!)).toEqual([]);
  });

  it('tells a stale bump apart: the 409 is shown and the screen reads the ticket as it is now', async () => {
    const { user, pt } = setup();
    await screen.findByRole('heading', { name: 'Noodle Bar', level: 1 });
    // Another screen took order 1's noodles to preparing and on to ready meanwhile.
    pt.orders[0]!.tickets = pt.orders[0]!.tickets.map((t) => (t.stallId === 1 ? { ...t, status: 'ready' } : t));
    await user.click(within(ticket(1)).getByRole('button', { name: 'Start (order 1)' }));
    expect(await screen.findByText(/is ready now, not received/)).toBeInTheDocument();
    await waitFor(() => expect(within(column('Ready')).getByRole('article')).toHaveAccessibleName('Table 12 · Order 1'));
  });

  it('keeps the tickets when the network drops, queues bumps, and sends them in order when it is back', async () => {
    const { api, user, pt } = setup();
    await screen.findByRole('heading', { name: 'Noodle Bar', level: 1 });
    pt.kitchenDown = true;
    await user.click(within(ticket(1)).getByRole('button', { name: 'Start (order 1)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Offline — bumps are queued and will be sent when the connection is back. 1 waiting.');
    await user.click(within(ticket(3)).getByRole('button', { name: 'Ready (order 3)' }));
    await user.click(within(ticket(1)).getByRole('button', { name: 'Ready (order 1)' }));
    // The screen shows the bumps at once, marked as not sent yet.
    await waitFor(() => expect(within(column('Ready')).getAllByRole('article')).toHaveLength(2));
    expect(within(ticket(1)).getByText('Waiting to send')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('3 waiting.');
    expect(pt.orders[0]!.tickets[0]!.status).toBe('received'); // nothing reached the server

    const sentBefore = patches(api).length;
    pt.kitchenDown = false;
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByText('Waiting to send')).not.toBeInTheDocument());
    expect(patches(api).slice(sentBefore).map((p) => `${p.path} ${p.body.from}→${p.body.to}`)).toEqual([
      '/api/pt/kitchen/1/tickets/1 received→preparing',
      '/api/pt/kitchen/1/tickets/3 preparing→ready',
      '/api/pt/kitchen/1/tickets/1 preparing→ready',
    ]);
    expect(pt.orders.map((o) => o.tickets.find((t) => t.stallId === 1)?.status)).toEqual(['ready', undefined, 'ready', 'ready']);
    // Then it catches up: the screen is read again.
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'GET' && c.path === '/api/pt/kitchen/1/tickets').length).toBeGreaterThan(1));
    expect(JSON.parse(window.localStorage.getItem('pt.kitchen-queue')!)).toEqual([]);
  });

  it('does not say Live while it says Offline: the badge waits for the network with the bumps', async () => {
    const { pt, user } = setup();
    await screen.findByRole('heading', { name: 'Noodle Bar', level: 1 });
    act(() => FakeEventSource.current().open());
    expect(screen.getByTitle('Live tickets: Live')).toBeInTheDocument();
    // A bump finds no network, though the stream's connection has not noticed yet.
    pt.kitchenDown = true;
    await user.click(within(ticket(1)).getByRole('button', { name: 'Start (order 1)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Offline');
    expect(screen.queryByText('Live')).not.toBeInTheDocument();
    expect(screen.getByTitle(/^Live tickets:/)).toHaveTextContent('Offline');
    pt.kitchenDown = false;
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getByTitle('Live tickets: Live')).toBeInTheDocument();

    // The browser's own word for it says the same.
    jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(await screen.findByRole('alert')).toHaveTextContent('Offline');
    expect(screen.getByTitle(/^Live tickets:/)).toHaveTextContent('Offline');
  });

  it("adds a new ticket live with a flash and, once turned on for this device, a chime; another stall's order stays off", async () => {
    const { user } = setup();
    await screen.findByRole('heading', { name: 'Noodle Bar', level: 1 });
    const sound = screen.getByRole('button', { name: 'Sound off' });
    await user.click(sound);
    expect(screen.getByRole('button', { name: 'Sound on' })).toHaveAttribute('aria-pressed', 'true');
    expect(window.localStorage.getItem('pt.kitchen-sound')).toBe('true');
    const chimesSoFar = audio.tones; // turning it on plays it once

    const stream = FakeEventSource.current();
    act(() => stream.open());
    const placed = order(7, { table: 3, lines: [noodles(701, 'Curry mee'), grill(702)] });
    act(() => stream.emit('order', { ...placed, token: undefined }, '41'));
    const fresh = await screen.findByRole('article', { name: 'Table 3 · Order 7' });
    expect(fresh).toHaveClass('kitchen-fresh');
    expect(fresh).not.toHaveTextContent('Satay');
    expect(audio.tones).toBeGreaterThan(chimesSoFar);
    expect(screen.getByText('New ticket: order 7 for table 3.')).toBeInTheDocument();

    act(() => stream.emit('order', { ...order(8, { table: 4, lines: [grill(801)] }), token: undefined }, '42'));
    expect(screen.queryByRole('article', { name: /Order 8$/ })).not.toBeInTheDocument();
    delete (window as unknown as { AudioContext?: unknown }).AudioContext;
  });

  it('offers every stall at /pt/kitchen', async () => {
    setup(kitchen(), '/pt/kitchen');
    const list = await screen.findByRole('list', { name: 'Stalls' });
    expect(within(list).getByRole('link', { name: 'Grill' })).toHaveAttribute('href', '/pt/kitchen/2');
  });

  // "The pass" is kitchen talk that a reader takes for a password.
  it('says where the tablet goes in plain words, on the picker and on an empty Ready column', async () => {
    setup(kitchen(), '/pt/kitchen');
    await screen.findByRole('list', { name: 'Stalls' });
    expect(screen.getByText(/on the tablet at its counter, where dishes are handed over/)).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/\bpass\b/i);
    cleanup();
    setup();
    expect(within(await screen.findByRole('region', { name: /^Ready/ })).getByText('Nothing waiting to be picked up.')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/\bpass\b/i);
  });
});
