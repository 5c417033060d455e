import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { webhookApi } from '@contracts/webhook.contract';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, kisiEvent, renderApp } from '@/test-support/test-utils';
import { handle } from '@/test-support/test-server';

fakeEventSourceEachTest();
afterEach(() => jest.restoreAllMocks());

async function setup() {
  fakeBff([], { signedIn: true });
  renderApp('/shell/sse');
  await screen.findByRole('heading', { name: 'Live stream', level: 1 });
  return userEvent.setup();
}

const connection = () => screen.getByRole('region', { name: 'Connection' });
const send = (type: string, data: unknown, id: string) => act(() => FakeEventSource.current().emit(type, data, id));

describe('/shell/sse', () => {
  it('shows the connection state, reconnects and the last event id', async () => {
    await setup();
    expect(within(connection()).getByText('Connecting…')).toBeInTheDocument();
    act(() => FakeEventSource.current().open());
    expect(within(connection()).getByText('Live')).toBeInTheDocument();
    expect(screen.getByText('Waiting for events')).toBeInTheDocument();

    send('webhook', kisiEvent(5, { actorName: 'Alice Moreau', objectName: 'Main Entrance' }), '17');
    const log = screen.getByRole('log', { name: 'Events' });
    expect(within(log).getByText('Alice Moreau unlocked Main Entrance')).toBeInTheDocument();
    expect(within(log).getByText('#17')).toBeInTheDocument();
    expect(within(log).getByText('webhook')).toBeInTheDocument();
    expect(screen.getByTestId('last-event-id')).toHaveTextContent('17');

    act(() => FakeEventSource.current().drop());
    expect(within(connection()).getByText('Reconnecting…')).toBeInTheDocument();
    expect(screen.getByTestId('reconnects')).toHaveTextContent('1');
    act(() => FakeEventSource.current().open());
    expect(within(connection()).getByText('Live')).toBeInTheDocument();
  });

  it('shows a refusal with Kisi’s reason, and the event as JSON on demand', async () => {
    const user = await setup();
    act(() => FakeEventSource.current().open());
    send('webhook', kisiEvent(6, { actorName: 'Kofi Mensah', objectName: 'Gym Floor', success: false, errorMessage: 'Access denied' }), '3');
    expect(screen.getByText('Kofi Mensah was refused at Gym Floor: Access denied')).toBeInTheDocument();
    const details = screen.getByText('Data').closest('details')!;
    expect(details).not.toHaveAttribute('open');
    await user.click(screen.getByText('Data'));
    expect(details).toHaveAttribute('open');
    expect(details).toHaveTextContent('"errorMessage": "Access denied"');
  });

  it('buffers while paused, says how many are waiting, and shows them on resume', async () => {
    const user = await setup();
    act(() => FakeEventSource.current().open());
    send('webhook', kisiEvent(1, { actorName: 'First Person' }), '1');
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    send('webhook', kisiEvent(2, { actorName: 'Second Person' }), '2');
    send('order', { id: 9, table: 4, status: 'new' }, '3');
    expect(screen.getByText('Paused: 2 events waiting.')).toBeInTheDocument();
    const log = screen.getByRole('log', { name: 'Events' });
    expect(within(log).getAllByRole('listitem')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Resume' }));
    const items = within(log).getAllByRole('listitem');
    expect(items.map((i) => i.querySelector('.live-summary')?.textContent)).toEqual(['Order 9 for table 4 (new)', 'Second Person unlocked Main Entrance', 'First Person unlocked Main Entrance']);
    expect(screen.queryByText(/waiting/)).not.toBeInTheDocument();
  });

  it('clears the list, and disconnects and reconnects from the last event id', async () => {
    const user = await setup();
    act(() => FakeEventSource.current().open());
    send('webhook', kisiEvent(1), '8');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
    expect(screen.getByText('Waiting for events')).toBeInTheDocument();

    const first = FakeEventSource.current();
    await user.click(screen.getByRole('button', { name: 'Disconnect' }));
    expect(first.readyState).toBe(FakeEventSource.CLOSED);
    expect(within(connection()).getByText('Disconnected')).toBeInTheDocument();
    expect(screen.getByText('Connect again to catch up from event 8.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(FakeEventSource.current()).not.toBe(first);
    expect(FakeEventSource.current().url).toBe('/api/events?lastEventId=8');
    expect(within(connection()).getByText('Connecting…')).toBeInTheDocument();
  });

  it('hands its stream to the next live page: one EventSource per tab, not one per page', async () => {
    fakeBff([handle(webhookApi.listEvents, () => ({ items: [], page: 0, pageSize: 10, total: 0 })), handle(webhookApi.filterChoices, () => ({ doors: [], types: [] }))], { signedIn: true });
    const { router } = renderApp('/shell/sse');
    await screen.findByRole('heading', { name: 'Live stream', level: 1 });
    act(() => FakeEventSource.current().open());
    await act(() => router.navigate('/shell/webhook'));
    await screen.findByRole('heading', { name: 'Door events', level: 1 });
    expect(screen.getByText('Live')).toBeInTheDocument();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(FakeEventSource.current().readyState).toBe(FakeEventSource.OPEN);
  });

  it('retries by itself when the server refuses the stream', async () => {
    await setup(); // with real timers: fake ones stall the fetch bodies, and the header's session would land after the test
    await screen.findByRole('button', { name: 'Sign out' });
    jest.useFakeTimers();
    try {
      act(() => FakeEventSource.current().drop({ closed: true }));
      expect(within(connection()).getByText('Reconnecting…')).toBeInTheDocument();
      const before = FakeEventSource.instances.length;
      act(() => jest.advanceTimersByTime(1000));
      expect(FakeEventSource.instances.length).toBe(before + 1);
      act(() => FakeEventSource.current().open());
      expect(within(connection()).getByText('Live')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });
});
