import { act, screen } from '@testing-library/react';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, renderApp } from '@/test-support/test-utils';
import { fakePt, menuItem, order, stall } from '@/test-support/pt.fake-api';

fakeEventSourceEachTest();
beforeEach(() => window.localStorage.clear());

const line = (id: number, name: string, readyAt: string | null = null) => ({ id, itemId: id, stallId: 1, stallName: 'Laksa House', name, unitPriceCents: 850, quantity: 1, note: null, allergens: [], readyAt });

describe("the diner's order page", () => {
  it('says how many dishes of an order being prepared are ready, as the kitchen marks them', async () => {
    const placed = order(5, { table: 3, status: 'preparing', lines: [line(51, 'Laksa', '2026-03-10T12:00:00.000Z'), line(52, 'Satay'), line(53, 'Rice')] });
    const pt = fakePt({ stalls: [stall(1, { name: 'Laksa House' })], items: [menuItem(51, 1, { name: 'Laksa' })], orders: [placed] });
    const { token, key: _key, ...shown } = placed;
    window.localStorage.setItem('frontdesk.pt.orders', JSON.stringify([{ token, order: shown }]));
    fakeBff(pt.handlers);
    renderApp('/pt/diner/order');
    const status = await screen.findByText(/Your food is being made/);
    expect(status).toHaveTextContent('1 of 3 dishes ready.');

    const stream = FakeEventSource.current();
    act(() => stream.open());
    const later = { ...shown, lines: shown.lines.map((l) => (l.id === 52 ? { ...l, readyAt: '2026-03-10T12:01:00.000Z' } : l)), updatedAt: new Date(Date.now() + 60_000).toISOString() };
    act(() => stream.emit('order', later, ''));
    expect(await screen.findByText(/2 of 3 dishes ready/)).toBeInTheDocument();
    // Ready: the status says so; the count is not needed.
    act(() => stream.emit('order', { ...later, status: 'ready', lines: later.lines.map((l) => ({ ...l, readyAt: l.readyAt ?? '2026-03-10T12:02:00.000Z' })), updatedAt: new Date(Date.now() + 120_000).toISOString() }, ''));
    expect(await screen.findByText(/A runner is bringing it over/)).not.toHaveTextContent(/dishes ready/);
  });
});
