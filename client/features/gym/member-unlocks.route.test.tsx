import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { webhookApi, type KisiEvent } from '@contracts/webhook.contract';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, kisiEvent, renderApp } from '@/test-support/test-utils';
import { handle } from '@/test-support/test-server';
import { fakeGym, member, owner } from '@/test-support/gym.fake-api';

fakeEventSourceEachTest();
afterEach(() => jest.restoreAllMocks());

const marta = owner(1, { name: 'Marta Kowalski', gymName: 'Iron Harbour' });
const ada = member(7, marta, { name: 'Ada Lovelace', email: 'ada@members.example' });

const adaUnlock = (id: number, overrides: Partial<KisiEvent> = {}) => kisiEvent(id, { actorName: 'Ada Lovelace', actorEmail: 'ada@members.example', ...overrides });

/** `GET /api/webhooks/unlocks?email=`: that email's lock.unlock events, newest (highest id) first. */
function fakeUnlocks(events: KisiEvent[]) {
  return handle(webhookApi.unlocksOf, ({ query: { email, page, pageSize } }) => {
    const mine = events.filter((e) => e.type === 'lock.unlock' && e.actorEmail === email).sort((a, b) => b.id - a.id);
    return { items: mine.slice(page * pageSize, page * pageSize + pageSize), page, pageSize, total: mine.length };
  });
}

function setup(path: string, events: KisiEvent[]) {
  const gym = fakeGym({ owners: [marta], members: [ada] });
  const api = fakeBff([...gym.handlers, fakeUnlocks(events)], { signedIn: true });
  renderApp(path);
  return { api, user: userEvent.setup() };
}

describe('/shell/gymowner/users/:id/unlocks', () => {
  it('loads the member, then their unlocks by email: door, time, and Kisi’s reason for a refusal', async () => {
    const { api } = setup('/shell/gymowner/users/7/unlocks', [
      adaUnlock(1, { objectName: 'Main Entrance' }),
      adaUnlock(2, { objectName: 'Gym Floor', success: false, errorCode: 'afc496', errorMessage: 'Access denied: outside your booking' }),
      kisiEvent(3, { actorEmail: 'someone@else.example' }),
    ]);
    const list = await screen.findByRole('list', { name: 'Unlocks' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Gym Floor');
    expect(items[0]).toHaveTextContent('Refused');
    expect(items[0]).toHaveTextContent('Access denied: outside your booking');
    expect(items[1]).toHaveTextContent('Main Entrance');
    expect(items[1]).toHaveTextContent('Opened');
    expect(screen.getByRole('link', { name: 'Unlocks' })).toHaveAttribute('aria-current', 'page');
    const reads = api.calls.map((c) => c.path);
    const unlocksCall = reads.indexOf('/api/webhooks/unlocks?email=ada%40members.example&page=0&pageSize=10');
    expect(unlocksCall).toBeGreaterThan(reads.indexOf('/api/gym/users/7'));
    expect(reads.indexOf('/api/gym/users/7')).toBeGreaterThanOrEqual(0);
  });

  it('reads the unlocks again when the live stream reopens after a drop', async () => {
    const events = [adaUnlock(1, { objectName: 'Main Entrance' })];
    setup('/shell/gymowner/users/7/unlocks', events);
    const list = await screen.findByRole('list', { name: 'Unlocks' });
    act(() => FakeEventSource.current().open());
    act(() => FakeEventSource.current().drop());
    expect(screen.getByText('Reconnecting…')).toBeInTheDocument();
    // Stored while the stream was down: no live event will ever announce it.
    events.push(adaUnlock(2, { objectName: 'Gym Floor' }));
    act(() => FakeEventSource.current().open());
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Gym Floor');
  });

  it('adds the member’s new unlocks live, and only theirs', async () => {
    const events = [adaUnlock(1, { objectName: 'Main Entrance' })];
    setup('/shell/gymowner/users/7/unlocks', events);
    const list = await screen.findByRole('list', { name: 'Unlocks' });
    act(() => FakeEventSource.current().open());
    // As in the BFF, an event is stored before it is published (a refetch may already see it).
    const arrive = (event: KisiEvent, id: string) => {
      events.push({ ...event, actorEmail: event.actorEmail?.toLowerCase() ?? null });
      act(() => FakeEventSource.current().emit('webhook', event, id));
    };
    arrive(kisiEvent(2, { actorEmail: 'someone@else.example', objectName: 'Back Door' }), '10');
    arrive(adaUnlock(3, { type: 'lock.lockdown', objectName: 'Server Room' }), '11');
    arrive(adaUnlock(4, { actorEmail: 'ADA@members.example', objectName: 'Yoga Studio' }), '12');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    const [newest] = within(list).getAllByRole('listitem');
    expect(newest).toHaveTextContent('Yoga Studio');
    expect(newest).toHaveTextContent('New');
    expect(list).not.toHaveTextContent('Back Door');
    expect(list).not.toHaveTextContent('Server Room');
    expect(screen.getByText('New unlock at Yoga Studio.')).toBeInTheDocument();
    expect(screen.getByText('Showing 1–2 of 2 unlocks')).toBeInTheDocument();
  });

  it('pages the unlocks (1-based URL page) and says how many arrived while on a later page', async () => {
    const events = Array.from({ length: 12 }, (_, i) => adaUnlock(i + 1, { objectName: `Door ${i + 1}` }));
    const { api, user } = setup('/shell/gymowner/users/7/unlocks?page=2', events);
    const list = await screen.findByRole('list', { name: 'Unlocks' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(api.calls.map((c) => c.path)).toContain('/api/webhooks/unlocks?email=ada%40members.example&page=1&pageSize=10');
    events.push(adaUnlock(13, { objectName: 'Door 13' }));
    act(() => FakeEventSource.current().emit('webhook', adaUnlock(13, { objectName: 'Door 13' }), '20'));
    const latest = await screen.findByRole('link', { name: '1 new unlock since you opened this page: see the latest' });
    await user.click(latest);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Unlocks' })).getAllByRole('listitem')[0]).toHaveTextContent('Door 13'));
  });

  it('says when there are no unlocks yet', async () => {
    setup('/shell/gymowner/users/7/unlocks', []);
    expect(await screen.findByText('No unlocks yet')).toBeInTheDocument();
    expect(screen.getByText(/When Ada Lovelace opens a door with Kisi/)).toBeInTheDocument();
  });
});

describe('/shell/gymowner/users/:id/unlocks after years of visits', () => {
  it('says "1,000+", and its Next link carries the cursor into the address and the read', async () => {
    const gym = fakeGym({ owners: [marta], members: [ada] });
    const api = fakeBff(
      [
        ...gym.handlers,
        handle(webhookApi.unlocksOf, ({ query: { page, pageSize, next } }) =>
          next === 'u0'
            ? { items: [adaUnlock(5, { objectName: 'Sauna' })], page: 1, pageSize, total: 1_010, totalIsLowerBound: true, next: 'u1', previous: 'p5' }
            : { items: [adaUnlock(9, { objectName: 'Main Entrance' })], page, pageSize, total: 1_000, totalIsLowerBound: true, next: 'u0' },
        ),
      ],
      { signedIn: true },
    );
    renderApp('/shell/gymowner/users/7/unlocks');
    const user = userEvent.setup();
    expect(await screen.findByText('Showing 1–10 of 1,000+ unlocks')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Next' }));
    expect(await screen.findByText('Sauna')).toBeInTheDocument();
    expect(api.calls.map((c) => c.path).at(-1)).toBe('/api/webhooks/unlocks?email=ada%40members.example&page=1&next=u0&pageSize=10');
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute('href', '/shell/gymowner/users/7/unlocks?page=3&next=u1');
    expect(screen.getByRole('link', { name: 'Previous' })).toHaveAttribute('href', '/shell/gymowner/users/7/unlocks');
  });
});
