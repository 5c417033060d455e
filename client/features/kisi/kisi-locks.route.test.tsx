import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { fakeKisi, kisiLock } from '@/test-support/kisi.fake-api';

afterEach(() => jest.restoreAllMocks());

const entrance = kisiLock(1, { name: 'Main Entrance' });
const server = kisiLock(6, { name: 'Server Room', locked_down: true });
const cold = kisiLock(8, { name: 'Cold Store', online: false, place: { id: 2, name: 'Food Court' } });

function setup() {
  const kisi = fakeKisi({ locks: [entrance, server, cold] });
  const api = fakeBff(kisi.handlers, { signedIn: true });
  renderApp('/kisi/locks');
  return { kisi, api, user: userEvent.setup() };
}

describe('/kisi/locks', () => {
  it('lists the locks with their place, online and lockdown state', async () => {
    setup();
    const table = await screen.findByRole('table', { name: 'Kisi locks' });
    const coldRow = within(table).getByText('Cold Store').closest('tr')!;
    expect(coldRow).toHaveTextContent('Food Court');
    expect(coldRow).toHaveTextContent('Offline');
    expect(within(table).getByText('Server Room').closest('tr')).toHaveTextContent('Locked down');
  });

  it('unlocks a door, pending while Kisi answers, then says Unlocked!', async () => {
    const { api } = setup();
    const button = await screen.findByRole('button', { name: 'Unlock Main Entrance' });
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveTextContent('Unlocking…');
    expect(await screen.findByText('Unlocked!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unlock Main Entrance' })).not.toHaveAttribute('aria-disabled');
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/kisi/locks/1/unlock')).toBe(true);
  });

  it('offers no Unlock on a door that is locked down or offline, and says why', async () => {
    setup();
    const table = await screen.findByRole('table', { name: 'Kisi locks' });
    expect(within(table).getByText('Server Room').closest('tr')).toHaveTextContent('Locked down: no remote unlock');
    expect(within(table).getByText('Cold Store').closest('tr')).toHaveTextContent('Offline: no remote unlock');
    expect(screen.queryByRole('button', { name: 'Unlock Server Room' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unlock Cold Store' })).not.toBeInTheDocument();
  });

  it('shows Kisi’s own words when a door went into lockdown (409) or offline (503) after the page loaded', async () => {
    const { kisi, user } = setup();
    await screen.findByRole('button', { name: 'Unlock Main Entrance' });
    kisi.locks.find((lock) => lock.id === 1)!.locked_down = true;
    await user.click(screen.getByRole('button', { name: 'Unlock Main Entrance' }));
    expect(await screen.findByText('Could not unlock Main Entrance')).toBeInTheDocument();
    expect(screen.getByText('The door is currently locked down.')).toBeInTheDocument();
  });

  it('keeps the page when Kisi is down', async () => {
    const { kisi } = setup();
    kisi.down = true;
    expect(await screen.findByText('Could not load the locks from Kisi: Kisi could not be reached. Try again in a moment.')).toBeInTheDocument();
  });
});
