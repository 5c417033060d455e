import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { opensWords } from '@contracts/stall-hours.contract';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, installFormDataShim, renderApp, signedInAs } from '@/test-support/test-utils';
import { fakePt, menuItem, stall, type FakePt } from '@/test-support/pt.fake-api';

/** Stalls' opening hours (issue 52): closed and paused stalls on the diners' menu, the menu and the cart live, the kitchen's sold-out switch, the hours form. */

jest.setTimeout(15_000);
fakeEventSourceEachTest();
installFormDataShim();
beforeEach(() => window.localStorage.clear());
afterEach(() => jest.restoreAllMocks());

const laksaHouse = stall(1, { name: 'Laksa House', cuisine: 'Malaysian' });
const forno = stall(2, { name: 'Forno', cuisine: 'Pizza' });
const nightMarket = stall(3, { name: 'Night Market' });
const laksa = menuItem(11, 1, { name: 'Laksa', priceCents: 850, category: 'Noodles' });
const margherita = menuItem(21, 2, { name: 'Margherita', priceCents: 1100, category: 'Pizza' });
const skewers = menuItem(31, 3, { name: 'Skewers', priceCents: 700 });
const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString();

function setup(path: string, pt: FakePt, signedIn?: 'runner' | 'staff') {
  const api = fakeBff([...(signedIn ? [signedInAs({ id: 5, email: `${signedIn}@frontdesk.test`, name: 'Riley', role: signedIn })] : []), ...pt.handlers]);
  const view = renderApp(path);
  return { ...view, api, pt, user: userEvent.setup() };
}
const menuStream = () => FakeEventSource.instances.find((s) => s.url === '/api/pt/menu/stream' && s.readyState !== FakeEventSource.CLOSED)!;
const stallSection = async (name: string) => (await screen.findByRole('heading', { name, level: 2 })).closest('section')!;
const menuReads = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'GET' && c.path === '/api/pt/menu').length;

describe('/pt/diner/menu with closed and paused stalls', () => {
  it('shows a closed stall with when it opens and a paused one as paused, their dishes visible but not addable', async () => {
    const pt = fakePt({ stalls: [laksaHouse, forno, nightMarket], items: [laksa, margherita, skewers], closed: { 3: inTwoDays }, timeZone: 'Asia/Tokyo' });
    pt.stalls[1]!.status = 'paused';
    setup('/pt/diner/menu?table=4', pt);
    const night = await stallSection('Night Market');
    expect(night).toHaveTextContent(`Closed now · opens ${opensWords(inTwoDays, Date.now(), 'Asia/Tokyo')}`);
    expect(opensWords(inTwoDays, Date.now(), 'Asia/Tokyo')).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d$/);
    expect(within(night).getByRole('heading', { name: 'Skewers' })).toBeInTheDocument();
    expect(within(night).queryByRole('button', { name: /Add/ })).not.toBeInTheDocument();
    const paused = await stallSection('Forno');
    expect(within(paused).getByText('Paused')).toBeInTheDocument();
    expect(within(paused).queryByRole('button', { name: /Add/ })).not.toBeInTheDocument();
    expect(within(await stallSection('Laksa House')).getByRole('button', { name: 'Add Laksa' })).toBeInTheDocument();
    // Every stall has its chip, the closed ones said so.
    expect(within(screen.getByRole('navigation', { name: 'Stalls on the menu' })).getByRole('link', { name: 'Night Market (closed now)' })).toBeInTheDocument();
  });

  it('follows the menu live: a dish sold out is folded in at once, a stall paused reads the menu again', async () => {
    const pt = fakePt({ stalls: [laksaHouse, forno], items: [laksa, margherita] });
    const { api } = setup('/pt/diner/menu?table=4', pt);
    await screen.findByRole('button', { name: 'Add Laksa' });
    act(() => menuStream().open());
    await waitFor(() => expect(menuReads(api)).toBe(2)); // the stream opened: what was missed is read
    act(() => menuStream().emit('menu', { kind: 'item', item: { ...laksa, soldOut: true } }, '7'));
    expect(within(screen.getByRole('heading', { name: 'Laksa' }).closest('li')!).getByText('Sold out')).toBeInTheDocument();
    expect(menuReads(api)).toBe(2);
    pt.stalls[1]!.status = 'paused';
    act(() => menuStream().emit('menu', { kind: 'stall', stall: { ...pt.stalls[1]! } }, '8'));
    expect(await within(await stallSection('Forno')).findByText('Paused')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Margherita' })).not.toBeInTheDocument();
  });
});

describe('/pt/diner/cart, open while a dish sells out', () => {
  const inCart = (lines: Array<{ itemId: number; stallId: number; stallName: string; name: string; unitPriceCents: number }>) =>
    window.localStorage.setItem('frontdesk.pt.cart', JSON.stringify(lines.map((l) => ({ ...l, quantity: 1, note: null }))));
  const cartLine = (name: string) => within(screen.getByRole('list', { name: 'Dishes in your cart' })).getByText(name, { selector: '.cart-line-name' }).closest('li')!;

  it('flags the line live ("Sold out — remove it to order") and Place order leaves it out; with nothing else, it cannot be placed', async () => {
    const pt = fakePt({ stalls: [laksaHouse, forno], items: [laksa, margherita], tables: 30 });
    inCart([
      { itemId: 11, stallId: 1, stallName: 'Laksa House', name: 'Laksa', unitPriceCents: 850 },
      { itemId: 21, stallId: 2, stallName: 'Forno', name: 'Margherita', unitPriceCents: 1100 },
    ]);
    const { user } = setup('/pt/diner/cart?table=4', pt);
    await screen.findByRole('list', { name: 'Dishes in your cart' });
    expect(screen.getByRole('button', { name: /^Place order · / })).toBeEnabled();
    act(() => menuStream().open());
    pt.items[0]!.soldOut = true;
    act(() => menuStream().emit('menu', { kind: 'item', item: { ...laksa, soldOut: true } }, '9'));
    expect(within(cartLine('Laksa')).getByText('Sold out — remove it to order.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Place order without the marked dish · / })).toBeInTheDocument();

    // Its stall pauses too: the menu is read again, and the other line is marked as well.
    pt.stalls[1]!.status = 'paused';
    act(() => menuStream().emit('menu', { kind: 'stall', stall: { ...pt.stalls[1]! } }, '10'));
    expect(await within(cartLine('Margherita')).findByText('Paused — remove it to order now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Place order' })).toBeDisabled();
    expect(screen.getByText('None of these dishes can be ordered right now. Remove them, or pick others from the menu.')).toBeInTheDocument();

    await user.click(within(cartLine('Laksa')).getByRole('button', { name: 'Remove Laksa' }));
    await user.click(within(cartLine('Margherita')).getByRole('button', { name: 'Remove Margherita' }));
    // An empty cart follows nothing: its stream is closed.
    await waitFor(() => expect(FakeEventSource.instances.filter((s) => s.url === '/api/pt/menu/stream' && s.readyState !== FakeEventSource.CLOSED)).toHaveLength(0));
  });

  it('reads the menu again when a stall in it opens by its hours', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const soon = new Date(Date.now() + 60_000).toISOString();
      const pt = fakePt({ stalls: [nightMarket], items: [skewers], closed: { 3: soon }, timeZone: 'UTC' });
      inCart([{ itemId: 31, stallId: 3, stallName: 'Night Market', name: 'Skewers', unitPriceCents: 700 }]);
      setup('/pt/diner/cart?table=4', pt);
      expect(await within(await screen.findByRole('list', { name: 'Dishes in your cart' })).findByText(/^Closed now · opens \d\d:\d\d — remove it to order now\.$/)).toBeInTheDocument();
      delete pt.closed[3];
      act(() => jest.advanceTimersByTime(62_000));
      await waitFor(() => expect(screen.getByRole('button', { name: /^Place order · / })).toBeEnabled());
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("/pt/kitchen/:stallId's dishes", () => {
  it('marks a dish sold out and back in stock from the screen', async () => {
    const pt = fakePt({ stalls: [laksaHouse, forno], items: [laksa, menuItem(12, 1, { name: 'Satay' }), margherita] });
    const { api, user } = setup('/pt/kitchen/1', pt, 'runner');
    await screen.findByRole('heading', { name: 'Laksa House', level: 1 });
    const panel = screen.getByText('Dishes', { selector: 'strong' }).closest('details')!;
    await user.click(within(panel).getByText('Dishes', { selector: 'strong' }));
    const list = await within(panel).findByRole('list', { name: 'Dishes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.querySelector('.kitchen-dish-name')!.textContent)).toEqual(['Laksa', 'Satay']);
    await user.click(within(list).getByRole('button', { name: 'Sold out Laksa' }));
    expect(await within(list).findByRole('button', { name: 'Back in stock Laksa' })).toBeInTheDocument();
    expect(panel.querySelector('summary')).toHaveTextContent('2 on the menu · 1 sold out');
    expect(api.calls.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.body])).toEqual([['/api/pt/kitchen/1/items/11', { soldOut: true }]]);
    await user.click(within(list).getByRole('button', { name: 'Back in stock Laksa' }));
    expect(await within(list).findByRole('button', { name: 'Sold out Laksa' })).toBeInTheDocument();
    expect(pt.items.find((i) => i.id === 11)!.soldOut).toBe(false);
  });
});

describe("a stall's opening hours on its page", () => {
  it('are set by staff with clear words for a time that closes before it opens, and shown on the page', async () => {
    const pt = fakePt({ stalls: [laksaHouse], items: [laksa] });
    const { api, user } = setup('/pt/stalls/1', pt, 'staff');
    await screen.findByRole('heading', { name: 'Laksa House', level: 1 });
    expect(screen.getByText('No set hours: open whenever it is not paused.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Opening hours' }));
    const dialog = await screen.findByRole('dialog', { name: 'Opening hours of Laksa House' });
    await user.click(within(dialog).getByLabelText('Open on these days and times'));
    const monday = within(dialog).getByRole('listitem', { name: 'Monday' });
    await user.clear(within(monday).getByLabelText('Monday opening time 1, closes'));
    await user.type(within(monday).getByLabelText('Monday opening time 1, closes'), '10:00');
    await user.click(within(dialog).getByRole('button', { name: 'Remove Sunday opening time 1' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save hours' }));
    expect(within(monday).getByLabelText('Monday opening time 1, closes')).toHaveAccessibleDescription('It must close after it opens. Open past midnight? Close at 24:00 and open at 00:00 the next day');
    expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    await user.clear(within(monday).getByLabelText('Monday opening time 1, closes'));
    await user.type(within(monday).getByLabelText('Monday opening time 1, closes'), '24:00');
    await user.click(within(dialog).getByRole('button', { name: 'Save hours' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const sent = api.calls.find((c) => c.method === 'PATCH')!.body as { hours: Record<string, unknown> };
    expect(sent.hours).toMatchObject({ mon: [{ opens: '11:00', closes: '24:00' }], tue: [{ opens: '11:00', closes: '22:00' }], sun: [] });
    const week = screen.getByRole('region', { name: 'Opening hours' });
    expect(week).toHaveTextContent('Monday11:00–24:00');
    expect(week).toHaveTextContent('SundayClosed');
  });
});
