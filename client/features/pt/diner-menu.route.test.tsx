import { screen, within } from '@testing-library/react';
import { ptApi } from '@contracts/pt.contract';
import { fakeBff, fakeEventSourceEachTest, renderApp } from '@/test-support/test-utils';
import { handle, unavailable } from '@/test-support/test-server';
import { fakePt, menuItem, stall } from '@/test-support/pt.fake-api';

jest.setTimeout(15_000);
fakeEventSourceEachTest();
beforeEach(() => window.localStorage.clear());
afterEach(() => jest.restoreAllMocks());

const laksaHouse = stall(1, { name: 'Laksa House', cuisine: 'Malaysian' });
const laksa = menuItem(11, 1, { name: 'Laksa', priceCents: 850, category: 'Noodles' });

describe('/pt/diner/menu while the service is briefly unavailable', () => {
  it('says so (no error screen, no JSON), and shows the menu by itself once the service answers again', async () => {
    const pt = fakePt({ stalls: [laksaHouse], items: [laksa], tables: 30 });
    // The database is away for two reads, each answered 503 with Retry-After: 1.
    const api = fakeBff([handle(ptApi.menu, () => unavailable(1), { once: true }), handle(ptApi.menu, () => unavailable(1), { once: true }), ...pt.handlers]);
    renderApp('/pt/diner/menu?table=4');

    const banner = await screen.findByRole('alert');
    expect(within(banner).getByRole('heading', { level: 1 })).toHaveTextContent('The service is briefly unavailable.');
    expect(screen.getByText(/Trying again in 1 second\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again now' })).toBeInTheDocument();
    expect(screen.queryByText(/An error occured/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Something went wrong/)).not.toBeInTheDocument();
    expect(screen.queryByRole('group')).not.toBeInTheDocument(); // the error screen's JSON
    // One try per Retry-After: the loader did not retry the 503 with its own backoff.
    const menuReads = () => api.calls.filter((c) => c.path === '/api/pt/menu').length;
    expect(menuReads()).toBe(1);

    // No click: after the second 503 and its wait, the menu is there.
    expect(await screen.findByRole('heading', { name: 'Laksa' }, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByText(/You are ordering for/)).toHaveTextContent('table 4');
    expect(screen.queryByText('The service is briefly unavailable.')).not.toBeInTheDocument();
    expect(menuReads()).toBe(3);
  });
});
