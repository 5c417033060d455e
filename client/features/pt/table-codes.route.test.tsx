import { screen, within } from '@testing-library/react';
import { statusApi } from '@contracts/status.contract';
import { SERVICE_STATUS, fakeBff, renderApp, signedInAs } from '@/test-support/test-utils';
import { handle } from '@/test-support/test-server';
import { fakePt } from '@/test-support/pt.fake-api';

afterEach(() => jest.restoreAllMocks());

/** The service status naming `publicOrigin` as the server's public address. */
const publicAt = (publicOrigin: string | null) => handle(statusApi.status, () => ({ ...SERVICE_STATUS, publicOrigin }));

const asRunner = signedInAs({ id: 9, email: 'rita@frontdesk.test', name: 'Rita Runner', role: 'runner' });

describe('/pt/tables', () => {
  it('makes one QR code per table, each linking to the menu of its table, and offers to print', async () => {
    fakeBff(fakePt({ tables: 3 }).handlers, { signedIn: true });
    renderApp('/pt/tables');
    const sheet = await screen.findByRole('list', { name: 'Table QR codes' });
    const cards = within(sheet).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByText(/^Table \d+$/).textContent)).toEqual(['Table 1', 'Table 2', 'Table 3']);
    const image = within(cards[2]!).getByRole('img', { name: 'QR code for table 3' });
    expect(image.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    expect(cards[2]).toHaveTextContent('http://localhost/pt/diner/menu?table=3');
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Table QR codes' })).toHaveAttribute('aria-current', 'page');
  });

  it('links the codes to the server’s public address, not the browser’s, and warns of nothing when phones can reach it', async () => {
    fakeBff([publicAt('https://venue.example.com'), ...fakePt({ tables: 2 }).handlers], { signedIn: true });
    renderApp('/pt/tables');
    const cards = within(await screen.findByRole('list', { name: 'Table QR codes' })).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByText(/^https?:/).textContent)).toEqual([
      'https://venue.example.com/pt/diner/menu?table=1',
      'https://venue.example.com/pt/diner/menu?table=2',
    ]);
    expect(screen.queryByRole('note', { name: 'Address warning' })).not.toBeInTheDocument();
  });

  it.each([
    ['no public address is set and the browser is on localhost', null, 'http://localhost'],
    ['the public address is a loopback one', 'http://127.0.0.5:3000', 'http://127.0.0.5:3000'],
    ['the public address is IPv6 loopback', 'http://[::1]:3000', 'http://[::1]:3000'],
  ])('warns that phones cannot open the codes when %s, and says what to set', async (_case, publicOrigin, shown) => {
    fakeBff([publicAt(publicOrigin), ...fakePt({ tables: 1 }).handlers], { signedIn: true });
    renderApp('/pt/tables');
    const warning = await screen.findByRole('note', { name: 'Address warning' });
    expect(warning).toHaveTextContent(`These codes point at ${shown}, an address only this computer can open`);
    expect(warning).toHaveTextContent('PUBLIC_ORIGIN=https://your-venue.example');
    expect(screen.getByText(`${shown}/pt/diner/menu?table=1`)).toBeInTheDocument();
  });

  it('is for staff: a runner gets the 403 screen before any food-court call', async () => {
    const api = fakeBff([asRunner, ...fakePt().handlers], { signedIn: true });
    renderApp('/pt/tables');
    expect(await screen.findByText('You do not have access to this page.')).toBeInTheDocument();
    expect(screen.getByText('This page is for staff. You are signed in as rita@frontdesk.test with the runner role.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.path.startsWith('/api/pt/'))).toBe(false);
  });

  it('shows its tab to staff only; a runner’s food-court tabs are the stalls, the board and the kitchen screens, no menu or cart', async () => {
    fakeBff([asRunner, ...fakePt().handlers], { signedIn: true });
    renderApp('/pt/stalls');
    expect(await screen.findByText('Rita Runner')).toBeInTheDocument(); // the header knows who is signed in
    const tabs = within(screen.getByRole('navigation', { name: 'Food court' }));
    expect(tabs.getAllByRole('link').map((link) => link.textContent)).toEqual(['Stalls', 'Runner board', 'Kitchen screens']);
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link').map((link) => link.textContent)).toEqual(['Runner board', 'Chat', expect.stringContaining('Your account: Rita Runner')]);
  });
});
