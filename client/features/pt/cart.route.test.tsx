import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, installFormDataShim, renderApp } from '@/test-support/test-utils';
import { fakePt, menuItem, stall, stallWait, type FakePt } from '@/test-support/pt.fake-api';
import { formatTime } from '@/lib/format';
import { formatMoney } from './pt-format';

fakeEventSourceEachTest();
installFormDataShim();
beforeEach(() => window.localStorage.clear());
afterEach(() => jest.restoreAllMocks());

/** The venue's currency as the page writes it (the reader's locale decides "€8.50" or "8,50 €"). */
const eur = (cents: number) => formatMoney(cents, 'EUR');

const laksaHouse = stall(1, { name: 'Laksa House', cuisine: 'Malaysian' });
const pizza = stall(2, { name: 'Forno', cuisine: 'Pizza' });
const laksa = menuItem(11, 1, { name: 'Laksa', priceCents: 850, category: 'Noodles' });
const satay = menuItem(12, 1, { name: 'Satay', priceCents: 600, category: 'Sides', soldOut: true });
const margherita = menuItem(21, 2, { name: 'Margherita', priceCents: 1100, category: 'Pizza' });

function setup(path: string, pt: FakePt = fakePt({ stalls: [laksaHouse, pizza], items: [laksa, satay, margherita], tables: 30 })) {
  const api = fakeBff(pt.handlers);
  const view = renderApp(path);
  return { ...view, api, pt, user: userEvent.setup() };
}

const orderCalls = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'POST' && c.path === '/api/pt/order');

async function addFromMenu(user: ReturnType<typeof userEvent.setup>, name: string, quantity = 1, note = '') {
  await user.click(await screen.findByRole('button', { name: `Add ${name}` }));
  const dialog = await screen.findByRole('dialog', { name: `Add ${name}` });
  for (let n = 1; n < quantity; n++) await user.click(within(dialog).getByRole('button', { name: `One more ${name}` }));
  if (note) await user.type(within(dialog).getByLabelText('Note for the stall (optional)'), note);
  await user.click(within(dialog).getByRole('button', { name: 'Add to cart' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

const cartLine = (name: string) => within(screen.getByRole('list', { name: 'Dishes in your cart' })).getByText(name, { selector: '.cart-line-name' }).closest('li')!;

describe('/pt/diner/menu → cart', () => {
  it('checks the dish against the menu as it is now before adding it: sold out, or its stall paused, since the page loaded', async () => {
    const { user, pt } = setup('/pt/diner/menu?table=12');
    await user.click(await screen.findByRole('button', { name: 'Add Laksa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Laksa' });
    pt.items.find((i) => i.name === 'Laksa')!.soldOut = true; // the stall marks it while the diner chooses
    await user.click(within(dialog).getByRole('button', { name: 'Add to cart' }));
    expect(await within(dialog).findByText('Laksa has just sold out.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    // The menu behind it now says so too, and the cart is as it was.
    expect(within(screen.getByRole('heading', { name: 'Laksa' }).closest('li')!).getByText('Sold out')).toBeInTheDocument();
    expect(window.localStorage.getItem('frontdesk.pt.cart')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Add Margherita' }));
    const pizzaDialog = await screen.findByRole('dialog', { name: 'Add Margherita' });
    pt.stalls.find((s) => s.name === 'Forno')!.status = 'paused';
    await user.click(within(pizzaDialog).getByRole('button', { name: 'Add to cart' }));
    expect(await within(pizzaDialog).findByText('Forno has just stopped taking orders, so Margherita cannot be added.')).toBeInTheDocument();
  });

  it('remembers the QR code’s table, shows sold-out dishes without an Add button, and adds with quantity and note', async () => {
    const { user, router } = setup('/pt/diner/menu?table=12');
    expect(await screen.findByText(/You are ordering for/)).toHaveTextContent('You are ordering for table 12.');
    expect(window.localStorage.getItem('frontdesk.pt.table')).toBe('12');

    const satayRow = screen.getByRole('heading', { name: 'Satay' }).closest('li')!;
    expect(within(satayRow).getByText('Sold out')).toBeInTheDocument();
    expect(within(satayRow).queryByRole('button')).not.toBeInTheDocument();

    // The dialog opens on "One more", not on the typed count: a phone's keyboard would cover the dialog.
    await user.click(screen.getByRole('button', { name: 'Add Laksa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Laksa' });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'One more Laksa' })).toHaveFocus());
    expect(within(dialog).getByRole('button', { name: 'One fewer Laksa' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await addFromMenu(user, 'Laksa', 2, 'no chilli');
    expect(await screen.findByText('Added 2 × Laksa to your cart.', { selector: '[role="status"]' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cart 2 items' })).toBeInTheDocument();
    expect(screen.getByText(`2 items · ${eur(1700)}`)).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'View cart' }));
    await screen.findByRole('list', { name: 'Dishes in your cart' });
    expect(router.state.location.pathname).toBe('/pt/diner/cart');
    const line = cartLine('Laksa');
    expect(line).toHaveTextContent('Laksa House');
    expect(line).toHaveTextContent('“no chilli”');
    expect(within(line).getByRole('group', { name: 'Quantity of Laksa' })).toHaveTextContent('2');
    expect(screen.getByText('table 12', { selector: '.table-line strong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Place order · ${eur(1700)}` })).toBeInTheDocument();
  });

  it('says under each stall how long it takes now, or that it cannot tell yet', async () => {
    setup('/pt/diner/menu', fakePt({ stalls: [laksaHouse, pizza], items: [laksa, margherita], waits: { 1: stallWait([10, 15], 2) } }));
    const section = async (name: string) => (await screen.findByRole('heading', { name, level: 2 })).closest('section')!;
    expect(await section('Laksa House')).toHaveTextContent('Wait about 10–15 min');
    expect(await section('Forno')).toHaveTextContent('Wait unknown: not enough recent orders');
  });

  it('checks a line with the order’s own cart-line schema before it goes in the cart: its words, its limits', async () => {
    const { user } = setup('/pt/diner/menu?table=3');
    await user.click(await screen.findByRole('button', { name: 'Add Laksa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Laksa' });
    const quantity = within(dialog).getByLabelText('Quantity');
    await user.clear(quantity);
    await user.type(quantity, '21');
    expect(within(dialog).getByRole('button', { name: 'One more Laksa' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(within(dialog).getByLabelText('Note for the stall (optional)'));
    await user.paste('x'.repeat(141));
    await user.click(within(dialog).getByRole('button', { name: 'Add to cart' }));
    expect(quantity).toHaveAccessibleDescription('Choose a quantity from 1 to 20');
    expect(within(dialog).getByLabelText('Note for the stall (optional)')).toHaveAccessibleDescription('Use at most 140 characters');
    expect(await screen.findByRole('dialog', { name: 'Add Laksa' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Cart \d+ item/ })).not.toBeInTheDocument();
    // From a typed count past the limit, “One fewer” steps down from the limit.
    await user.click(within(dialog).getByRole('button', { name: 'One fewer Laksa' }));
    expect(quantity).toHaveValue(19);
  });

  it('edits quantities (1 to 20) and removes lines, keeping the total right', async () => {
    const { user } = setup('/pt/diner/menu?table=3');
    await addFromMenu(user, 'Laksa');
    await addFromMenu(user, 'Margherita', 19);
    await user.click(within(screen.getByRole('navigation', { name: 'Food court' })).getByRole('link', { name: /^Cart/ }));

    await screen.findByRole('list', { name: 'Dishes in your cart' });
    const laksaLine = cartLine('Laksa');
    const fewer = within(laksaLine).getByRole('button', { name: 'One fewer Laksa' });
    expect(fewer).toHaveAttribute('aria-disabled', 'true');
    await user.click(within(laksaLine).getByRole('button', { name: 'One more Laksa' }));
    await user.click(within(laksaLine).getByRole('button', { name: 'One more Laksa' }));
    expect(within(cartLine('Laksa')).getByRole('group', { name: 'Quantity of Laksa' })).toHaveTextContent('3');
    expect(screen.getByText('Total for 22 items')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Place order · ${eur(3 * 850 + 19 * 1100)}` })).toBeInTheDocument();

    const pizzaLine = cartLine('Margherita');
    await user.click(within(pizzaLine).getByRole('button', { name: 'One more Margherita' }));
    expect(within(cartLine('Margherita')).getByRole('button', { name: 'One more Margherita' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(cartLine('Margherita')).getByRole('group', { name: 'Quantity of Margherita' })).toHaveTextContent('20');

    await user.click(within(cartLine('Laksa')).getByRole('button', { name: 'Remove Laksa' }));
    expect(within(screen.getByRole('list', { name: 'Dishes in your cart' })).queryByText('Laksa', { selector: '.cart-line-name' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Place order · ${eur(20 * 1100)}` })).toBeInTheDocument();
  });

  it('keeps the cart and the table through a reload', async () => {
    const first = setup('/pt/diner/menu?table=8');
    await addFromMenu(first.user, 'Laksa', 3);
    first.unmount();

    setup('/pt/diner/cart');
    expect(await screen.findByText('table 8', { selector: '.table-line strong' })).toBeInTheDocument();
    expect(within(cartLine('Laksa')).getByRole('group', { name: 'Quantity of Laksa' })).toHaveTextContent('3');
    expect(screen.getByText(`Total for 3 items`)).toBeInTheDocument();
  });

  it('explains a table the venue does not have and lets the diner pick theirs', async () => {
    const { user, router } = setup('/pt/diner/menu?table=99');
    expect(await screen.findByRole('alert')).toHaveTextContent('We do not have a table “99”. Tables here are numbered 1 to 30.');
    expect(window.localStorage.getItem('frontdesk.pt.table')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Your table'), '7');
    await user.click(screen.getByRole('button', { name: 'Use this table' }));
    expect(await screen.findByText(/You are ordering for/)).toHaveTextContent('table 7');
    expect(router.state.location.search).toBe('?table=7');
    expect(window.localStorage.getItem('frontdesk.pt.table')).toBe('7');
  });
});

describe('the table in the address', () => {
  // A link to the cart or the order page that carries the table (a table's QR code, the help page) says it, as the menu does.
  it('shows the table of `?table=` on an empty cart and on the order page, and remembers it', async () => {
    const { unmount } = setup('/pt/diner/cart?table=12');
    expect(await screen.findByRole('heading', { name: 'Your cart', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Table 12', { selector: '.eyebrow' })).toBeInTheDocument();
    expect(screen.queryByText('Food court', { selector: '.eyebrow' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem('frontdesk.pt.table')).toBe('12');
    unmount();
    window.localStorage.clear();
    setup('/pt/diner/order?table=7');
    expect(await screen.findByRole('heading', { name: 'Your order', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Table 7', { selector: '.eyebrow' })).toBeInTheDocument();
  });

  it('orders a filled cart for the table of `?table=` without asking again; a table the venue does not have is not taken', async () => {
    const first = setup('/pt/diner/menu');
    await addFromMenu(first.user, 'Laksa');
    first.unmount();
    const { unmount } = setup('/pt/diner/cart?table=9');
    expect(await screen.findByText('table 9', { selector: '.table-line strong' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Your table')).not.toBeInTheDocument();
    unmount();
    setup('/pt/diner/cart?table=99');
    await screen.findByRole('list', { name: 'Dishes in your cart' });
    expect(window.localStorage.getItem('frontdesk.pt.table')).toBe('9');
    expect(screen.getByText('Table 9', { selector: '.eyebrow' })).toBeInTheDocument();
  });
});

describe('placing the order', () => {
  async function cartWithLaksaAndPizza(pt?: FakePt) {
    const view = setup('/pt/diner/menu?table=12', pt);
    await addFromMenu(view.user, 'Laksa', 2, 'no chilli');
    await addFromMenu(view.user, 'Margherita');
    await view.user.click(screen.getByRole('link', { name: 'View cart' }));
    await screen.findByRole('list', { name: 'Dishes in your cart' });
    return view;
  }

  it('on a 409 marks the dish that failed, keeps the others, and orders once it is removed', async () => {
    const { user, api, pt } = await cartWithLaksaAndPizza();
    pt.items.find((i) => i.id === margherita.id)!.soldOut = true; // sold out after it went in the cart

    await user.click(screen.getByRole('button', { name: /Place order/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('One dish could not be ordered, marked below; nothing was ordered yet.');
    expect(cartLine('Margherita')).toHaveTextContent('Margherita is sold out');
    expect(cartLine('Margherita')).toHaveClass('has-error');
    expect(cartLine('Laksa')).not.toHaveClass('has-error');
    expect(cartLine('Laksa')).not.toHaveTextContent('sold out');
    expect(pt.orders).toHaveLength(0);

    await user.click(within(cartLine('Margherita')).getByRole('button', { name: 'Remove Margherita' }));
    await user.click(screen.getByRole('button', { name: /Place order/ }));
    expect(await screen.findByRole('heading', { name: 'Order 1 is placed' })).toHaveFocus();
    expect(pt.orders).toHaveLength(1);
    expect(orderCalls(api).at(-1)!.body).toEqual({ table: 12, cart: [{ itemId: laksa.id, quantity: 2, note: 'no chilli' }] });
    // A refused submission and the next one are different submissions: different keys.
    const [refused, placed] = orderCalls(api).map((c) => c.headers.get('Idempotency-Key'));
    expect(refused).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(placed).not.toBe(refused);
  });

  it('after a 409 totals and orders only what can be ordered, and keeps the marked dish in the cart for later', async () => {
    const { user, api, pt } = await cartWithLaksaAndPizza();
    pt.items.find((i) => i.id === margherita.id)!.soldOut = true;
    await user.click(screen.getByRole('button', { name: /Place order/ }));
    await screen.findByRole('alert');
    const place = screen.getByRole('button', { name: /Place order without the marked dish/ });
    expect(place).toHaveTextContent(eur(2 * laksa.priceCents));
    expect(screen.getByText(/Total for 2 items/)).toHaveTextContent('without the marked dish');

    await user.click(place);
    await screen.findByRole('heading', { name: 'Order 1 is placed' });
    expect(orderCalls(api).at(-1)!.body).toEqual({ table: 12, cart: [{ itemId: laksa.id, quantity: 2, note: 'no chilli' }] });
    expect(cartLine('Margherita')).toBeInTheDocument();
    expect(screen.queryByText('Laksa', { selector: '.cart-line-name' })).not.toBeInTheDocument();
  });

  it('with only sold-out dishes left, offers no order: the button is off and says why, and a sold-out dish cannot be added to', async () => {
    const { user, api, pt } = await cartWithLaksaAndPizza();
    pt.items.find((i) => i.id === margherita.id)!.soldOut = true;
    await user.click(screen.getByRole('button', { name: /Place order/ }));
    await user.click(await screen.findByRole('button', { name: /Place order without the marked dish/ }));
    await screen.findByRole('heading', { name: 'Order 1 is placed' });

    const place = screen.getByRole('button', { name: 'Place order' });
    expect(place).toBeDisabled();
    expect(place).toHaveAccessibleDescription('None of these dishes can be ordered right now. Remove them, or pick others from the menu.');
    expect(within(cartLine('Margherita')).getByRole('button', { name: 'One more Margherita' })).toHaveAttribute('aria-disabled', 'true');
    const sent = orderCalls(api).length;
    await user.click(place);
    expect(orderCalls(api)).toHaveLength(sent);

    await user.click(within(cartLine('Margherita')).getByRole('button', { name: 'Remove Margherita' }));
    expect(await screen.findByText('Want anything else?')).toBeInTheDocument();
  });

  it('sends an Idempotency-Key and sends the same one again when the diner retries after a lost answer', async () => {
    const { user, api, pt } = await cartWithLaksaAndPizza();
    pt.failNextOrder = 'lost'; // stored by the server, but the answer never arrives

    await user.click(screen.getByRole('button', { name: /Place order/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The order could not be confirmed');
    expect(screen.getByRole('alert')).toHaveTextContent('Press Place order again: it will not be ordered twice.');
    expect(cartLine('Laksa')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Place order/ }));
    expect(await screen.findByRole('heading', { name: 'Order 1 is placed' })).toBeInTheDocument();
    const keys = orderCalls(api).map((c) => c.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(pt.orders).toHaveLength(1);

    // The next cart is a new submission with a key of its own.
    await user.click(screen.getByRole('link', { name: 'Browse the menu' }));
    await addFromMenu(user, 'Laksa');
    await user.click(screen.getByRole('link', { name: 'View cart' }));
    await user.click(await screen.findByRole('button', { name: /Place order/ }));
    expect(await screen.findByRole('heading', { name: 'Order 2 is placed' })).toBeInTheDocument();
    expect(orderCalls(api).at(-1)!.headers.get('Idempotency-Key')).not.toBe(keys[0]);
  });

  it('after an answer lost before the order was stored, says the earlier order is placed now, not that it went through', async () => {
    const { user, api, pt } = await cartWithLaksaAndPizza();
    pt.failNextOrder = 'down'; // the database was down: nothing stored, no answer
    await user.click(screen.getByRole('button', { name: /Place order/ }));
    await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'One more Laksa' }));

    await user.click(screen.getByRole('button', { name: /Place order/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your earlier order had not gone through; it is placed now (order 1).');
    expect(screen.getByRole('alert')).not.toHaveTextContent('after all');
    const [down, again] = orderCalls(api);
    expect(again!.headers.get('Idempotency-Key')).toBe(down!.headers.get('Idempotency-Key'));
    expect(pt.orders).toHaveLength(1);
  });

  it('after a lost answer and a changed cart, sends the earlier order again first and never orders it twice', async () => {
    const { user, api, pt } = await cartWithLaksaAndPizza();
    pt.failNextOrder = 'lost'; // stored by the server, but the answer never arrives
    await user.click(screen.getByRole('button', { name: /Place order/ }));
    await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'One more Laksa' })); // 2 → 3 Laksa

    await user.click(screen.getByRole('button', { name: /Place order/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your earlier order went through after all (order 1).');
    const [lost, again] = orderCalls(api);
    expect(again!.headers.get('Idempotency-Key')).toBe(lost!.headers.get('Idempotency-Key'));
    expect(again!.body).toEqual(lost!.body);
    expect(pt.orders).toHaveLength(1);
    // What was ordered left the cart; the one Laksa added since is still there.
    expect(cartLine('Laksa')).toHaveTextContent('1');
    expect(screen.queryByText('Margherita', { selector: '.cart-line-name' })).not.toBeInTheDocument();
  });

  it('keeps the key through a reload after the connection dropped', async () => {
    const first = await cartWithLaksaAndPizza();
    first.pt.failNextOrder = 'down';
    await first.user.click(screen.getByRole('button', { name: /Place order/ }));
    await screen.findByRole('alert');
    const key = orderCalls(first.api)[0]!.headers.get('Idempotency-Key');
    first.unmount();
    jest.restoreAllMocks();

    const again = setup('/pt/diner/cart', first.pt);
    await again.user.click(await screen.findByRole('button', { name: /Place order/ }));
    expect(await screen.findByRole('heading', { name: 'Order 1 is placed' })).toBeInTheDocument();
    expect(orderCalls(again.api)[0]!.headers.get('Idempotency-Key')).toBe(key);
  });

  it('says "try again in a moment" on a 429 and keeps the cart', async () => {
    const { user, pt } = await cartWithLaksaAndPizza();
    pt.failNextOrder = 429;
    await user.click(screen.getByRole('button', { name: /Place order/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Try again in a moment; your cart is kept.');
    expect(cartLine('Laksa')).toBeInTheDocument();
    expect(cartLine('Margherita')).toBeInTheDocument();
  });

  it('tells the wait it was placed with (the slowest stall), as minutes and times of day, until the order is ready', async () => {
    const pt = fakePt({ stalls: [laksaHouse, pizza], items: [laksa, margherita], tables: 30, waits: { 1: stallWait([10, 15]), 2: stallWait([15, 25]) } });
    const { user } = await cartWithLaksaAndPizza(pt);
    await user.click(screen.getByRole('button', { name: /Place order/ }));
    const confirmation = (await screen.findByRole('heading', { name: 'Order 1 is placed' })).closest('section')!;
    const placed = pt.orders[0]!;
    const at = (minutes: number) => formatTime(new Date(Date.parse(placed.createdAt) + minutes * 60_000).toISOString());
    expect(confirmation).toHaveTextContent(`Ready in about 15–25 min from placing, around ${at(15)}–${at(25)}.`);

    // The menu's waits changing later does not change what this order was told.
    pt.waits[2] = stallWait([40, 45]);
    const stream = FakeEventSource.instances.find((s) => s.url === '/api/pt/orders/1/stream?token=token-1')!;
    act(() => stream.open());
    act(() => stream.emit('order', { ...placed, token: undefined, key: undefined, status: 'preparing', updatedAt: new Date(Date.now() + 60_000).toISOString() }, ''));
    expect(confirmation).toHaveTextContent('Ready in about 15–25 min');
    act(() => stream.emit('order', { ...placed, token: undefined, key: undefined, status: 'ready', updatedAt: new Date(Date.now() + 120_000).toISOString() }, ''));
    expect(confirmation).not.toHaveTextContent('Ready in about');
    expect(confirmation).toHaveTextContent('A runner is bringing it over.');
  });

  describe('buzz when the order is ready', () => {
    const openStreams = () => FakeEventSource.instances.filter((s) => s.url === '/api/pt/orders/1/stream?token=token-1' && s.readyState !== FakeEventSource.CLOSED);
    /** The device's vibration, recorded; `works` false: a browser without one for web pages (an iPhone's). */
    const vibration = (works = true) => {
      const vibrate = jest.fn(() => true);
      Object.defineProperty(navigator, 'vibrate', { value: works ? vibrate : undefined, configurable: true });
      return vibrate;
    };
    /** Order 1 placed from the cart, its confirmation shown; `update` is the order as its stream sends it at `status`, `minutes` on. */
    async function placed() {
      const pt = fakePt({ stalls: [laksaHouse, pizza], items: [laksa, margherita], tables: 30 });
      const { user } = await cartWithLaksaAndPizza(pt);
      await user.click(screen.getByRole('button', { name: /Place order/ }));
      const confirmation = (await screen.findByRole('heading', { name: 'Order 1 is placed' })).closest('section')!;
      return {
        user,
        confirmation,
        update: (status: string, minutes: number) => ({ ...pt.orders[0]!, token: undefined, key: undefined, status, updatedAt: new Date(Date.now() + minutes * 60_000).toISOString() }),
        askToBuzz: () => user.click(within(confirmation).getByRole('button', { name: 'Buzz me when it’s ready' })),
        backToMenu: async () => {
          await user.click(within(screen.getByRole('navigation', { name: 'Food court' })).getByRole('link', { name: 'Menu' }));
          await screen.findByRole('heading', { name: 'Menu', level: 1 });
        },
      };
    }

    it('buzzes the device once when the order turns ready, if the diner asked with a tap; not before, not twice', async () => {
      const vibrate = vibration();
      const { confirmation, update, askToBuzz } = await placed();
      const stream = openStreams()[0]!;
      act(() => stream.open());

      await askToBuzz();
      expect(within(confirmation).getByRole('status')).toHaveTextContent('We will buzz you when it is ready.');
      expect(vibrate).toHaveBeenCalledTimes(1); // the tap's short buzz: the diner feels it works
      act(() => stream.emit('order', update('preparing', 1), ''));
      expect(vibrate).toHaveBeenCalledTimes(1);

      act(() => stream.emit('order', update('ready', 2), ''));
      expect(vibrate).toHaveBeenLastCalledWith([300, 150, 300, 150, 600]);
      expect(within(confirmation).queryByRole('button', { name: /Buzz me/ })).not.toBeInTheDocument();
      act(() => stream.emit('order', update('served', 3), ''));
      expect(vibrate).toHaveBeenCalledTimes(2);
    });

    it('does not buzz for an order first seen served (the page was closed while it was ready), and says a browser without vibration only chimes', async () => {
      vibration(false);
      const { confirmation, update, askToBuzz } = await placed();
      expect(confirmation).toHaveTextContent('This browser cannot vibrate for a web page, so you will hear a chime when the food is ready');
      await askToBuzz();
      const vibrate = vibration();
      const stream = openStreams()[0]!;
      act(() => stream.open());
      act(() => stream.emit('order', update('served', 3), ''));
      expect(confirmation).toHaveTextContent('Enjoy your meal!');
      expect(vibrate).not.toHaveBeenCalled();
    });

    it('still buzzes after the diner went back to the menu for more, through one stream for the order at a time', async () => {
      const vibrate = vibration();
      const { update, askToBuzz, backToMenu } = await placed();
      await askToBuzz();
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
      expect(openStreams()).toHaveLength(1); // the confirmation's own: the watcher leaves a shown order alone

      await backToMenu();
      await waitFor(() => expect(openStreams()).toHaveLength(1)); // now the watcher's
      const stream = openStreams()[0]!;
      act(() => stream.open());
      act(() => stream.emit('order', update('ready', 2), ''));
      expect(vibrate).toHaveBeenLastCalledWith([300, 150, 300, 150, 600]);
      await waitFor(() => expect(openStreams()).toHaveLength(0)); // buzzed: nothing left to follow
    });

    it('follows an asked order the stall cancelled, off its page too, and buzzes if it comes back and turns ready', async () => {
      const vibrate = vibration();
      const { update, askToBuzz, backToMenu } = await placed();
      await askToBuzz();
      act(() => openStreams()[0]!.emit('order', update('cancelled', 1), ''));

      await backToMenu();
      await waitFor(() => expect(openStreams()).toHaveLength(1));
      act(() => openStreams()[0]!.emit('order', update('received', 2), ''));
      act(() => openStreams()[0]!.emit('order', update('ready', 3), ''));
      expect(vibrate).toHaveBeenLastCalledWith([300, 150, 300, 150, 600]);
    });

    it('does not buzz when the diner took the buzz back', async () => {
      const vibrate = vibration();
      const { user, confirmation, update, askToBuzz } = await placed();
      await askToBuzz();
      await user.click(within(confirmation).getByRole('button', { name: 'Don’t buzz me' }));
      expect(within(confirmation).getByRole('button', { name: 'Buzz me when it’s ready' })).toBeInTheDocument();
      const stream = openStreams()[0]!;
      act(() => stream.open());
      act(() => stream.emit('order', update('ready', 2), ''));
      expect(vibrate).toHaveBeenCalledTimes(1);
    });
  });

  it('says it cannot estimate the wait when a stall of the order has too few recent orders', async () => {
    const pt = fakePt({ stalls: [laksaHouse, pizza], items: [laksa, margherita], tables: 30, waits: { 1: stallWait([10, 15]) } });
    const { user } = await cartWithLaksaAndPizza(pt);
    await user.click(screen.getByRole('button', { name: /Place order/ }));
    const confirmation = (await screen.findByRole('heading', { name: 'Order 1 is placed' })).closest('section')!;
    expect(confirmation).toHaveTextContent('We cannot estimate the wait: not enough recent orders.');
  });

  it('says a cancelled order is cancelled, without the Live badge of an order under way; a cancel undone is followed again', async () => {
    const { user, pt } = await cartWithLaksaAndPizza();
    await user.click(screen.getByRole('button', { name: /Place order/ }));
    const confirmation = (await screen.findByRole('heading', { name: 'Order 1 is placed' })).closest('section')!;
    const stream = FakeEventSource.instances.find((s) => s.url === '/api/pt/orders/1/stream?token=token-1')!;
    act(() => stream.open());
    expect(within(confirmation).getByTitle('Order updates: Live')).toBeInTheDocument();
    const placed = pt.orders[0]!;
    act(() => stream.emit('order', { ...placed, token: undefined, key: undefined, status: 'cancelled', updatedAt: new Date(Date.now() + 60_000).toISOString() }, ''));
    expect(within(confirmation).getByRole('heading', { level: 2 })).toHaveAccessibleName('Order 1 is cancelled');
    expect(within(confirmation).queryByText('Live')).not.toBeInTheDocument();
    expect(within(confirmation).queryByTitle(/^Order updates/)).not.toBeInTheDocument();
    expect(confirmation).toHaveTextContent('Cancelled This order was cancelled.');
    // The stream is still followed: the stall may bring it back.
    act(() => stream.emit('order', { ...placed, token: undefined, key: undefined, status: 'received', updatedAt: new Date(Date.now() + 120_000).toISOString() }, ''));
    expect(within(confirmation).getByRole('heading', { level: 2 })).toHaveAccessibleName('Order 1 is placed');
    expect(within(confirmation).getByTitle('Order updates: Live')).toBeInTheDocument();
  });

  it('confirms with the order number, lines and total, clears the cart, and follows the status live, also after a reload', async () => {
    const { user, pt, unmount } = await cartWithLaksaAndPizza();
    await user.click(screen.getByRole('button', { name: /Place order/ }));
    const confirmation = (await screen.findByRole('heading', { name: 'Order 1 is placed' })).closest('section')!;
    const lines = within(confirmation).getByRole('list', { name: 'Order 1' });
    expect(within(lines).getAllByRole('listitem').map((li) => li.textContent)).toEqual([`2 ×Laksa (Laksa House)“no chilli”${eur(1700)}`, `1 ×Margherita (Forno)${eur(1100)}`]);
    expect(confirmation).toHaveTextContent(`Total ${eur(2800)}`);
    expect(confirmation).toHaveTextContent('Table 12');
    expect(screen.queryByRole('list', { name: 'Dishes in your cart' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Food court' })).getByRole('link', { name: 'Cart' })).toBeInTheDocument();

    const step = () => within(confirmation).getByRole('listitem', { current: 'step' });
    expect(step()).toHaveTextContent('Received');
    const stream = FakeEventSource.instances.find((s) => s.url === '/api/pt/orders/1/stream?token=token-1')!;
    expect(stream).toBeDefined();
    act(() => stream.open());
    const placed = pt.orders[0]!;
    act(() => stream.emit('order', { ...placed, token: undefined, key: undefined, status: 'preparing', updatedAt: new Date(Date.now() + 60_000).toISOString() }, ''));
    expect(step()).toHaveTextContent('Preparing');
    expect(within(confirmation).getByText('Received', { selector: '.order-step-label' })).toHaveTextContent('Received (done)');
    act(() => stream.emit('order', { ...placed, token: undefined, key: undefined, status: 'ready', updatedAt: new Date(Date.now() + 120_000).toISOString() }, ''));
    expect(step()).toHaveTextContent('Ready');
    expect(confirmation).toHaveTextContent('A runner is bringing it over.');

    unmount();
    setup('/pt/diner/cart', pt);
    const again = (await screen.findByRole('heading', { name: 'Order 1' })).closest('section')!;
    expect(within(again).getByRole('listitem', { current: 'step' })).toHaveTextContent('Ready');
    expect(FakeEventSource.current().url).toBe('/api/pt/orders/1/stream?token=token-1');

    const reopened = FakeEventSource.current();
    act(() => reopened.open());
    act(() => reopened.emit('order', { ...placed, token: undefined, key: undefined, status: 'served', updatedAt: new Date(Date.now() + 180_000).toISOString() }, ''));
    // Served is the end: every step done, none still current.
    expect(within(again).queryByRole('listitem', { current: 'step' })).not.toBeInTheDocument();
    expect(within(again).getByText('Served', { selector: '.order-step-label' })).toHaveTextContent('Served (done)');
  });
});
