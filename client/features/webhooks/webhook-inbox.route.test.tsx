import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { webhookApi, type KisiEvent } from '@contracts/webhook.contract';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, kisiEvent, renderApp } from '@/test-utils';
import { handle, problem } from '@/test-server';

fakeEventSourceEachTest();
afterEach(() => jest.restoreAllMocks());

/** The inbox API: newest first (highest id here), paged, delete by id. */
function fakeInbox(events: KisiEvent[]) {
  return [
    handle(webhookApi.listEvents, ({ query: { page, pageSize } }) => {
      const sorted = [...events].sort((a, b) => b.id - a.id);
      return { items: sorted.slice(page * pageSize, page * pageSize + pageSize), page, pageSize, total: events.length };
    }),
    handle(webhookApi.deleteEvent, ({ params }) => {
      const index = events.findIndex((e) => e.id === params.id);
      if (index < 0) return problem(404, 'Not Found', `No Kisi event with id ${params.id}.`);
      events.splice(index, 1);
    }),
  ];
}

function setup(path: string, events: KisiEvent[]) {
  const api = fakeBff(fakeInbox(events), { signedIn: true });
  renderApp(path);
  return { api, user: userEvent.setup() };
}

const inboxCalls = (api: { calls: { method: string; path: string }[] }) => api.calls.filter((c) => c.path.startsWith('/api/webhook')).map((c) => `${c.method} ${c.path}`);
const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('/shell/webhook', () => {
  it('shows the events newest first with who, door, result and the refusal, on 1-based URL pages', async () => {
    const events = [
      kisiEvent(1, { actorName: 'Alice Moreau', actorEmail: 'alice.moreau@mail.example' }),
      kisiEvent(2, { actorName: 'Kofi Mensah', objectName: 'Gym Floor', success: false, errorCode: 'afc496', errorMessage: 'Access denied: no role on this place' }),
    ];
    const { api } = setup('/shell/webhook?page=abc', events);
    await screen.findByRole('table');
    expect(inboxCalls(api)).toEqual(['GET /api/webhook?page=0&pageSize=10']);
    const [first, second] = rows();
    expect(first).toHaveTextContent('Kofi Mensah');
    expect(first).toHaveTextContent('Gym Floor');
    expect(within(first!).getByText('Failed')).toBeInTheDocument();
    expect(first).toHaveTextContent('Access denied: no role on this place');
    expect(second).toHaveTextContent('Alice Moreau');
    expect(second).toHaveTextContent('alice.moreau@mail.example');
    expect(within(second!).getByText('Success')).toBeInTheDocument();
    expect(screen.getByText('Showing 1–2 of 2 events')).toBeInTheDocument();
  });

  it('pages through the events', async () => {
    const events = Array.from({ length: 13 }, (_, i) => kisiEvent(i + 1));
    const { api, user } = setup('/shell/webhook?page=2', events);
    await screen.findByRole('table');
    expect(inboxCalls(api)).toEqual(['GET /api/webhook?page=1&pageSize=10']);
    expect(rows()).toHaveLength(3);
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Previous' }));
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(rows()[0]).toHaveTextContent('Person 13');
  });

  it('deletes an event only after confirming', async () => {
    const events = [kisiEvent(1, { actorName: 'Alice Moreau' }), kisiEvent(2, { actorName: 'Bruno Costa' })];
    const { api, user } = setup('/shell/webhook', events);
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: /^Delete event 2 / }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this event?' });
    expect(dialog).toHaveTextContent('Bruno Costa');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(inboxCalls(api).filter((c) => c.startsWith('DELETE'))).toEqual([]);
    expect(rows()).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: /^Delete event 2 / }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete event' }));
    expect(await screen.findByText(/^Deleted Bruno Costa’s unlock( at .+)? \(.+\)\.$/)).toBeInTheDocument();
    expect(screen.queryByText(/Event 2/)).not.toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByText('Bruno Costa')).not.toBeInTheDocument();
    expect(inboxCalls(api)).toContain('DELETE /api/webhook/2');
  });

  it('keeps a refused delete in the dialog', async () => {
    const events = [kisiEvent(1)];
    const { user } = setup('/shell/webhook', events);
    await screen.findByRole('table');
    events.length = 0; // someone else deleted it meanwhile
    await user.click(screen.getByRole('button', { name: /^Delete event 1 / }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete event' }));
    expect(await within(screen.getByRole('dialog')).findByText('No Kisi event with id 1.')).toBeInTheDocument();
  });

  it('announces events arriving live as “N new events” and loads them in on request', async () => {
    const events = [kisiEvent(1, { actorName: 'Alice Moreau' })];
    const { user } = setup('/shell/webhook', events);
    await screen.findByRole('table');
    expect(screen.getByText('Connecting…')).toBeInTheDocument();
    act(() => FakeEventSource.current().open());
    expect(screen.getByText('Live')).toBeInTheDocument();
    expect(FakeEventSource.current().url).toBe('/api/events');

    const arrive = (event: KisiEvent, id: string) => {
      events.push(event);
      act(() => FakeEventSource.current().emit('webhook', event, id));
    };
    arrive(kisiEvent(2, { actorName: 'Bruno Costa' }), '41');
    expect(await screen.findByRole('button', { name: '1 new event' })).toBeInTheDocument();
    act(() => FakeEventSource.current().emit('order', { id: 5, table: 3 }, '42')); // not a door event
    arrive(kisiEvent(3, { actorName: 'Chen Wei' }), '43');
    act(() => FakeEventSource.current().emit('webhook', events[2], '43')); // a replay counts once
    const banner = await screen.findByRole('button', { name: '2 new events' });
    expect(rows()).toHaveLength(1);

    await user.click(banner);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[0]).toHaveTextContent('Chen Wei');
    expect(within(rows()[0]!).getByText('New')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /new event/ })).not.toBeInTheDocument();
  });

  it('shows an empty inbox', async () => {
    setup('/shell/webhook', []);
    expect(await screen.findByText('No door events yet')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('offers the last page when the URL page is past the end', async () => {
    setup('/shell/webhook?page=5', [kisiEvent(1)]);
    expect(await screen.findByText('This page is past the end')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to page 1' })).toHaveAttribute('href', '/shell/webhook');
  });
});
