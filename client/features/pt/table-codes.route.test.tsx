import { screen, within } from '@testing-library/react';
import { fakeBff, renderApp, signedInAs } from '@/test-utils';
import { fakePt } from './pt.fake-api';

afterEach(() => jest.restoreAllMocks());

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

  it('is for staff: a runner gets the 403 screen before any food-court call', async () => {
    const api = fakeBff([asRunner, ...fakePt().handlers], { signedIn: true });
    renderApp('/pt/tables');
    expect(await screen.findByText('You do not have access to this page.')).toBeInTheDocument();
    expect(screen.getByText('This page is for staff. You are signed in as rita@frontdesk.test with the runner role.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.path.startsWith('/api/pt/'))).toBe(false);
  });

  it('shows its tab to staff only; a runner’s food-court tabs are the stalls and the board, no menu or cart', async () => {
    fakeBff([asRunner, ...fakePt().handlers], { signedIn: true });
    renderApp('/pt/stalls');
    expect(await screen.findByText('Rita Runner')).toBeInTheDocument(); // the header knows who is signed in
    const tabs = within(screen.getByRole('navigation', { name: 'Food court' }));
    expect(tabs.getAllByRole('link').map((link) => link.textContent)).toEqual(['Stalls', 'Runner board']);
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link').map((link) => link.textContent)).toEqual(['Runner board', 'Chat']);
  });
});
